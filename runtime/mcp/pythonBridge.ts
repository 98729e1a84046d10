import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServerSettings } from '../../shared/model/mcpSettings';
import { McpServerUnavailable } from './mcpErrors';

export type PythonServerSettings = Extract<McpServerSettings, { transport: 'python' }>;

/** How the bridge's interpreter was chosen (shown in trust summaries and errors). */
export type InterpreterSource = 'settings' | 'venv' | 'uv' | 'system';

export interface PythonInterpreter {
  /** The program to start. */
  command: string;
  /** Arguments before the bridge script (`uv run python` → `run python`). */
  args: string[];
  source: InterpreterSource;
}

export interface BridgeLaunch {
  command: string;
  args: string[];
  cwd: string;
  interpreter: PythonInterpreter;
}

/** The bridge script's file name; it ships next to the runtime's modules (dist/cli, dist/electron) and in runtime/mcp. */
export const BRIDGE_SCRIPT = 'crewdeck_bridge.py';

/** The project folder an entry names, absolute (a relative `project` resolves from the workspace). */
export function projectFolder(server: PythonServerSettings, workspace: string): string {
  return path.resolve(workspace, server.project);
}

/**
 * The interpreter the project's tools run with: the entry's `python` override, else the project's
 * `.venv`, else `uv run python` when `uv` is on PATH and the project has a pyproject.toml, else `python3`.
 */
export function pythonInterpreter(server: PythonServerSettings, workspace: string, env: NodeJS.ProcessEnv): PythonInterpreter {
  const project = projectFolder(server, workspace);
  if (server.python !== undefined) {
    // A path with spaces is one program; otherwise "uv run python" style words are split.
    const asFile = path.resolve(project, server.python);
    if (/[\\/]/.test(server.python) && isFile(asFile)) return { command: asFile, args: [], source: 'settings' };
    const [command, ...args] = server.python.trim().split(/\s+/);
    return { command: command ?? server.python, args, source: 'settings' };
  }
  const windows = process.platform === 'win32';
  const venv = windows ? path.join(project, '.venv', 'Scripts', 'python.exe') : path.join(project, '.venv', 'bin', 'python');
  if (isFile(venv)) return { command: venv, args: [], source: 'venv' };
  if (isFile(path.join(project, 'pyproject.toml')) && findOnPath('uv', env)) return { command: 'uv', args: ['run', 'python'], source: 'uv' };
  return { command: windows ? 'python' : 'python3', args: [], source: 'system' };
}

/**
 * What to start for a Python tool server: the interpreter with the bridge script, the project's module
 * path and modules, in the project's folder. Throws McpServerUnavailable when the project folder or the
 * interpreter cannot be found (naming what to install or set), so a run says so before it opens.
 */
export function bridgeLaunch(name: string, server: PythonServerSettings, workspace: string, env: NodeJS.ProcessEnv): BridgeLaunch {
  const project = projectFolder(server, workspace);
  if (!isDirectory(project)) {
    throw new McpServerUnavailable(name, `its project folder ${project} does not exist (crewdeck.json mcp.servers.${name}.project)`);
  }
  const interpreter = pythonInterpreter(server, workspace, env);
  const resolved = /[\\/]/.test(interpreter.command) ? existingFile(path.resolve(project, interpreter.command)) : findOnPath(interpreter.command, env);
  if (resolved === undefined) throw new McpServerUnavailable(name, noPythonMessage(name, interpreter));
  const args = [...interpreter.args, bridgeScript(), '--project', project];
  for (const entry of server.path) args.push('--path', entry);
  for (const module of server.modules) args.push('--module', module);
  return { command: resolved, args, cwd: project, interpreter };
}

function noPythonMessage(name: string, interpreter: PythonInterpreter): string {
  const setting = `crewdeck.json mcp.servers.${name}.python`;
  if (interpreter.source === 'settings') return `the Python interpreter "${interpreter.command}" set in ${setting} was not found; install it or set ${setting} to an interpreter that exists`;
  return (
    `no Python interpreter was found to run its tools (looked for the project's .venv, then uv, then ${interpreter.command} on PATH); ` +
    `install Python 3 (e.g. "apt install python3", or from https://www.python.org/downloads/) or set ${setting} to your interpreter`
  );
}

/** The bridge script: next to this module (runtime/mcp in a checkout, dist/cli or dist/electron when built). */
export function bridgeScript(): string {
  const beside = fileURLToPath(new URL(`./${BRIDGE_SCRIPT}`, import.meta.url));
  // In the packaged app the script is unpacked beside the archive (electron-builder.yml asarUnpack): Python cannot read inside it.
  const unpacked = beside.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
  if (unpacked !== beside && isFile(unpacked)) return unpacked;
  if (isFile(beside)) return beside;
  const source = fileURLToPath(new URL(`../../runtime/mcp/${BRIDGE_SCRIPT}`, import.meta.url));
  if (isFile(source)) return source;
  throw new Error(`Crewdeck's Python tool bridge is missing: no ${BRIDGE_SCRIPT} next to ${fileURLToPath(import.meta.url)}`);
}

/** A bare program name found on PATH (with Windows' extensions), as an absolute path, or undefined. */
export function findOnPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    for (const ext of extensions) {
      const file = path.join(dir, command + ext);
      if (isFile(file)) return file;
    }
  }
  return undefined;
}

function isFile(file: string): boolean {
  try {
    return existsSync(file) && statSync(file).isFile();
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function existingFile(file: string): string | undefined {
  return isFile(file) ? file : undefined;
}

/**
 * The Python files the bridge imports for an entry: each module's file (`a/b/c.py` or `a/b/c/__init__.py`)
 * and the `__init__.py` of every package above it, found under the module path (then the project folder),
 * as the bridge's `sys.path` finds them.
 */
export function bridgeModuleFiles(server: PythonServerSettings, workspace: string): { file: string; module: string }[] {
  const project = projectFolder(server, workspace);
  const roots = [...server.path.map((p) => path.resolve(project, p)), project];
  const out: { file: string; module: string }[] = [];
  const seen = new Set<string>();
  const add = (file: string, module: string) => {
    if (!seen.has(file) && isFile(file)) {
      seen.add(file);
      out.push({ file, module });
    }
  };
  for (const module of server.modules) {
    const parts = module.split('.');
    const root = roots.find((r) => isFile(path.join(r, ...parts) + '.py') || isFile(path.join(r, ...parts, '__init__.py')));
    if (root === undefined) continue;
    for (let i = 1; i < parts.length; i += 1) add(path.join(root, ...parts.slice(0, i), '__init__.py'), parts.slice(0, i).join('.'));
    add(path.join(root, ...parts) + '.py', module);
    add(path.join(root, ...parts, '__init__.py'), module);
  }
  return out;
}
