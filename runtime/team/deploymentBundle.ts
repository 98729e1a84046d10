import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { loadWorkspaceDocument } from '../document/workspaceDocument';

/** What `crewdeck deploy` (and the app's Publish) sends: a document with the files it uses and the workspace's settings. */
export interface DeploymentBundle {
  /** The document's path in its workspace (forward slashes). */
  documentPath: string;
  document: unknown;
  /** Files the document (and its crews) name, by workspace path: crew files, scripts, knowledge, skills. */
  files: Record<string, string>;
  /** The workspace's crewdeck.json: model profiles, tool (MCP) settings, prices. Keys are never in it (only variable names). */
  settings?: WorkspaceSettings;
}

/** A file larger than this is not carried along (say so rather than upload a data set by accident). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Keys whose string values may name a file of the workspace. */
const PATH_KEYS = new Set(['file', 'path', 'script', 'skills']);

/** A bundle of `file` (inside `workspace`): the document, then every file it names, crew files' own files too. */
export function collectDeployment(workspace: string, file: string): DeploymentBundle {
  const root = resolve(workspace);
  const loaded = loadWorkspaceDocument(root, file);
  const toKey = (abs: string) => relative(root, abs).split(sep).join('/');
  const files: Record<string, string> = {};
  const visit = (value: unknown, docDir: string, key: string | undefined): void => {
    if (typeof value === 'string') {
      if (key === undefined || !PATH_KEYS.has(key)) return;
      for (const candidate of [resolve(docDir, value), resolve(root, value)]) {
        const name = toKey(candidate);
        if (name.startsWith('..') || name === '' || files[name] !== undefined || !existsSync(candidate)) continue;
        const stat = statSync(candidate);
        if (!stat.isFile() || stat.size > MAX_FILE_BYTES) continue;
        files[name] = readFileSync(candidate, 'utf8');
        // A crew a flow runs brings its own scripts and files.
        if (name.endsWith('.crew.json')) visit(JSON.parse(files[name]) as unknown, dirname(candidate), undefined);
        return;
      }
      return;
    }
    if (Array.isArray(value)) for (const item of value) visit(item, docDir, key);
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, docDir, k);
  };
  visit(loaded.doc, dirname(loaded.file), undefined);
  const settings = loadWorkspaceSettings(root);
  const documentPath = toKey(loaded.file);
  delete files[documentPath];
  return { documentPath, document: loaded.doc, files, ...(settings ? { settings } : {}) };
}
