import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { McpServerSettings } from '../../shared/model/mcpSettings';
import { bridgeModuleFiles, projectFolder, pythonInterpreter } from '../mcp/pythonBridge';

/**
 * The workspace files a configured command runs: what trust covers besides the command line
 * (docs/SECURITY.md). A model can write workspace files, so a trusted `sh mcp/server.sh` would otherwise
 * run whatever a reply put into `mcp/server.sh`. Each file found here is content-hashed into the trust
 * record (`heldFiles.ts`) and refused to file-writing tools (`protectedFiles.ts`).
 */
export interface RunFile {
  /** Absolute, as the command sees it (resolved from its working folder). */
  file: string;
  /** Why it counts: `command`, `argument 2`, `module pkg.tools`. */
  role: string;
}

type ServerOf<K extends McpServerSettings['transport']> = Extract<McpServerSettings, { transport: K }>;
type RunFileLister<K extends McpServerSettings['transport']> = (server: ServerOf<K>, workspace: string, env: NodeJS.ProcessEnv) => RunFile[];

/**
 * One lister per MCP transport, typed against the schema: a new transport (the Python tool bridge) does
 * not compile until it says which files it runs (see /work/wt/SEAMS.md).
 */
const RUN_FILE_LISTERS: { [K in McpServerSettings['transport']]: RunFileLister<K> } = {
  stdio: stdioRunFiles,
  // An HTTP server runs nothing on this machine.
  http: () => [],
  python: pythonBridgeRunFiles,
};

/** A Python tool server: the interpreter (a project .venv inside the workspace) and the files the bridge imports. */
function pythonBridgeRunFiles(server: ServerOf<'python'>, workspace: string, env: NodeJS.ProcessEnv): RunFile[] {
  const interpreter = pythonInterpreter(server, workspace, env);
  const command = /[\\/]/.test(interpreter.command) ? [{ file: path.resolve(projectFolder(server, workspace), interpreter.command), role: 'command' }] : [];
  return [...command, ...bridgeModuleFiles(server, workspace).map(({ file, module }) => ({ file, role: `module ${module}` }))];
}

/**
 * The regular files inside the workspace (its real path; symbolic links resolved) that a server runs,
 * once each, in the order found. Files outside the workspace are the user's own, not the workspace's.
 */
export function serverRunFiles(server: McpServerSettings, workspace: string, env: NodeJS.ProcessEnv = process.env): RunFile[] {
  const lister = RUN_FILE_LISTERS[server.transport] as RunFileLister<typeof server.transport>;
  return insideWorkspace(lister(server as never, workspace, env), workspace);
}

/** The working folder a server starts in: its `cwd` resolved from the workspace, else the workspace. */
export function serverWorkingFolder(cwd: string | undefined, workspace: string): string {
  return cwd ? path.resolve(workspace, cwd) : path.resolve(workspace);
}

/**
 * A stdio server: its command (a path, or a bare name found on PATH inside the workspace), each argument
 * that names an existing file (also the value of `--flag=value`), resolved from its working folder, and
 * the file of a Python `-m module`.
 */
export function stdioRunFiles(server: ServerOf<'stdio'>, workspace: string, env: NodeJS.ProcessEnv): RunFile[] {
  const cwd = serverWorkingFolder(server.cwd, workspace);
  const out: RunFile[] = [];
  const command = hasSeparator(server.command) ? path.resolve(cwd, server.command) : onPath(server.command, env, cwd);
  if (command && isFile(command)) out.push({ file: command, role: 'command' });
  const args = server.args ?? [];
  args.forEach((arg, i) => {
    if (args[i - 1] === '-m') {
      for (const file of pythonModuleFiles(arg, [cwd])) out.push({ file, role: `module ${arg}` });
      return;
    }
    const value = /^--?[A-Za-z][\w-]*=(.+)$/.exec(arg)?.[1] ?? arg;
    if (value === '' || value.startsWith('-')) return;
    const file = path.resolve(cwd, value);
    if (isFile(file)) out.push({ file, role: `argument ${i + 1}` });
  });
  return out;
}

/** The files a Python module name resolves to under these folders: `a/b.py`, or the package's `a/b/__init__.py` and `__main__.py`. */
export function pythonModuleFiles(module: string, roots: readonly string[]): string[] {
  if (!/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/.test(module)) return [];
  const relative = module.split('.').join(path.sep);
  const out: string[] = [];
  for (const root of roots) {
    for (const candidate of [`${relative}.py`, path.join(relative, '__init__.py'), path.join(relative, '__main__.py')]) {
      const file = path.resolve(root, candidate);
      if (isFile(file)) out.push(file);
    }
  }
  return out;
}

/**
 * The folders on PATH that lie inside the workspace: a file written there would be found as a command,
 * so file tools refuse them (`protectedFiles.ts`).
 */
export function workspacePathFolders(workspace: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const root = realOrSelf(path.resolve(workspace));
  return (env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => realOrSelf(path.resolve(workspace, dir)))
    .filter((dir) => dir !== root && isInside(root, dir));
}

function onPath(command: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.resolve(cwd, dir, command);
    if (isFile(file)) return file;
  }
  return undefined;
}

function insideWorkspace(files: readonly RunFile[], workspace: string): RunFile[] {
  const root = realOrSelf(path.resolve(workspace));
  const seen = new Set<string>();
  const out: RunFile[] = [];
  for (const entry of files) {
    const real = realOrSelf(entry.file);
    if (!isInside(root, real) || real === root || seen.has(real)) continue;
    seen.add(real);
    out.push({ file: real, role: entry.role });
  }
  return out;
}

/** Workspace-relative with forward slashes (the workspace's real path is the base). */
export function workspaceRelative(workspace: string, file: string): string {
  return path.relative(realOrSelf(path.resolve(workspace)), file).split(path.sep).join('/');
}

function hasSeparator(command: string): boolean {
  return command.includes('/') || command.includes('\\');
}

function isFile(file: string): boolean {
  try {
    return existsSync(file) && statSync(file).isFile();
  } catch {
    return false;
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
