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
  /** What the runtime lends its tools (keys, the embedder); absent in unit tests, which use the defaults. */
  services?: ToolServices;
}

/** What tools that reach providers or read and search pages and files get from the runtime that runs them. */
export interface ToolServices {
  /** Where keys are read (the runtime's environment: the shell's for the CLI, with the keychain's keys in the app). */
  env: NodeJS.ProcessEnv;
  /** Reading pages and files as text and searching them: the knowledge layer, lent to the tools (as memory is to the memory tools). */
  knowledge?: ToolKnowledge;
}

/** A downloaded page: its media type and (possibly cut) bytes. */
export interface FetchedPage {
  contentType: string;
  bytes: Uint8Array;
  /** The download stopped at its size cap; only the start was read. */
  cut?: boolean;
}

export interface ReadablePage {
  url: string;
  title?: string;
  /** The page's readable text (an HTML page's main content, without menus and scripts). */
  text: string;
  cut: boolean;
}

/** A text to search, under the key the knowledge store keeps its chunks by. */
export interface SearchableText {
  key: string;
  name: string;
  text: string;
}

export interface SearchSettings {
  limit?: number;
  minScore?: number;
}

/** What the page and file tools use of the knowledge layer (runtime/knowledge/toolKnowledge.ts). */
export interface ToolKnowledge {
  /**
   * Downloads a page through the guarded fetch, cut at its size cap. `pinned`: the URL is in the tool's
   * settings (reached as a knowledge URL is); otherwise the model chose it (public addresses only).
   */
  fetchPage(url: string, options: { pinned: boolean; signal: AbortSignal }): Promise<FetchedPage>;
  readable(url: string, page: FetchedPage): Promise<ReadablePage>;
  /** The text of each element a CSS selector matches. */
  select(page: FetchedPage, selector: string): Promise<string[]>;
  /**
   * Reads workspace files (paths relative to the workspace) as knowledge reads them, ingests them (once per
   * content hash) and returns the best chunks for the query; files that cannot be read are listed, not searched.
   */
  searchFiles(paths: readonly string[], query: string, settings: SearchSettings, signal: AbortSignal): Promise<{ found: string; skipped: string[] }>;
  /** The same for texts already read (a page). */
  searchTexts(texts: readonly SearchableText[], query: string, settings: SearchSettings, signal: AbortSignal): Promise<string>;
}

/** The knowledge services a tool needs; a runtime always lends them. */
export function toolKnowledge(ctx: ToolContext, tool: string): ToolKnowledge {
  if (!ctx.services?.knowledge) throw new ToolError(`${tool} cannot read pages or files here: the runtime lends it no knowledge services`);
  return ctx.services.knowledge;
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
