import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { userConfigDir } from './trustStore';

export const ENTERED_SERVERS_FILE = 'entered-model-servers.json';

/**
 * One workspace's model servers as the app saw them arrive. A loopback server is known by its port alone
 * (`127.0.0.1`, `localhost`, `[::1]` and `127.1` reach the same one):
 * - `entered`: ports of loopback base URLs the user typed into Settings;
 * - `approved`: the digests of the held parts those entries made (what the trust gate accepts);
 * - `supplied`: ports named by any model base URL the workspace held when the host looked (on opening it,
 *   before each settings or document save), whatever its host: someone else wrote those, so naming the
 *   port again from Settings (the renderer is untrusted) never approves it — it waits for the
 *   workspace's trust like any held part.
 */
interface EnteredRecord {
  entered: string[];
  approved: string[];
  supplied: string[];
}

interface EnteredFile {
  version: 1;
  workspaces: Record<string, EnteredRecord>;
}

/**
 * Model servers the user entered in the app's Settings, per workspace, in the user's config folder (as
 * trust is: a workspace cannot declare its own servers entered). Read by `WorkspaceTrust` beside the
 * trust records; written by the host when `settings.save` records a loopback base URL as the user's.
 */
export class EnteredModelServers {
  private readonly file: string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.file = join(userConfigDir(env), ENTERED_SERVERS_FILE);
  }

  /** Digests of the held parts the user's own entries cover in this workspace. */
  approved(workspace: string): Set<string> {
    return new Set(this.entry(workspace).approved);
  }

  entered(workspace: string): Set<string> {
    return new Set(this.entry(workspace).entered);
  }

  supplied(workspace: string): Set<string> {
    return new Set(this.entry(workspace).supplied);
  }

  /** Remembers ports as the workspace's own (those the user entered before stay the user's). */
  noteSupplied(workspace: string, ports: Iterable<string>): void {
    const record = this.entry(workspace);
    const fresh = [...new Set(ports)].filter((o) => !record.entered.includes(o) && !record.supplied.includes(o));
    if (fresh.length === 0) return;
    this.update(workspace, { ...record, supplied: [...record.supplied, ...fresh].sort() });
  }

  /** Records ports the user entered and the held parts they cover. */
  approve(workspace: string, entries: readonly { port: string; digest: string }[]): void {
    if (entries.length === 0) return;
    const record = this.entry(workspace);
    this.update(workspace, {
      ...record,
      entered: [...new Set([...record.entered, ...entries.map((e) => e.port)])].sort(),
      approved: [...new Set([...record.approved, ...entries.map((e) => e.digest)])].sort(),
    });
  }

  /** Forgets what the user entered (`crewdeck trust --revoke`); what the workspace supplied stays noted. */
  forget(workspace: string): void {
    const record = this.entry(workspace);
    if (record.entered.length === 0 && record.approved.length === 0) return;
    this.update(workspace, { entered: [], approved: [], supplied: record.supplied });
  }

  private entry(workspace: string): EnteredRecord {
    const found = this.read().workspaces[workspaceKey(workspace)];
    return { entered: strings(found?.entered), approved: strings(found?.approved), supplied: strings(found?.supplied) };
  }

  private update(workspace: string, record: EnteredRecord): void {
    const data = this.read();
    data.workspaces[workspaceKey(workspace)] = record;
    mkdirSync(resolve(this.file, '..'), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.file);
  }

  private read(): EnteredFile {
    try {
      const value = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<EnteredFile>;
      if (value.version === 1 && value.workspaces && typeof value.workspaces === 'object') return { version: 1, workspaces: value.workspaces };
    } catch {
      // missing or unreadable: nothing entered, nothing noted
    }
    return { version: 1, workspaces: {} };
  }
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The workspace's real path, as TrustStore keys it (a symlinked path and its target are one workspace). */
function workspaceKey(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return resolve(workspace);
  }
}
