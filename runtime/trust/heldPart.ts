import { createHash } from 'node:crypto';

/**
 * A part of a workspace's configuration that runs a command, forwards a secret, or widens where the
 * network reaches, and so is held until the user trusts it (docs/SECURITY.md): an MCP stdio server, an
 * MCP server whose settings expand `${VAR}`s from the environment, a model or embedder that sends the
 * key in `apiKeyEnv` to a `baseUrl` of its own, a model or embedder that sends prompts to a `baseUrl`
 * that is not the provider's own (nor one of the user's model servers), an `allowedHosts` entry or a
 * knowledge URL naming a loopback, private, link-local or metadata host.
 */
export interface HeldPart {
  kind: 'command' | 'secret' | 'network';
  /** Where it is declared, workspace-relative, with the field path: `crewdeck.json mcp.servers.files`. */
  where: string;
  /** What it does, for a person: the command line, or which variables go to which host. */
  summary: string;
  /** What trust covers: a change to any of it needs trust again. */
  digest: string;
  /** A workspace file the part runs (`heldFiles.ts`): workspace-relative path and the sha256 trust covers. */
  file?: { path: string; sha256: string };
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

/** `host[:port]` of a URL, or the text itself when it is not one. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
