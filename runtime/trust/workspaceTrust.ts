import type { WorkspaceSettings } from '../../shared/model/workspace';
import { documentHeldParts, settingsHeldParts, type HeldPart } from './heldParts';
import { WorkspaceUntrusted } from './trustErrors';
import { notedChange } from './heldFiles';
import { TrustStore } from './trustStore';
import { EnteredModelServers } from './enteredModelServers';
import { userModelServers, type UserModelServers } from './userModelServers';
import { workspaceDocumentFiles } from '../document/workspaceDocumentFiles';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { documentListedNameParts } from './networkParts';
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';

/** What the runtime asks before it starts a held part (an MCP stdio server, a key sent to a baseUrl). */
export interface TrustGate {
  /** Throws WorkspaceUntrusted unless the user trusted exactly this part of this workspace. */
  require(part: HeldPart): void;
}

export interface TrustStatus {
  /** Whether the workspace has anything that needs trust. */
  needed: boolean;
  /** Whether every part that needs it is trusted. */
  trusted: boolean;
  parts: HeldPart[];
  /** The parts not (or no longer) trusted. */
  untrusted: HeldPart[];
}

/**
 * One workspace's trust: the gate the runtime checks (one place for CLI and host), and what
 * `crewdeck trust` and the app's banner show and record.
 */
export class WorkspaceTrust implements TrustGate {
  private readonly store: TrustStore;
  /** Loopback model servers the user entered in the app's Settings for this workspace (enteredBaseUrls.ts). */
  private readonly entered: EnteredModelServers;

  /**
   * `env` locates the user's config folder (CREWDECK_CONFIG_DIR…): the process's own environment, not
   * the environment a runtime hands its models, which may be a test's or a host's selection.
   */
  constructor(
    private readonly workspace: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.store = new TrustStore(env);
    this.entered = new EnteredModelServers(env);
  }

  require(part: HeldPart): void {
    if (!this.trustedDigests().has(part.digest)) throw new WorkspaceUntrusted([this.noted(part)]);
  }

  /** What the user trusted (`crewdeck trust`, Trust…) and the model servers they entered in Settings. */
  private trustedDigests(): Set<string> {
    const trusted = this.store.trusted(this.workspace);
    for (const digest of this.entered.approved(this.workspace)) trusted.add(digest);
    return trusted;
  }

  /** A file part whose file was trusted with other content says so (`notedChange`). */
  private noted(part: HeldPart, files = part.file ? this.store.trustedFiles(this.workspace) : {}): HeldPart {
    return part.file ? notedChange(part, files[part.file.path]) : part;
  }

  /** The held parts of `crewdeck.json` and of the workspace's documents (inline models), and which are trusted. */
  status(settings: WorkspaceSettings | undefined): TrustStatus {
    const parts = workspaceHeldParts(this.workspace, settings, userModelServers(this.env));
    const trusted = this.trustedDigests();
    const files = this.store.trustedFiles(this.workspace);
    const noted = parts.map((p) => (trusted.has(p.digest) ? p : this.noted(p, files)));
    const untrusted = noted.filter((p) => !trusted.has(p.digest));
    return { needed: parts.length > 0, trusted: untrusted.length === 0, parts: noted, untrusted };
  }

  /** Trusts the workspace's current parts (a later change to any of them needs trust again). */
  grant(settings: WorkspaceSettings | undefined): TrustStatus {
    this.store.record(this.workspace, [...workspaceHeldParts(this.workspace, settings, userModelServers(this.env)), ...workspaceListedNameParts(this.workspace)]);
    return this.status(settings);
  }

  revoke(): boolean {
    const entered = this.entered.approved(this.workspace).size > 0;
    this.entered.forget(this.workspace);
    return this.store.revoke(this.workspace) || entered;
  }
}

/**
 * Asks the gate for each part; throws one WorkspaceUntrusted naming every part that is not trusted
 * (so a person sees all of them at once).
 */
export function requireTrusted(gate: TrustGate, parts: readonly HeldPart[]): void {
  const refused: HeldPart[] = [];
  for (const part of parts) {
    try {
      gate.require(part);
    } catch (error) {
      if (!(error instanceof WorkspaceUntrusted)) throw error;
      refused.push(...error.parts.filter((p) => !refused.some((r) => r.digest === p.digest && r.where === p.where)));
    }
  }
  if (refused.length > 0) throw new WorkspaceUntrusted(refused);
}

/**
 * Whether a listed plain name (`allowedHosts`, a knowledge URL's host) may resolve to a private address:
 * only while the workspace is trusted as it is now — every held part and every plain name its documents
 * list was trusted (a name or part added since needs trust again). A `crewdeck.json` that cannot be
 * read counts as not trusted.
 */
export function plainNamesTrusted(workspace: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const store = new TrustStore(env);
  if (!store.isRecorded(workspace)) return false;
  let settings: WorkspaceSettings | undefined;
  try {
    settings = loadWorkspaceSettings(workspace);
  } catch {
    return false;
  }
  if (!new WorkspaceTrust(workspace, env).status(settings).trusted) return false;
  const trusted = store.trusted(workspace);
  return workspaceListedNameParts(workspace).every((p) => trusted.has(p.digest));
}

/** The plain names the workspace's documents list (`documentListedNameParts`), which a grant records too. */
export function workspaceListedNameParts(workspace: string): HeldPart[] {
  const parts: HeldPart[] = [];
  for (const file of workspaceDocumentFiles(workspace)) {
    try {
      parts.push(...documentListedNameParts(JSON.parse(readFileSync(file, 'utf8')), relative(workspace, file).split(sep).join('/')));
    } catch {
      continue;
    }
  }
  return parts;
}

/**
 * Every held part of a workspace, deduplicated by what trust covers. `servers`: the user's own model
 * servers (`userModelServers.ts`), whose hosts a model `baseUrl` may name without trust.
 */
export function workspaceHeldParts(workspace: string, settings: WorkspaceSettings | undefined, servers: UserModelServers = userModelServers()): HeldPart[] {
  const parts = [...settingsHeldParts(settings, servers, workspace)];
  for (const file of workspaceDocumentFiles(workspace)) {
    let document: unknown;
    try {
      document = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    parts.push(...documentHeldParts(document, relative(workspace, file).split(sep).join('/'), servers));
  }
  const seen = new Set<string>();
  return parts.filter((p) => !seen.has(p.digest) && seen.add(p.digest));
}
