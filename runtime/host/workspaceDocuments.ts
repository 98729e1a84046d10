import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { DocumentEntry, DocumentKind } from '../../shared/host-api';
import { CREW_DOCUMENT_VERSION } from '../../shared/model/crew';
import { FLOW_DOCUMENT_VERSION } from '../../shared/model/flow';
import { parseCrewDocument, parseFlowDocument } from '../../shared/model/parse';
import type { Problem } from '../../shared/model/problems';
import { flowSchemaProblems, schemaProblems } from '../document/schemaProblems';
import { HostBadInput, HostConflict, HostNotFound } from './hostErrors';
import { DocumentOutsideWorkspace, resolveWorkspaceDocument } from '../document/workspaceDocument';

const SKIPPED_DIRS = new Set(['node_modules', '.git', '.crewdeck', 'dist']);
const DOCUMENT_FILE = /\.(crew|flow)\.json$/;

export interface ReadDocument {
  path: string;
  document: unknown;
  text: string;
  problems: Problem[];
  modifiedAt: number;
}

/**
 * The workspace's documents as files. Paths are workspace-relative with forward slashes and were
 * checked by the contract's schema (no `..`, no absolute paths, not in `.crewdeck/`). Writes go to a
 * temporary file first and are renamed into place, so a crash never leaves half a document; deleted
 * documents are moved to `.crewdeck/trash/`, not destroyed.
 */
export class WorkspaceDocuments {
  private readonly realWorkspace: string;

  constructor(private readonly workspace: string) {
    this.realWorkspace = realpathSync(workspace);
  }

  list(): DocumentEntry[] {
    const out: DocumentEntry[] = [];
    const walk = (dir: string, depth: number) => {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      for (const name of names.sort()) {
        const full = join(dir, name);
        if (name.startsWith('.') || SKIPPED_DIRS.has(name)) continue;
        let stat;
        try {
          stat = statSync(full);
          // A symlink may point anywhere; list it only when it stays inside the workspace.
          if (lstatSync(full).isSymbolicLink() && !this.inside(realpathSync(full))) continue;
        } catch {
          continue;
        }
        if (stat.isDirectory()) {
          if (depth < 6) walk(full, depth + 1);
        } else if (DOCUMENT_FILE.test(name)) {
          out.push(this.entry(relative(this.workspace, full).split(sep).join('/'), stat.mtimeMs));
        }
      }
    };
    walk(this.workspace, 0);
    return out;
  }

  read(path: string): ReadDocument {
    const file = this.file(path);
    let text: string;
    let modifiedAt: number;
    try {
      text = readFileSync(file, 'utf8');
      modifiedAt = statSync(file).mtimeMs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new HostNotFound(`no document ${path} in the workspace`);
      throw error;
    }
    let document: unknown = null;
    try {
      document = JSON.parse(text);
    } catch (error) {
      return { path, document: null, text, problems: [{ path: '(document)', message: `invalid JSON: ${(error as Error).message}` }], modifiedAt };
    }
    return { path, document, text, problems: validateDocument(document), modifiedAt };
  }

  /** A new crew or flow, empty: it does not validate until it has an agent and a task (a method), and says so. */
  create(name: string, kind: DocumentKind = 'crew'): { path: string; document: unknown } {
    const slug = slugify(name);
    let path = `${slug}.${kind}.json`;
    for (let n = 2; existsSync(this.file(path)); n += 1) path = `${slug}-${n}.${kind}.json`;
    const id = path.replace(DOCUMENT_FILE, '');
    const document = kind === 'flow' ? newFlow(id, name) : newCrew(id, name);
    this.write(path, document);
    return { path, document };
  }

  /** Writes the document as given, valid or not, and returns its problems. */
  save(path: string, document: unknown): { problems: Problem[]; modifiedAt: number } {
    this.write(path, document);
    return { problems: validateDocument(document), modifiedAt: statSync(this.file(path)).mtimeMs };
  }

  rename(path: string, newPath: string): void {
    const from = this.file(path);
    const to = this.file(newPath);
    if (!existsSync(from)) throw new HostNotFound(`no document ${path} in the workspace`);
    if (existsSync(to)) throw new HostConflict(`${newPath} already exists`);
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
  }

  /** Moves the document to `.crewdeck/trash/` (recoverable by hand). */
  delete(path: string): void {
    const from = this.file(path);
    if (!existsSync(from)) throw new HostNotFound(`no document ${path} in the workspace`);
    const trash = join(this.workspace, '.crewdeck', 'trash');
    mkdirSync(trash, { recursive: true });
    renameSync(from, join(trash, `${Date.now()}-${path.split('/').join('__')}`));
  }

  private entry(path: string, modifiedAt: number): DocumentEntry {
    const kind: DocumentKind = path.endsWith('.flow.json') ? 'flow' : 'crew';
    const fallback = path.split('/').pop()!.replace(DOCUMENT_FILE, '');
    try {
      const { document, problems } = this.read(path);
      const loose = (document ?? {}) as { id?: unknown; name?: unknown };
      return {
        path,
        kind,
        id: typeof loose.id === 'string' ? loose.id : undefined,
        name: typeof loose.name === 'string' && loose.name ? loose.name : fallback,
        problemCount: problems.length,
        modifiedAt,
      };
    } catch {
      return { path, kind, name: fallback, problemCount: 1, modifiedAt };
    }
  }

  /**
   * The file for a workspace path. The contract already refused `..` and absolute paths; symlinks are
   * checked by the one document-path resolver (runtime/document/workspaceDocument.ts) that runs.start,
   * training, tests and the CLI use too: the file must resolve to a place inside the workspace, not in
   * `.crewdeck/`.
   */
  private file(path: string): string {
    try {
      return resolveWorkspaceDocument(this.workspace, path).file;
    } catch (error) {
      if (error instanceof DocumentOutsideWorkspace) throw new HostBadInput(`${path} leads outside the workspace or into .crewdeck/ (through a symbolic link)`);
      throw error;
    }
  }

  /** Inside the workspace and not in its `.crewdeck/` folder (which a link could also reach). */
  private inside(real: string): boolean {
    if (real === this.realWorkspace) return true;
    if (!real.startsWith(this.realWorkspace + sep)) return false;
    return relative(this.realWorkspace, real).split(sep)[0]!.toLowerCase() !== '.crewdeck';
  }

  private write(path: string, document: unknown): void {
    const file = this.file(path);
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(document, null, 2)}\n`);
    renameSync(temp, file);
  }
}

/** Problems of a document: its shape and references, and JSON Schemas that do not compile. */
export function validateDocument(document: unknown): Problem[] {
  const kind = (document as { kind?: unknown } | null)?.kind;
  if (kind === 'flow') {
    const flow = parseFlowDocument(document);
    return flow.ok ? flowSchemaProblems(flow.value) : flow.problems;
  }
  const parsed = parseCrewDocument(document);
  return parsed.ok ? schemaProblems(parsed.value) : parsed.problems;
}

function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'untitled';
}

function newCrew(id: string, name: string): unknown {
  return {
    kind: 'crew',
    version: CREW_DOCUMENT_VERSION,
    id,
    name,
    process: 'sequential',
    agents: [],
    tasks: [],
  };
}

function newFlow(id: string, name: string): unknown {
  return {
    kind: 'flow',
    version: FLOW_DOCUMENT_VERSION,
    id,
    name,
    state: { initial: {} },
    // Empty, like a new crew: the first method dropped from the palette starts it (it says so until then).
    methods: [],
  };
}
