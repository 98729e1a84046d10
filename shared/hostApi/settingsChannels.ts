import { z } from 'zod';
import { WorkspaceSettingsSchema } from '../model/workspace';
import { InlineModelSchema } from '../model/modelRef';
import { empty, ProblemSchema, type ChannelSchemas } from './requestFields';

export const ConnectionTestSchema = z.object({
  ok: z.boolean(),
  latencyMs: z.number(),
  /** Models the server lists (openai-compatible `GET /models`), when it lists any. */
  models: z.array(z.string()),
  /** How the server was reached: `models` (GET /models), or `chat` (a one-token chat request, for servers without /models). */
  method: z.enum(['models', 'chat', 'script']).optional(),
  error: z.string().optional(),
});

/** The workspace's settings and the model servers they name. */
export const SETTINGS_CHANNELS = {
  'settings.get': {
    request: empty,
    response: z.object({
      settings: WorkspaceSettingsSchema,
      problems: z.array(ProblemSchema),
      /** Environment variable names the profiles refer to, and whether each is set (values never leave the host). */
      keys: z.array(z.object({ name: z.string(), present: z.boolean() })),
    }),
  },
  'settings.save': {
    request: z.strictObject({ settings: z.unknown() }),
    response: z.object({
      problems: z.array(ProblemSchema),
      /**
       * Loopback base URLs this save recorded as the user's own model servers for this workspace (typed
       * here, on a port the workspace never named): testing and running on them need no trust.
       */
      entered: z.array(z.string()).optional(),
    }),
  },
  'settings.testConnection': {
    request: z.strictObject({ model: z.union([z.string().min(1), InlineModelSchema]) }),
    response: ConnectionTestSchema,
  },
  /**
   * *Connect a model*: which of the usual local model servers answer on 127.0.0.1 (Ollama 11434, LM Studio
   * 1234, vLLM 8000) and the models each lists. Asked only when the user opens that panel; the host probes
   * its fixed list, never a host or port the renderer names.
   */
  'models.probeLocal': {
    request: empty,
    response: z.object({
      servers: z.array(
        z.object({
          id: z.enum(['ollama', 'lmstudio', 'vllm']),
          label: z.string(),
          baseUrl: z.string(),
          /** Something answered on the port. */
          found: z.boolean(),
          models: z.array(z.string()),
          error: z.string().optional(),
        }),
      ),
    }),
  },
} as const satisfies ChannelSchemas;
