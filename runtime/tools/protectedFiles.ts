import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { workspaceDocumentFiles } from '../document/workspaceDocumentFiles';
import { commandFolders, commandRunFiles } from './commandFiles';
import { ToolError } from './tool';
import { comparableName, displayPath, realPathOfNearestExisting } from './workspacePath';

/**
 * Files a file-writing tool may not change, whatever the model asks (docs/SECURITY.md):
 *
 * - always: anything inside `.git/` or `.crewdeck/` (the repository and Crewdeck's own data), inside
 *   `node_modules/`, `.venv/`, `venv/` or `__pycache__/` (installed and compiled code commands load),
 *   the workspace files a configured command runs (an MCP server's script: `commandFiles.ts`) and the
 *   folders they sit in (the workspace itself excepted), and folders on PATH inside the workspace;
 * - unless the tool's config says `allowDocumentWrites: true`: `crewdeck.json`, `*.crew.json`,
 *   `*.flow.json`, and the skill and knowledge files the workspace's documents reference.
 *
 * Names compare case-insensitively (macOS and Windows file systems do), and both the path as given and
 * the path after symbolic links and `..` are checked, so a link named `notes.md` that points at a crew
 * is refused too. `allowDocumentWrites` never opens `.git/` or `.crewdeck/`: a crew that writes crews
 * has a reason to; none has a reason to rewrite git hooks or the run database.
 */
export function assertWritable(workspace: string, file: string, options: { allowDocumentWrites?: boolean } = {}, env: NodeJS.ProcessEnv = process.env): void {
  const root = path.resolve(workspace);
  const realRoot = realPathOfNearestExisting(root, '.');
  const shown = displayPath(root, file);
  const candidates = [relativeSegments(root, file), relativeSegments(realRoot, realPathOfNearestExisting(file, shown))];
  for (const segments of candidates) {
    if (!segments) continue;
    const folder = segments.find((s) => ALWAYS_PROTECTED_FOLDERS.has(comparableName(s)));
    if (folder !== undefined) {
      throw new ToolError(`refused: "${shown}" is inside ${comparableName(folder)}/, which file tools may never change`);
    }
    const code = segments.find((s) => CODE_FOLDERS.has(comparableName(s)));
    if (code !== undefined) {
      throw new ToolError(`refused: "${shown}" is inside ${comparableName(code)}/, installed code that commands load; tools may not change it. Write your result to another file instead.`);
    }
  }
  const run = commandFileRefusal(realRoot, candidates, env);
  if (run) throw new ToolError(`refused: "${shown}" is ${run}; tools may not change it. Write your result to another file instead.`);
  // A second hard link to a file is the same file under another name (a protected one, or one outside
  // the workspace), and no path check sees it.
  const links = (() => {
    try {
      const stat = lstatSync(file);
      return stat.isFile() ? stat.nlink : 1;
    } catch {
      return 1;
    }
  })();
  if (links > 1) throw new ToolError(`refused: "${shown}" has ${links} hard links; tools may not write through a file that has other names`);
  if (options.allowDocumentWrites === true) return;
  const referenced = referencedFiles(realRoot);
  for (const segments of candidates) {
    if (!segments) continue;
    const folded = segments.map(comparableName);
    const name = folded[folded.length - 1] ?? '';
    const rel = folded.join('/');
    const why =
      name === 'crewdeck.json'
        ? "the workspace's settings"
        : name.endsWith('.crew.json') || name.endsWith('.flow.json')
          ? 'a crew or flow document'
          : referenced.has(rel)
            ? 'a skill or knowledge file a document of this workspace uses'
            : undefined;
    if (why) {
      throw new ToolError(
        `refused: "${shown}" is ${why}; tools may not change it (a tool config with allowDocumentWrites: true allows it). ` +
          'Write your result to another file instead.',
      );
    }
  }
}

const ALWAYS_PROTECTED_FOLDERS = new Set(['.git', '.crewdeck']);
/** Installed and compiled code: a command's interpreter loads from here without asking anyone. */
const CODE_FOLDERS = new Set(['node_modules', '.venv', 'venv', '__pycache__']);

/** Why the path is a file a configured command runs, or lies in such a file's folder; undefined when neither. */
function commandFileRefusal(realRoot: string, candidates: readonly (string[] | undefined)[], env: NodeJS.ProcessEnv): string | undefined {
  const folded = (segments: readonly string[]) => segments.map(comparableName).join('/');
  const targets = candidates.filter((c): c is string[] => c !== undefined).map(folded);
  const runs = commandRunFiles(realRoot, env);
  for (const run of runs) {
    if (targets.includes(folded(run.path.split('/')))) return `a file ${run.runBy} runs (${run.where})`;
  }
  for (const folder of commandFolders(realRoot, runs, env)) {
    const prefix = `${folded(folder.path.split('/'))}/`;
    if (targets.some((t) => t.startsWith(prefix))) return `inside ${folder.path}/, ${folder.why}`;
  }
  return undefined;
}

/** The path's segments relative to root, or undefined when it is not inside root. */
function relativeSegments(root: string, file: string): string[] | undefined {
  const rel = path.relative(root, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).filter((s) => s !== '');
}

/**
 * Workspace-relative paths (lower case, forward slashes) of the skill files and knowledge files named by
 * the workspace's documents. A document's paths are relative to the workspace. Unreadable documents
 * name nothing (their own name still protects them).
 */
export function referencedFiles(workspace: string): Set<string> {
  const out = new Set<string>();
  const add = (p: unknown) => {
    if (typeof p !== 'string' || p === '') return;
    out.add(path.posix.normalize(p.replace(/\\/g, '/')).replace(/^\.\//, '').split('/').map(comparableName).join('/'));
  };
  const visit = (value: unknown, key: string | undefined) => {
    if (Array.isArray(value)) {
      for (const item of value) {
        if (key === 'skills' && typeof item === 'string') add(item);
        visit(item, undefined);
      }
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (record.type === 'file' && typeof record.path === 'string') add(record.path);
      for (const [k, v] of Object.entries(record)) visit(v, k);
    }
  };
  for (const file of workspaceDocumentFiles(workspace)) {
    try {
      visit(JSON.parse(readFileSync(file, 'utf8')), undefined);
    } catch {
      // not JSON: it names nothing
    }
  }
  return out;
}
