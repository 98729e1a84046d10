import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { userConfigDir } from '../trust/trustStore';

/**
 * The workspace browser mode opens without `--workspace`: the last one served, else
 * `~/Documents/Crewdeck`, created with copies of the examples the first time — never the checkout's
 * own examples/ folder, so what a person creates does not land in the git tree. The last one is kept
 * in the user's config folder (`workspace.json`, beside the trust records).
 */
export interface UserWorkspace {
  workspace: string;
  /** The folder was created (and seeded with the examples) just now. */
  created: boolean;
}

export function chooseUserWorkspace(env: NodeJS.ProcessEnv, examples: string | undefined): UserWorkspace {
  const last = readLastWorkspace(env);
  if (last && isDirectory(last)) return { workspace: last, created: false };
  const fallback = join(env.HOME || homedir(), 'Documents', 'Crewdeck');
  if (isDirectory(fallback)) return { workspace: fallback, created: false };
  mkdirSync(fallback, { recursive: true });
  if (examples && isDirectory(examples)) {
    cpSync(examples, fallback, { recursive: true, errorOnExist: false, force: false, filter: (source) => !/[\\/](out|\.crewdeck)$/.test(source) });
  }
  return { workspace: fallback, created: true };
}

export function rememberWorkspace(env: NodeJS.ProcessEnv, workspace: string): void {
  try {
    const file = lastWorkspaceFile(env);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ lastWorkspace: resolve(workspace) })}\n`);
  } catch {
    // An unwritable config folder: the next start falls back to the default folder.
  }
}

function readLastWorkspace(env: NodeJS.ProcessEnv): string | undefined {
  try {
    const data = JSON.parse(readFileSync(lastWorkspaceFile(env), 'utf8')) as { lastWorkspace?: unknown };
    return typeof data.lastWorkspace === 'string' ? data.lastWorkspace : undefined;
  } catch {
    return undefined;
  }
}

function lastWorkspaceFile(env: NodeJS.ProcessEnv): string {
  return join(userConfigDir(env), 'workspace.json');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The examples shipped beside the CLI (the package's examples/ folder), if any. */
export function findExamples(from: string): string | undefined {
  let dir = from;
  for (let i = 0; i < 5; i += 1) {
    const candidate = join(dir, 'examples');
    if (existsSync(join(candidate, 'research-brief.crew.json'))) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}
