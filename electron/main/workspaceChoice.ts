import { cpSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { readJsonFile, writeJsonFileAtomic } from './jsonFile';
import { WORKSPACE_ARG } from '../runtime/runtimeMessages';

/** The folder given with `--workspace <dir>` or `--workspace=<dir>` on the app's command line. */
export function workspaceArgument(argv: readonly string[], cwd: string): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    let value: string | undefined;
    if (arg === WORKSPACE_ARG) value = argv[i + 1];
    else if (arg.startsWith(`${WORKSPACE_ARG}=`)) value = arg.slice(WORKSPACE_ARG.length + 1);
    if (value) return isAbsolute(value) ? value : resolve(cwd, value);
  }
  return undefined;
}

export interface WorkspaceChoice {
  workspace: string;
  /** The default folder, which does not exist yet: create it (and put the examples in it). */
  create: boolean;
  /** Something the person asked for could not be used. */
  warning?: string;
}

/** Which workspace to open: the command line's, else the last one, else the default folder. */
export function chooseWorkspace(input: { argument?: string; last?: string; fallback: string }): WorkspaceChoice {
  let warning: string | undefined;
  if (input.argument) {
    if (isDirectory(input.argument)) return { workspace: input.argument, create: false };
    warning = `the workspace ${input.argument} is not a folder; opening ${input.last && isDirectory(input.last) ? input.last : input.fallback} instead`;
  }
  if (input.last && isDirectory(input.last)) return { workspace: input.last, create: false, warning };
  return { workspace: input.fallback, create: !existsSync(input.fallback), warning };
}

/** Creates a new workspace folder with the example crews (they run offline on the scripted demo model). */
export function createWorkspace(dir: string, examples: string | undefined): void {
  mkdirSync(dir, { recursive: true });
  if (!examples || !isDirectory(examples)) return;
  cpSync(examples, dir, {
    recursive: true,
    errorOnExist: false,
    force: false,
    filter: (source) => !/[\\/](out|\.crewdeck)$/.test(source),
  });
}

/** The last workspace opened, remembered in userData. */
export class LastWorkspace {
  constructor(private readonly file: string) {}

  read(): string | undefined {
    try {
      const data = readJsonFile(this.file) as { lastWorkspace?: unknown } | undefined;
      return typeof data?.lastWorkspace === 'string' ? data.lastWorkspace : undefined;
    } catch {
      return undefined;
    }
  }

  write(workspace: string): void {
    writeJsonFileAtomic(this.file, { lastWorkspace: workspace }, 0o644);
  }
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export const DEFAULT_WORKSPACE_NAME = 'Crewdeck';
export function defaultWorkspace(documents: string): string {
  return join(documents, DEFAULT_WORKSPACE_NAME);
}
