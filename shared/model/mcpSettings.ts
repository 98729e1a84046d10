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

const PYTHON_MODULE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * A project's own Python tools (`@tool` functions, `BaseTool` subclasses), run by Crewdeck's bridge with
 * the project's interpreter and spoken to over MCP stdio. Each tool is `mcp:<server>/<Python identifier>`.
 */
export const McpPythonServerSchema = z.strictObject({
  transport: z.literal('python'),
  /** The project's folder (absolute, or relative to the workspace); the bridge runs in it. */
  project: z.string().min(1),
  /** Folders, relative to the project, that modules are imported from (e.g. `src`). */
  path: z.array(z.string().min(1)).default([]),
  /** Dotted names of the modules that define the tools. */
  modules: z.array(z.string().regex(PYTHON_MODULE, 'must be a dotted Python module name, e.g. pkg.tools.custom_tool')).min(1, 'list at least one module'),
  /** The interpreter to use instead of the project's own (.venv, else `uv run python`, else python3). */
  python: z.string().min(1).optional(),
  /** Extra environment for the tools (as for stdio servers: `${VAR}` is taken from yours). */
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), envTemplated).optional(),
  timeoutMs: z.number().int().positive().optional(),
});

export const McpServerSchema = z.discriminatedUnion('transport', [McpStdioServerSchema, McpHttpServerSchema, McpPythonServerSchema]);
export type McpServerSettings = z.infer<typeof McpServerSchema>;

export const McpSettingsSchema = z.strictObject({
  servers: z
    .record(z.string().regex(MCP_SERVER_NAME, 'an MCP server name may only use letters, digits, "_" and "-"'), McpServerSchema)
    .default({}),
});
export type McpSettings = z.infer<typeof McpSettingsSchema>;
