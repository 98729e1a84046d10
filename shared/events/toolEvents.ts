import { z } from 'zod';
import { num, readAs, str } from './eventParts';

/** The `tool.*` events: their payloads (the envelope is added by the emitter). */
export const TOOL_EVENTS = {
  /** `toolId`: the tool's id in the document (`web_search`) when the model knows it by another name (a ToolRef `name`). */
  'tool.started': z.strictObject({ tool: str, args: z.unknown(), agentRole: str, callId: str, readAs: readAs.optional(), toolId: str.optional() }),
  'tool.completed': z.strictObject({ tool: str, result: str, durationMs: num, resultAsAnswer: z.boolean() }),
  'tool.failed': z.strictObject({ tool: str, error: str, durationMs: num }),
  /** `repeated_call`: a ReAct agent repeated the call it just made (same tool, same input); the tool did not run. */
  'tool.blocked': z.strictObject({ tool: str, reason: str, by: z.enum(['hook', 'approval', 'usage_limit', 'repeated_call']) }),
  'tool.cached': z.strictObject({ tool: str, result: str }),
  /** What a tool's server process wrote to stderr during the call (MCP stdio servers, the Python bridge): for the trace, never the model. */
  'tool.output': z.strictObject({ tool: str, stream: z.literal('stderr'), text: str }),
};
