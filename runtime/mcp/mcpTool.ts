import type { Tool } from '../tools/tool';
import type { McpToolInfo } from './mcpConnection';

/** `mcp:<server>/<tool>`, the name documents use. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp:${server}/${tool}`;
}

/**
 * An MCP server's tool as a Crewdeck tool. Calls go through the policy gate like every tool; only
 * tools the server marks read-only are cacheable (others may change the world).
 */
export function mcpTool(
  server: string,
  info: McpToolInfo,
  call: (tool: string, args: Record<string, unknown>, signal: AbortSignal, onOutput?: (text: string) => void) => Promise<string>,
): Tool {
  const name = mcpToolName(server, info.name);
  return {
    name,
    description: info.description || `The "${info.name}" tool of the MCP server "${server}".`,
    parameters: toolParameters(info.inputSchema),
    cacheable: info.readOnly,
    // What the server writes to stderr during the call goes to the trace (a `tool.output` event), not to the model.
    execute: (args, ctx) => call(info.name, args, ctx.signal, ctx.span ? (text) => ctx.span?.emit({ type: 'tool.output', tool: ctx.toolName ?? name, stream: 'stderr', text }) : undefined),
  };
}

/** MCP input schemas are objects already; make sure they say so (some servers leave out `type`). */
function toolParameters(schema: Record<string, unknown>): Record<string, unknown> {
  return schema.type === undefined ? { type: 'object', ...schema } : schema;
}
