import type { HostResponse } from '../../shared/host-api';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { McpServers } from '../mcp/mcpServers';
import { WorkspaceTrust } from '../trust/workspaceTrust';
import { mcpToolName } from '../mcp/mcpTool';
import { createBuiltinRegistry } from '../tools/registry';

type ToolList = HostResponse<'tools.list'>;

/** How long a listing is reused while the MCP settings stay the same (starting servers is slow). */
const LISTING_REUSED_MS = 60_000;

/**
 * `tools.list`: the built-in tools and every configured MCP server's tools, with their schemas.
 * Listing starts each server and stops it again, so a listing is reused for a minute unless the
 * workspace's MCP settings change; concurrent requests share one listing.
 */
export class HostTools {
  private last: { key: string; at: number; list: Promise<ToolList> } | undefined;

  constructor(private readonly options: { workspace: string; env: NodeJS.ProcessEnv; now?: () => number }) {}

  /** Drops the reused listing (after the workspace was trusted, its servers can start). */
  forget(): void {
    this.last = undefined;
  }

  list(settings: WorkspaceSettings): Promise<ToolList> {
    const now = (this.options.now ?? Date.now)();
    const key = JSON.stringify(settings.mcp ?? {});
    if (this.last && this.last.key === key && now - this.last.at < LISTING_REUSED_MS) return this.last.list;
    const list = listTools(settings, this.options);
    this.last = { key, at: now, list };
    list.catch(() => (this.last = undefined));
    return list;
  }
}

export async function listTools(settings: WorkspaceSettings, options: { workspace: string; env: NodeJS.ProcessEnv }): Promise<ToolList> {
  const builtins = createBuiltinRegistry()
    .list()
    .map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, source: 'builtin' as const }));
  // Listing starts the servers: a stdio server's command waits for workspace trust like a run's.
  const listings = await new McpServers(settings.mcp, { ...options, trust: new WorkspaceTrust(options.workspace) }).listTools();
  const mcp = listings.flatMap((l) =>
    l.tools.map((t) => ({ name: mcpToolName(l.server, t.name), description: t.description, parameters: t.inputSchema, source: 'mcp' as const, server: l.server })),
  );
  return {
    tools: [...builtins, ...mcp],
    servers: listings.map((l) => ({ name: l.server, toolCount: l.tools.length, ...(l.error ? { error: l.error } : {}) })),
  };
}
