import { ToolRegistry } from '../tools/registry';
import { ToolError, type Tool } from '../tools/tool';
import { isExternalTool, type Recording } from './recording';

/**
 * The registry for an offline re-run: tools that reach outside (http_request) return what they
 * returned in the recording, for the same agent in the same task, call by call; the others are kept.
 */
export function recordedExternalTools(tools: ToolRegistry, recording: Recording): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of tools.list()) registry.register(isExternalTool(tool.name) ? recordedTool(tool, recording) : tool);
  return registry;
}

/**
 * Stand-ins for the tools of the MCP servers a document names, from what the recorded run offered its
 * models: no server is started. A server the recording has no tools of is reported as missing.
 */
export function recordedMcpTools(tools: ToolRegistry, recording: Recording, servers: Iterable<string>): ToolRegistry {
  const wanted = new Set(servers);
  const standIns: Tool[] = [];
  const reasons: Record<string, string> = {};
  for (const server of wanted) {
    const prefix = `mcp:${server}/`;
    const recorded = [...recording.mcpTools].filter(([name]) => name.startsWith(prefix));
    reasons[prefix] = recorded.length
      ? `offline, MCP server "${server}" has the tools its recorded run offered: ${recorded.map(([name]) => name.slice(prefix.length)).join(', ')}`
      : `offline, MCP server "${server}" is not started and recorded run ${recording.runId} offered none of its tools`;
    for (const [name, t] of recorded) standIns.push(recordedTool({ name, description: t.description, parameters: t.parameters, execute: async () => '' }, recording));
  }
  return recordedExternalTools(tools, recording).extend(standIns, reasons);
}

function recordedTool(tool: Tool, recording: Recording): Tool {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    // The same settings-dependent parameters as the real tool (a pinned URL takes the `url` argument away).
    ...(tool.forConfig ? { forConfig: tool.forConfig.bind(tool) } : {}),
    cacheable: false,
    async execute(_args, ctx) {
      // Recorded under the name the model called it by (a ToolRef `name` may rename it).
      const result = recording.toolResult(ctx.toolName ?? tool.name, ctx.agentRole, ctx.taskId);
      if (!result.ok) throw new ToolError(result.text);
      return result.text;
    },
  };
}
