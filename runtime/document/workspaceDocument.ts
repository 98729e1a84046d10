import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { DocumentInvalid } from '../errors';
import { ToolError } from '../tools/tool';
import { realPathOfNearestExisting, resolveInWorkspace } from '../tools/workspacePath';
import { loadDocumentFile, type LoadedDocument } from './loadDocument';

/** A document path that leaves the workspace (by `..`, an absolute path or a symbolic link) or enters `.crewdeck/`. */
export class DocumentOutsideWorkspace extends Error {
  override name = 'DocumentOutsideWorkspace';
  constructor(readonly shown: string) {
    super(`${shown} is not a document of this workspace: it leads outside the workspace (through "..", an absolute path or a symbolic link) or into .crewdeck/`);
  }
}

/**
 * The one check for a document path, wherever it comes from: the host's `documents.*` and `runs.start`,
 * training and tests (workspace-relative paths), and the CLI's run, train, test and export (paths on
 * the command line). The path must name a file inside the workspace after `..` and every symbolic
 * link are resolved (runtime/tools/workspacePath.ts, the file tools' resolver), and not in `.crewdeck/`.
 * Returns the absolute file and its workspace-relative name for messages; errors never name an
 * absolute path.
 */
export function resolveWorkspaceDocument(workspace: string, path: string): { file: string; shown: string } {
  const root = resolve(workspace);
  const lexical = resolve(root, path);
  const rel = relative(root, lexical);
  const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  const shown = inside ? rel.split(sep).join('/') : basename(path);
  if (!inside) throw new DocumentOutsideWorkspace(shown);
  let file: string;
  let real: string;
  try {
    file = resolveInWorkspace(root, lexical);
    real = relative(realPathOfNearestExisting(root, '.'), realPathOfNearestExisting(file, shown));
  } catch (error) {
    if (error instanceof ToolError) throw new DocumentOutsideWorkspace(shown);
    throw error;
  }
  // A link inside the workspace may still lead into Crewdeck's own data folder.
  if (real.split(sep)[0]!.toLowerCase() === '.crewdeck') throw new DocumentOutsideWorkspace(shown);
  return { file, shown };
}

/** Resolves (as above) and loads a crew or flow; its problems name the workspace-relative path. */
export function loadWorkspaceDocument(workspace: string, path: string): LoadedDocument & { file: string; shown: string } {
  const { file, shown } = resolveWorkspaceDocument(workspace, path);
  try {
    return { ...loadDocumentFile(file), file, shown };
  } catch (error) {
    if (error instanceof DocumentInvalid) throw new DocumentInvalid(shown, error.problems);
    throw error;
  }
}
