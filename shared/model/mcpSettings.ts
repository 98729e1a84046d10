import { z } from 'zod';
import { HttpUrlSchema } from './httpUrl';

/** An MCP server's name: the `<server>` in `mcp:<server>/<tool>`. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Values that may name environment variables as `${NAME}` (expanded when the server starts), so
 * secrets such as tokens stay out of `crewdeck.json`.
 */
const envTemplated = z.string();

/** A server the runtime starts as a child process and talks to over stdin/stdout. */
export const McpStdioServerSchema = z.strictObject({
  transport: z.literal('stdio'),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  /** Extra environment for the server (the rest of ours is NOT passed on, apart from PATH/HOME and the like). */
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), envTemplated).optional(),
  /** Working directory; relative paths resolve from the workspace. */
  cwd: z.string().min(1).optional(),
  /** How long one tool call may take (default 60 s). */
  timeoutMs: z.number().int().positive().optional(),
});

/** A server reached over streamable HTTP. */
export const McpHttpServerSchema = z.strictObject({
  transport: z.literal('http'),
  url: HttpUrlSchema,
  headers: z.record(z.string().min(1), envTemplated).optional(),
  timeoutMs: z.number().int().positive().optional(),
});

export const McpServerSchema = z.discriminatedUnion('transport', [McpStdioServerSchema, McpHttpServerSchema]);
export type McpServerSettings = z.infer<typeof McpServerSchema>;

export const McpSettingsSchema = z.strictObject({
  servers: z
    .record(z.string().regex(MCP_SERVER_NAME, 'an MCP server name may only use letters, digits, "_" and "-"'), McpServerSchema)
    .default({}),
});
export type McpSettings = z.infer<typeof McpSettingsSchema>;
