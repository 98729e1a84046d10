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

function recordedTool(tool: Tool, recording: Recording): Tool {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    cacheable: false,
    async execute(_args, ctx) {
      const result = recording.toolResult(tool.name, ctx.agentRole, ctx.taskId);
      if (!result.ok) throw new ToolError(result.text);
      return result.text;
    },
  };
}
