import type { Span } from '../events/span';

/** What a tool gets besides its arguments. */
export interface ToolContext {
  /** Absolute path of the workspace folder; file tools never leave it. */
  workspace: string;
  signal: AbortSignal;
  agentRole: string;
  taskId?: string;
  /** The ToolRef's `config` from the document. */
  config: Record<string, unknown>;
  /** The tool call's span: tools that do traced work (delegation) nest their events under it. */
  span?: Span;
  /** The run's memory, when the crew has memory enabled (memory tools). */
  memory?: ToolMemory;
}

/** Memory as the memory tools see it. */
export interface ToolMemory {
  search(queries: string[], limit: number): Promise<{ query: string; results: { id: string; content: string; score: number }[] }[]>;
  /** Staged with the task's attempt (default policy) or written at once. */
  save(
    memory: { content: string; categories?: string[]; importance?: number },
    call: { agentRole: string; taskId?: string; span?: Span },
  ): Promise<'staged' | 'committed'>;
}

/** A tool is data plus a JSON Schema for its arguments plus an execute function. */
export interface Tool {
  name: string;
  description: string;
  /** JSON Schema of an object. */
  parameters: Record<string, unknown>;
  /** Results may be reused for identical arguments within a run (default true). */
  cacheable?: boolean;
  /** Called when a run is about to use the tool: starts slow set-up (a child process…) in the background. */
  warmUp?(): void;
  /** Returns the observation text. Throw ToolError for an expected failure the agent should read. */
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<string>;
}

/** An expected tool failure; its message becomes the agent's observation. */
export class ToolError extends Error {
  override name = 'ToolError';
}

export function defineTool(tool: Tool): Tool {
  return tool;
}
