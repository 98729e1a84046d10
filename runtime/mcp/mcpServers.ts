import type { McpSettings } from '../../shared/model/mcpSettings';
import type { ToolRegistry } from '../tools/registry';
import type { Tool } from '../tools/tool';
import { McpConnection, type McpConnectOptions, type McpToolInfo } from './mcpConnection';
import { McpServerUnavailable } from './mcpErrors';
import { mcpTool } from './mcpTool';
import { mcpHeldParts } from '../trust/heldParts';
import { requireTrusted } from '../trust/workspaceTrust';

/** One server's tools as the palette shows them, or why they could not be listed. */
export interface McpServerListing {
  server: string;
  tools: McpToolInfo[];
  error?: string;
}

/**
 * The workspace's MCP servers (from `crewdeck.json`). A run gets its own session: the servers its
 * documents reference are started when the run is prepared (their tool schemas are needed before it
 * opens), reused by every task of the run and closed when it ends.
 */
export class McpServers {
  constructor(
    private readonly settings: McpSettings | undefined,
    private readonly options: McpConnectOptions,
  ) {}

  names(): string[] {
    return Object.keys(this.settings?.servers ?? {});
  }

  session(): McpRunSession {
    return new McpRunSession(this.settings?.servers ?? {}, this.options);
  }

  /** Starts every configured server, lists its tools and stops it again (for the palette and inspector). */
  async listTools(): Promise<McpServerListing[]> {
    const session = this.session();
    try {
      return await Promise.all(
        this.names().map(async (server): Promise<McpServerListing> => {
          try {
            return { server, tools: (await session.connect(server)).tools };
          } catch (error) {
            return { server, tools: [], error: error instanceof Error ? error.message : String(error) };
          }
        }),
      );
    } finally {
      await session.close();
    }
  }
}

/** The MCP servers of one run. */
export class McpRunSession {
  private readonly connections = new Map<string, Promise<McpConnection>>();

  constructor(
    private readonly servers: McpSettings['servers'],
    private readonly options: McpConnectOptions,
  ) {}

  /** Starts a server (once per session). Rejects with McpServerUnavailable or McpConfigInvalid. */
  connect(server: string): Promise<McpConnection> {
    let connection = this.connections.get(server);
    if (!connection) {
      const settings = this.servers[server];
      if (!settings) return Promise.reject(new McpServerUnavailable(server, 'no server by that name is configured'));
      if (this.options.trust) {
        // The server's own part and every workspace file it runs, as they are now (a script changed since
        // the grant holds it again, naming the file).
        try {
          requireTrusted(this.options.trust, mcpHeldParts(server, settings, this.options.workspace));
        } catch (error) {
          return Promise.reject(error);
        }
      }
      connection = McpConnection.open(server, settings, this.options);
      this.connections.set(server, connection);
    }
    return connection;
  }

  /**
   * The registry with the tools of these servers on top. A server that is not configured or cannot
   * start adds no tools; documents naming its tools then fail preflight with the reason. Settings
   * that cannot be used (an unset environment variable) throw McpConfigInvalid.
   */
  async registryFor(base: ToolRegistry, servers: Iterable<string>): Promise<ToolRegistry> {
    const wanted = [...new Set(servers)];
    if (wanted.length === 0) return base;
    const configured = Object.keys(this.servers);
    const tools: Tool[] = [];
    const reasons: Record<string, string> = {};
    await Promise.all(
      wanted.map(async (server) => {
        const prefix = `mcp:${server}/`;
        if (!Object.prototype.hasOwnProperty.call(this.servers, server)) {
          reasons[prefix] =
            `no MCP server named "${server}" is configured in this workspace ` +
            (configured.length ? `(configured: ${configured.join(', ')})` : '(crewdeck.json declares no MCP servers under mcp.servers)');
          return;
        }
        let connection: McpConnection;
        try {
          connection = await this.connect(server);
        } catch (error) {
          if (!(error instanceof McpServerUnavailable)) throw error;
          reasons[prefix] = error.message;
          return;
        }
        for (const info of connection.tools) tools.push(mcpTool(server, info, (tool, args, signal, onOutput) => connection.call(tool, args, signal, onOutput)));
        reasons[prefix] = connection.tools.length
          ? `MCP server "${server}" has the tools: ${connection.tools.map((t) => t.name).join(', ')}`
          : `MCP server "${server}" lists no tools`;
      }),
    );
    return base.extend(tools, reasons);
  }

  /** Stops every server this session started (waits for them to exit). */
  async close(): Promise<void> {
    const started = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(started.map(async (c) => (await c.catch(() => undefined))?.close()));
  }
}
