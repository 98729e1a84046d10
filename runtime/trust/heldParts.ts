import type { McpServerSettings } from '../../shared/model/mcpSettings';
import type { EmbedderSettings, WorkspaceSettings } from '../../shared/model/workspace';
import { forEachRecord } from './documentRecords';
import { digestOf, hostOf, type HeldPart } from './heldPart';
import { mcpFileParts } from './heldFiles';
import { pythonServerFileParts, pythonServerPart } from './pythonParts';
import { documentReachParts, localHostKind, modelHostHeldPart } from './networkParts';
import { userModelServers, type UserModelServers } from './userModelServers';

export { digestOf, type HeldPart } from './heldPart';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The held parts of the workspace's `crewdeck.json`. `servers`: the user's own model servers (a model
 * `baseUrl` on one of them is not held). With `workspace`, also the workspace files its MCP servers run.
 */
export function settingsHeldParts(settings: WorkspaceSettings | undefined, servers: UserModelServers = userModelServers(), workspace?: string): HeldPart[] {
  if (!settings) return [];
  const parts: HeldPart[] = [];
  for (const [name, server] of Object.entries(settings.mcp?.servers ?? {})) {
    parts.push(...(workspace === undefined ? [mcpHeldPart(name, server)].filter((p): p is HeldPart => p !== undefined) : mcpHeldParts(name, server, workspace)));
  }
  for (const [name, profile] of Object.entries(settings.models.profiles)) {
    const part = keyHeldPart(profile, `crewdeck.json models.profiles.${name}`) ?? modelHostHeldPart(profile, `crewdeck.json models.profiles.${name}.baseUrl`, servers);
    if (part) parts.push(part);
  }
  const embedder = settings.memory?.embedder;
  if (embedder) {
    const part = embedderHeldPart(embedder, servers);
    if (part) parts.push(part);
  }
  return parts;
}

/**
 * Everything trust must cover before an MCP server starts: its own part (`mcpHeldPart`) and one part per
 * workspace file it runs (its script, its command when that lies in the workspace: `heldFiles.ts`).
 */
export function mcpHeldParts(name: string, server: McpServerSettings, workspace: string, env: NodeJS.ProcessEnv = process.env): HeldPart[] {
  const own = mcpHeldPart(name, server);
  // A Python tool server's files usually lie outside the workspace (the project's own folder): all are hashed.
  const files = server.transport === 'python' ? pythonServerFileParts(name, server, workspace, env) : mcpFileParts(name, server, workspace, env);
  return [...(own ? [own] : []), ...files];
}

/**
 * An MCP server's held part: a stdio server's command, an HTTP server's `${VAR}`s, or an HTTP server on a
 * local, private or metadata host (a `network` part over its URL and headers); else undefined.
 */
export function mcpHeldPart(name: string, server: McpServerSettings): HeldPart | undefined {
  if (server.transport === 'python') return pythonServerPart(name, server);
  const where = `crewdeck.json mcp.servers.${name}`;
  const { timeoutMs: _timeout, ...content } = server;
  const digest = digestOf({ mcp: name, ...content });
  if (server.transport === 'stdio') {
    const vars = referencedVars([...Object.values(server.env ?? {})]);
    const line = [server.command, ...(server.args ?? [])].map(shellWord).join(' ');
    const extras = [
      server.cwd ? `in ${server.cwd}` : undefined,
      server.env ? `with environment ${Object.keys(server.env).join(', ')}` : undefined,
      vars.length ? `(passes ${vars.map((v) => `$${v}`).join(', ')} from your environment)` : undefined,
    ].filter(Boolean);
    return { kind: 'command', where, summary: `runs: ${line}${extras.length ? ` ${extras.join(' ')}` : ''}`, digest };
  }
  const vars = referencedVars([server.url, ...Object.values(server.headers ?? {})]);
  const local = localKindOf(server.url);
  if (vars.length > 0) {
    // The digest covers the URL too: trusting the secret trusts the host it goes to.
    const reach = local ? ` (${describedKind(local)})` : '';
    return { kind: 'secret', where, summary: `sends ${vars.map((v) => `$${v}`).join(', ')} to ${hostOf(server.url)}${reach}`, digest };
  }
  // An HTTP server on a local, private or metadata host: JSON-RPC requests reach it from this machine.
  if (local) {
    return {
      kind: 'network',
      where: `${where}.url`,
      summary: `sends MCP requests to ${server.url} (${describedKind(local)})`,
      digest: digestOf({ network: 'mcp', url: server.url, headers: server.headers ?? {} }),
    };
  }
  return undefined;
}

function describedKind(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address`;
}

function localKindOf(url: string) {
  try {
    return localHostKind(new URL(url).host);
  } catch {
    return undefined;
  }
}

/** A model that sends its `apiKeyEnv` to its own `baseUrl` (a profile, or an inline model in a document). */
export function keyHeldPart(model: { apiKeyEnv?: string; baseUrl?: string }, where: string): HeldPart | undefined {
  if (model.apiKeyEnv === undefined || model.baseUrl === undefined) return undefined;
  return {
    kind: 'secret',
    where,
    summary: `sends $${model.apiKeyEnv} to ${hostOf(model.baseUrl)}`,
    digest: digestOf({ apiKeyEnv: model.apiKeyEnv, baseUrl: model.baseUrl }),
  };
}

/** The embedder's key part, else its prompt-host part (texts to embed sent to a `baseUrl` of its own). */
export function embedderHeldPart(embedder: EmbedderSettings, servers: UserModelServers = userModelServers()): HeldPart | undefined {
  if (embedder.provider !== 'openai') return undefined;
  return keyHeldPart(embedder, 'crewdeck.json memory.embedder') ?? modelHostHeldPart(embedder, 'crewdeck.json memory.embedder.baseUrl', servers);
}

/**
 * A document's held parts, wherever they sit (agents, managers, guardrails, flow bodies): inline models
 * with both `apiKeyEnv` and `baseUrl`, and the network parts (`networkParts.ts`): inline models with a
 * `baseUrl` of their own, `allowedHosts` entries and knowledge URLs naming local, private or metadata hosts.
 */
export function documentHeldParts(document: unknown, source: string, servers: UserModelServers = userModelServers()): HeldPart[] {
  const parts: HeldPart[] = [];
  forEachRecord(document, (record, path) => {
    if (typeof record.apiKeyEnv === 'string' && typeof record.baseUrl === 'string') {
      const part = keyHeldPart({ apiKeyEnv: record.apiKeyEnv, baseUrl: record.baseUrl }, `${source} ${path.join('.')}`);
      if (part) parts.push(part);
    }
  });
  return [...parts, ...documentReachParts(document, source, { tools: true, servers })];
}

/** The summary as lines of text (the CLI prints these; the app's banner shows the same). */
export function describeHeldParts(parts: readonly HeldPart[]): string[] {
  return parts.map((p) => `${p.where}: ${p.summary}`);
}

function referencedVars(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const value of values) for (const m of value.matchAll(REFERENCE)) out.add(m[1]!);
  return [...out];
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
