import { z } from 'zod';
import { HttpUrlSchema } from './httpUrl';
import { InlineModelSchema } from './modelRef';
import { McpSettingsSchema } from './mcpSettings';
import { PriceTableSchema } from './prices';

export const WORKSPACE_SETTINGS_FILE = 'crewdeck.json';

/** Which embedder turns memories into vectors. Changing it needs a memory reset (vectors do not mix). */
export const EmbedderSettingsSchema = z.discriminatedUnion('provider', [
  /** The offline default: no model, no network. */
  z.strictObject({ provider: z.literal('hashing') }),
  /** Any OpenAI-compatible embeddings endpoint (OpenAI, Ollama, LM Studio…). */
  z.strictObject({
    provider: z.literal('openai'),
    model: z.string().min(1),
    baseUrl: HttpUrlSchema.optional(),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').optional(),
    dimensions: z.number().int().positive().optional(),
  }),
]);
export type EmbedderSettings = z.infer<typeof EmbedderSettingsSchema>;

/** `crewdeck.json` at the workspace root. */
export const WorkspaceSettingsSchema = z.strictObject({
  version: z.literal(1),
  models: z
    .strictObject({
      default: z.string().optional(),
      profiles: z.record(z.string(), InlineModelSchema).default({}),
    })
    .default({ profiles: {} }),
  memory: z.strictObject({ embedder: EmbedderSettingsSchema.default({ provider: 'hashing' }) }).optional(),
  /** MCP tool servers; their tools are `mcp:<server>/<tool>`. */
  mcp: McpSettingsSchema.optional(),
  /** Training (SPEC §6): whether a new suggestion version is active at once, or a draft until approved. */
  training: z.strictObject({ newVersions: z.enum(['active', 'draft']).default('active') }).optional(),
  /** US dollars per million tokens by model name (or `provider:model`); overrides the built-in defaults (prices.ts). */
  prices: PriceTableSchema.optional(),
  /** The team server this workspace runs on and lists runs from (README "Team server"); the key is CREWDECK_API_KEY. */
  team: z.strictObject({ server: HttpUrlSchema }).optional(),
});
export type WorkspaceSettings = z.infer<typeof WorkspaceSettingsSchema>;
