import { z } from 'zod';
import { HttpUrlSchema } from './httpUrl';

/** Inline model settings, or the name of a model profile from the workspace settings. */
export const InlineModelSchema = z.strictObject({
  provider: z.enum(['openai', 'scripted']),
  model: z.string().min(1),
  baseUrl: HttpUrlSchema.optional(),
  /** Name of the environment variable holding the API key (keys never live in documents). */
  apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().optional(),
  /** Use the provider's native tool calling; false switches the agent to the ReAct text protocol. */
  nativeTools: z.boolean().optional(),
  /** Scripted provider: path of a script file (relative to the document) or the script inline. */
  script: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
  /** Stream replies (openai provider); usage is still reported. */
  stream: z.boolean().optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
});
export type InlineModel = z.infer<typeof InlineModelSchema>;

export const ModelRefSchema = z.union([z.string().min(1), InlineModelSchema]);
export type ModelRef = z.infer<typeof ModelRefSchema>;
