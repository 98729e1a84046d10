import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { workspaceDocumentFiles } from '../document/workspaceDocumentFiles';
import { ToolError } from './tool';
import { comparableName, displayPath, realPathOfNearestExisting } from './workspacePath';

/**
 * Files a file-writing tool may not change, whatever the model asks (docs/SECURITY.md):
 *
 * - always: anything inside `.git/` or `.crewdeck/` (the repository and Crewdeck's own data);
 * - unless the tool's config says `allowDocumentWrites: true`: `crewdeck.json`, `*.crew.json`,
 *   `*.flow.json`, and the skill and knowledge files the workspace's documents reference.
 *
 * Names compare case-insensitively (macOS and Windows file systems do), and both the path as given and
 * the path after symbolic links and `..` are checked, so a link named `notes.md` that points at a crew
 * is refused too. `allowDocumentWrites` never opens `.git/` or `.crewdeck/`: a crew that writes crews
 * has a reason to; none has a reason to rewrite git hooks or the run database.
 */
export function assertWritable(workspace: string, file: string, options: { allowDocumentWrites?: boolean } = {}): void {
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
  }
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
