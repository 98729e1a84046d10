import { createHash } from 'node:crypto';
import type { McpServerSettings } from '../../shared/model/mcpSettings';
import type { EmbedderSettings, WorkspaceSettings } from '../../shared/model/workspace';

/**
 * A part of a workspace's configuration that runs a command or forwards a secret, and so is held until
 * the user trusts it (docs/SECURITY.md): an MCP stdio server, an MCP server whose settings expand
 * `${VAR}`s from the environment, and a model or embedder that sends the key in `apiKeyEnv` to a
 * `baseUrl` of its own.
 */
export interface HeldPart {
  kind: 'command' | 'secret';
  /** Where it is declared, workspace-relative: `crewdeck.json mcp.servers.files`. */
  where: string;
  /** What it does, for a person: the command line, or which variables go to which host. */
  summary: string;
  /** What trust covers: a change to any of it needs trust again. */
  digest: string;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The held parts of the workspace's `crewdeck.json`. */
export function settingsHeldParts(settings: WorkspaceSettings | undefined): HeldPart[] {
  if (!settings) return [];
  const parts: HeldPart[] = [];
  for (const [name, server] of Object.entries(settings.mcp?.servers ?? {})) {
    const part = mcpHeldPart(name, server);
    if (part) parts.push(part);
  }
  for (const [name, profile] of Object.entries(settings.models.profiles)) {
    const part = keyHeldPart(profile, `crewdeck.json models.profiles.${name}`);
    if (part) parts.push(part);
  }
  const embedder = settings.memory?.embedder;
  if (embedder) {
    const part = embedderHeldPart(embedder);
    if (part) parts.push(part);
  }
  return parts;
}

/** An MCP server's held part, or undefined for an HTTP server that reads no environment variables. */
export function mcpHeldPart(name: string, server: McpServerSettings): HeldPart | undefined {
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
  if (vars.length === 0) return undefined;
  return { kind: 'secret', where, summary: `sends ${vars.map((v) => `$${v}`).join(', ')} to ${hostOf(server.url)}`, digest };
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

export function embedderHeldPart(embedder: EmbedderSettings): HeldPart | undefined {
  return embedder.provider === 'openai' ? keyHeldPart(embedder, 'crewdeck.json memory.embedder') : undefined;
}

/**
 * Inline models in a document (any object with both `apiKeyEnv` and `baseUrl`), wherever they sit:
 * agents, managers, guardrails, flow bodies.
 */
export function documentHeldParts(document: unknown, source: string): HeldPart[] {
  const parts: HeldPart[] = [];
  const visit = (value: unknown, path: string[]) => {
    if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, String(i)]));
    else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (typeof record.apiKeyEnv === 'string' && typeof record.baseUrl === 'string') {
        const part = keyHeldPart({ apiKeyEnv: record.apiKeyEnv, baseUrl: record.baseUrl }, `${source} ${path.join('.')}`);
        if (part) parts.push(part);
      }
      for (const [k, v] of Object.entries(record)) visit(v, [...path, k]);
    }
  };
  visit(document, []);
  return parts;
}

/** The summary as lines of text (the CLI prints these; the app's banner shows the same). */
export function describeHeldParts(parts: readonly HeldPart[]): string[] {
  return parts.map((p) => `${p.where}: ${p.summary}`);
}

export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function referencedVars(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const value of values) for (const m of value.matchAll(REFERENCE)) out.add(m[1]);
  return [...out];
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
