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
  /** The name the model called the tool by (a ToolRef `name`, or a `_2` suffix, may differ from the tool's own). */
  toolName?: string;
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
  /** The id documents use (`web_search`, `mcp:server/tool`), when the model knows the tool by another `name`. */
  id?: string;
  description: string;
  /** JSON Schema of an object. */
  parameters: Record<string, unknown>;
  /** Results may be reused for identical arguments within a run (default true). */
  cacheable?: boolean;
  /**
   * The description and parameters for a ToolRef's settings, when they change what the model sees (a
   * pinned path takes the `path` argument away). `execute` reads the same settings from `ctx.config`.
   */
  forConfig?(config: Record<string, unknown>): Pick<Tool, 'description' | 'parameters'>;
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
