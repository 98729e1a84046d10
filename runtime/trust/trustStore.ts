import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { digestOf, type HeldPart } from './heldPart';

/** One trusted workspace: the digests of the parts the user trusted, and when. */
interface TrustRecord {
  /** sha256 over the sorted part digests: what was trusted, as one value. */
  hash: string;
  parts: string[];
  trustedAt: string;
  /** The workspace files trusted commands run, by workspace-relative path: the sha256 trusted (so a change can be named). */
  files?: Record<string, string>;
}

interface TrustFile {
  version: 1;
  workspaces: Record<string, TrustRecord>;
}

export const TRUST_FILE = 'trusted-workspaces.json';

/**
 * Where trust is recorded: outside every workspace, in the user's config folder
 * (`$CREWDECK_CONFIG_DIR`, else `$XDG_CONFIG_HOME/crewdeck`, else `~/.config/crewdeck`), so a
 * workspace cannot declare itself trusted.
 */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CREWDECK_CONFIG_DIR) return resolve(env.CREWDECK_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME ? resolve(env.XDG_CONFIG_HOME) : join(env.HOME || homedir(), '.config');
  return join(base, 'crewdeck');
}

/** Trust records keyed by the workspace's real path (a symlinked path and its target are one workspace). */
export class TrustStore {
  private readonly file: string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.file = join(userConfigDir(env), TRUST_FILE);
  }

  /** The digests trusted for this workspace (empty when it was never trusted). */
  trusted(workspace: string): Set<string> {
    return new Set(this.read().workspaces[key(workspace)]?.parts ?? []);
  }

  /** The sha256 each workspace file a trusted command runs had when it was trusted, by workspace-relative path. */
  trustedFiles(workspace: string): Record<string, string> {
    return { ...(this.read().workspaces[key(workspace)]?.files ?? {}) };
  }

  /** Whether the user has trusted this workspace at all (`crewdeck trust`, the app's Trust button). */
  isRecorded(workspace: string): boolean {
    return key(workspace) in this.read().workspaces;
  }

  /** Records these parts (the workspace's whole current set) as trusted, replacing what was before. */
  record(workspace: string, parts: readonly HeldPart[], now = new Date()): void {
    const digests = [...new Set(parts.map((p) => p.digest))].sort();
    const data = this.read();
    const files = Object.fromEntries(parts.flatMap((p) => (p.file ? [[p.file.path, p.file.sha256] as const] : [])));
    data.workspaces[key(workspace)] = { hash: digestOf(digests), parts: digests, trustedAt: now.toISOString(), ...(Object.keys(files).length ? { files } : {}) };
    this.write(data);
  }

  /** Forgets the workspace; returns whether it was trusted. */
  revoke(workspace: string): boolean {
    const data = this.read();
    const k = key(workspace);
    if (!(k in data.workspaces)) return false;
    delete data.workspaces[k];
    this.write(data);
    return true;
  }

  private read(): TrustFile {
    try {
      const value = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<TrustFile>;
      if (value.version === 1 && value.workspaces && typeof value.workspaces === 'object') return { version: 1, workspaces: value.workspaces };
    } catch {
      // missing or unreadable: nothing is trusted
    }
    return { version: 1, workspaces: {} };
  }

  private write(data: TrustFile): void {
    mkdirSync(resolve(this.file, '..'), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.file);
  }
}

function key(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return resolve(workspace);
  }
}
