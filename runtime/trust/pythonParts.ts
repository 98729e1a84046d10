import path from 'node:path';
import { bridgeModuleFiles, projectFolder, pythonInterpreter, type PythonServerSettings } from '../mcp/pythonBridge';
import { fileSha256 } from './heldFiles';
import { digestOf, type HeldPart } from './heldPart';
import { workspaceRelative } from './runFiles';

const INTERPRETER_FROM = { settings: 'as set in crewdeck.json', venv: "the project's .venv", uv: 'uv, for the project', system: 'from PATH' } as const;

/** A Python tool server's own part: what it is configured to run (project, modules, interpreter override). */
export function pythonServerPart(name: string, server: PythonServerSettings): HeldPart {
  const { timeoutMs: _timeout, ...content } = server;
  const python = server.python ? ` with ${server.python}` : '';
  return {
    kind: 'command',
    where: `crewdeck.json mcp.servers.${name}`,
    summary: `runs the Python tools of ${server.project} (${server.modules.join(', ')})${python}`,
    digest: digestOf({ mcp: name, ...content }),
  };
}

/**
 * What trust also covers for a Python tool server, read from the disk as it is now: the interpreter it
 * resolves to (the project's .venv, uv, python3) and each Python file the bridge imports, content-hashed,
 * inside the workspace or not (a project is usually elsewhere). A changed tool file holds the server
 * again, naming the file.
 */
export function pythonServerFileParts(name: string, server: PythonServerSettings, workspace: string, env: NodeJS.ProcessEnv): HeldPart[] {
  const where = `crewdeck.json mcp.servers.${name}`;
  const interpreter = pythonInterpreter(server, workspace, env);
  const line = [interpreter.command, ...interpreter.args].join(' ');
  const parts: HeldPart[] = [
    {
      kind: 'command',
      where,
      summary: `starts ${line} (${INTERPRETER_FROM[interpreter.source]}) with Crewdeck's tool bridge in ${projectFolder(server, workspace)}`,
      digest: digestOf({ mcpPython: name, command: interpreter.command, args: interpreter.args }),
    },
  ];
  for (const { file, module } of bridgeModuleFiles(server, workspace)) {
    const shown = shownPath(file, workspace);
    const sha256 = fileSha256(file);
    parts.push({
      kind: 'command',
      where,
      summary: `runs ${shown} (module ${module}; sha256 ${sha256.slice(0, 12)})`,
      digest: digestOf({ mcpFile: name, path: shown, sha256 }),
      file: { path: shown, sha256 },
    });
  }
  return parts;
}

/** Workspace-relative inside the workspace, absolute elsewhere. */
function shownPath(file: string, workspace: string): string {
  const rel = workspaceRelative(workspace, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}
