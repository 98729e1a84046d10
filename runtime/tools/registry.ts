import type { BuiltinToolName } from '../../shared/model/tool';
import { calculatorTool } from './calculator';
import { currentTimeTool } from './currentTime';
import { httpRequestTool } from './httpRequest';
import { listDirectoryTool } from './listDirectory';
import { readFileTool } from './readFile';
import { saveMemoryTool } from './saveMemory';
import { searchMemoryTool } from './searchMemory';
import type { Tool } from './tool';
import { writeFileTool } from './writeFile';
import { webSearchTool } from './webSearch';
import { scrapeWebsiteTool } from './scrapeWebsite';
import { websiteSearchTool } from './websiteSearch';
import { fileSearchTool } from './fileSearch';

export class DuplicateToolError extends Error {
  override name = 'DuplicateToolError';
  constructor(readonly toolName: string) {
    super(`a tool named "${toolName}" is already registered`);
  }
}

/** Tools by name. Names are unique; registration order is kept. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  /** Why tools under a name prefix are missing (an MCP server that could not start…). */
  private readonly missingReasons = new Map<string, string>();

  register(tool: Tool): this {
    if (this.tools.has(tool.name)) throw new DuplicateToolError(tool.name);
    this.tools.set(tool.name, tool);
    return this;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  /** A copy of this registry with more tools (a run's MCP tools on top of the runtime's). */
  extend(tools: Tool[], missingReasons: Record<string, string> = {}): ToolRegistry {
    const copy = new ToolRegistry();
    for (const tool of this.tools.values()) copy.register(tool);
    for (const tool of tools) copy.register(tool);
    for (const [prefix, reason] of [...this.missingReasons, ...Object.entries(missingReasons)]) copy.missingReasons.set(prefix, reason);
    return copy;
  }

  /** Why a tool that is not registered is missing, when the registry knows (by longest matching name prefix). */
  missingReason(name: string): string | undefined {
    let best: [string, string] | undefined;
    for (const entry of this.missingReasons) if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
    return best?.[1];
  }
}

export const BUILTIN_TOOL_IMPLEMENTATIONS = {
  read_file: readFileTool,
  write_file: writeFileTool,
  list_directory: listDirectoryTool,
  http_request: httpRequestTool,
  calculator: calculatorTool,
  current_time: currentTimeTool,
  search_memory: searchMemoryTool,
  save_memory: saveMemoryTool,
  web_search: webSearchTool,
  scrape_website: scrapeWebsiteTool,
  website_search: websiteSearchTool,
  file_search: fileSearchTool,
} satisfies Record<BuiltinToolName, Tool>;

export function createBuiltinRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of Object.values(BUILTIN_TOOL_IMPLEMENTATIONS)) registry.register(tool);
  return registry;
}

/** The shape chat models take in their `tools` list. */
export function toChatSchema(tool: Tool): { name: string; description: string; parameters: Record<string, unknown> } {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}
