import { resolve } from 'node:path';
// The SDK is loaded when a server is opened, not when a run starts (a run that names no MCP server never
// pays for it): only types are imported statically.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerSettings } from '../../shared/model/mcpSettings';
import { ToolError } from '../tools/tool';
import { redactSecrets } from '../redactSecrets';
import { expandEnv, expandEnvRecord } from './expandEnv';
import type { TrustGate } from '../trust/workspaceTrust';
import { McpServerUnavailable } from './mcpErrors';
import { resultText } from './mcpResult';
import { bridgeLaunch } from './pythonBridge';

export const DEFAULT_MCP_CALL_TIMEOUT_MS = 60_000;
/** Starting a server (spawn + handshake + tools/list); `npx` servers may need a while. */
export const MCP_START_TIMEOUT_MS = 30_000;
const CLIENT_INFO = { name: 'crewdeck', version: '0.1.0' };
const STDERR_KEPT = 2000;

/** A tool as an MCP server lists it. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
}

export interface McpConnectOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  startTimeoutMs?: number;
  /** Asked before a server that runs a command, reads environment variables or is on a local, private or metadata host starts (workspace trust). */
  trust?: TrustGate;
}

/**
 * One running MCP server: started, handshaken and its tools listed by `open`. A server that exits
 * (or whose connection drops) stays marked as gone: later calls fail at once with a ToolError that
 * names it, and calls in flight are rejected by the SDK (never left hanging).
 */
export class McpConnection {
  private closing = false;
  private gone: string | undefined;
  private stderr = '';

  /** Receivers of the server's stderr during calls in flight; with none, it waits for the next call. */
  private readonly outputListeners = new Set<(text: string) => void>();
  private pendingOutput = '';

  private constructor(
    readonly server: string,
    private readonly client: Client,
    private readonly secrets: string[],
    private readonly callTimeoutMs: number,
    /** The Python bridge: its stderr (tracebacks, prints) reaches the trace only, never a model's observation. */
    private readonly stderrPrivate = false,
    public tools: McpToolInfo[] = [],
  ) {}

  static async open(server: string, settings: McpServerSettings, options: McpConnectOptions): Promise<McpConnection> {
    const secrets: string[] = [];
    const transport = await openTransport(server, settings, options, secrets);
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client(CLIENT_INFO);
    const connection = new McpConnection(server, client, secrets, settings.timeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS, settings.transport === 'python');
    connection.watch(transport, settings.transport !== 'http');
    const timeout = options.startTimeoutMs ?? MCP_START_TIMEOUT_MS;
    try {
      await client.connect(transport, { timeout });
      connection.tools = await connection.listAllTools(timeout);
    } catch (error) {
      await connection.close();
      throw new McpServerUnavailable(server, connection.explain(error));
    }
    return connection;
  }

  /**
   * Calls a tool; the result becomes observation text. Failures are ToolErrors naming the server.
   * `onOutput` gets what the server wrote to stderr during the call (and before it, since the last call), once, when it ends.
   */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal, onOutput?: (text: string) => void): Promise<string> {
    if (!onOutput) return this.callTool(tool, args, signal);
    let output = this.pendingOutput;
    this.pendingOutput = '';
    const listener = (text: string) => (output = capped(output + text));
    this.outputListeners.add(listener);
    try {
      return await this.callTool(tool, args, signal);
    } finally {
      this.outputListeners.delete(listener);
      if (output.trim() !== '') onOutput(this.redact(output));
    }
  }

  private async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<string> {
    if (this.gone) throw new ToolError(`MCP server "${this.server}" is not running (${this.gone}); its tool "${tool}" cannot be used in this run`);
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await this.client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: this.callTimeoutMs });
    } catch (error) {
      if (signal.aborted) throw error;
      if (isTimeout(error)) {
        throw new ToolError(`MCP server "${this.server}" did not answer the call of "${tool}" within ${this.callTimeoutMs} ms`);
      }
      if (this.gone) throw new ToolError(`MCP server "${this.server}" stopped during the call of "${tool}" (${this.gone})`);
      throw new ToolError(`MCP server "${this.server}" failed the call of "${tool}": ${this.stderrPrivate ? this.redact(errorText(error)) : this.explain(error)}`);
    }
    const text = this.redact(resultText(result));
    if (result.isError === true) throw new ToolError(`MCP tool "${tool}" (server "${this.server}") reported an error: ${text}`);
    return text;
  }

  get running(): boolean {
    return this.gone === undefined;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    try {
      await this.client.close();
    } catch {
      // The process may already be gone; closing is best effort.
    }
  }

  private async listAllTools(timeout: number): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : undefined, { timeout });
      for (const t of page.tools) {
        tools.push({
          name: t.name,
          description: t.description ?? t.title ?? '',
          inputSchema: (t.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
          readOnly: t.annotations?.readOnlyHint === true,
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  private watch(transport: Transport, stdio: boolean): void {
    if (stdio) {
      (transport as StdioClientTransport).stderr?.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        this.stderr = (this.stderr + text).slice(-STDERR_KEPT);
        if (this.outputListeners.size === 0) this.pendingOutput = capped(this.pendingOutput + text);
        for (const listener of this.outputListeners) listener(text);
      });
    }
    this.client.onclose = () => {
      if (this.closing) return;
      const last = this.lastStderrLine();
      // The bridge's last words (a traceback line) go to the trace with the call's output, not into the observation.
      this.gone = `the server exited or closed the connection${last && !this.stderrPrivate ? `; its last message: ${last}` : ''}`;
    };
  }

  private lastStderrLine(): string {
    const lines = this.redact(this.stderr).split('\n').map((l) => l.trim()).filter(Boolean);
    const last = lines.at(-1) ?? '';
    return last.length > 300 ? `${last.slice(0, 300)}…` : last;
  }

  private explain(error: unknown): string {
    const message = errorText(error);
    const last = this.lastStderrLine();
    return this.redact(last && !message.includes(last) ? `${message} (server said: ${last})` : message);
  }

  private redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }
}

/** What a server's stderr during one call keeps for the trace: its last 20,000 characters. */
const OUTPUT_KEPT = 20_000;

function capped(text: string): string {
  return text.length <= OUTPUT_KEPT ? text : `[… earlier output cut]\n${text.slice(-OUTPUT_KEPT)}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The transport for a server entry: a child process (stdio, the Python bridge) or streamable HTTP. */
async function openTransport(server: string, settings: McpServerSettings, options: McpConnectOptions, secrets: string[]): Promise<Transport> {
  const where = `mcp.servers.${server}`;
  if (settings.transport === 'http') {
    const url = expandEnv(settings.url, options.env, `${where}.url`);
    secrets.push(...url.secrets);
    const headers = expandEnvRecord(settings.headers, options.env, `${where}.headers`, secrets);
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(new URL(url.value), { requestInit: headers ? { headers } : undefined });
  }
  const env = expandEnvRecord(settings.env, options.env, `${where}.env`, secrets);
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  if (settings.transport === 'python') {
    const launch = bridgeLaunch(server, settings, options.workspace, options.env);
    return new StdioClientTransport({ command: launch.command, args: launch.args, env: { ...env, ...BRIDGE_ENV }, cwd: launch.cwd, stderr: 'pipe' });
  }
  return new StdioClientTransport({
    command: settings.command,
    args: settings.args,
    env,
    cwd: settings.cwd ? resolve(options.workspace, settings.cwd) : options.workspace,
    stderr: 'pipe',
  });
}

/** The bridge's Python: unbuffered UTF-8 streams, and no __pycache__ written into the project. */
const BRIDGE_ENV = { PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8', PYTHONDONTWRITEBYTECODE: '1' };

function isTimeout(error: unknown): boolean {
  // McpError with ErrorCode.RequestTimeout (-32001).
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === -32001;
}
