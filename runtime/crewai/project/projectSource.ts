import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Parser } from 'web-tree-sitter';
import { insideProject, walk } from '../findProject';
import type { PyModule, PyStmt } from '../python/pyAst';
import { loadPythonParser, parsePython, PythonFileTooLarge } from '../python/pythonParser';
import type { UnmappedItem } from '../unmapped';

/**
 * The Python of a CrewAI project, parsed once per file: module names, imports between the project's
 * modules and the names each module defines. Files are read only inside the project folder (a
 * symbolic link leading out of it is not followed), and never run.
 */
export class ProjectSource {
  private readonly parsed = new Map<string, PyModule | undefined>();
  private files?: string[];
  /** Folders module names are relative to: `src/` (when the project has one) and the project folder. */
  readonly roots: string[];

  private constructor(
    readonly root: string,
    private readonly parser: Parser,
  ) {
    this.roots = [join(root, 'src'), root].filter((d) => existsSync(d) && statSync(d).isDirectory());
  }

  static async open(root: string): Promise<ProjectSource> {
    return new ProjectSource(root, await loadPythonParser());
  }

  /** A path relative to the project folder, with `/` separators. */
  rel(file: string): string {
    return relative(this.root, file).split(sep).join('/');
  }

  /** Every .py file of the project (dependencies, virtual environments and caches skipped). */
  pythonFiles(): string[] {
    this.files ??= walk(this.root).filter((f) => f.endsWith('.py'));
    return this.files;
  }

  /** The parsed module of an absolute file path; undefined when it cannot be read or is outside the project. */
  module(file: string): PyModule | undefined {
    if (this.parsed.has(file)) return this.parsed.get(file);
    let mod: PyModule | undefined;
    if (insideProject(this.root, file)) {
      try {
        mod = parsePython(this.parser, readFileSync(file, 'utf8'), this.rel(file));
      } catch (error) {
        if (!(error instanceof PythonFileTooLarge) && (error as NodeJS.ErrnoException).code === undefined) throw error;
        mod = { file: this.rel(file), source: '', body: [], errors: [{ line: 1, col: 1, message: (error as Error).message }] };
      }
    }
    this.parsed.set(file, mod);
    return mod;
  }

  /** Every module of the project, parsed. */
  modules(): PyModule[] {
    return this.pythonFiles()
      .map((f) => this.module(f))
      .filter((m): m is PyModule => m !== undefined);
  }

  /** The absolute file of a parsed module. */
  fileOf(mod: PyModule): string {
    return join(this.root, ...mod.file.split('/'));
  }

  /** Syntax errors of every module parsed so far, as unmapped items naming file, line and column. */
  syntaxProblems(): UnmappedItem[] {
    const out: UnmappedItem[] = [];
    for (const mod of this.parsed.values()) {
      for (const e of mod?.errors ?? []) {
        out.push({ path: `${mod!.file}:${e.line}:${e.col}`, item: 'Python syntax', why: `${e.message}; the statements around it could not be read` });
      }
    }
    return out;
  }

  /**
   * The file a module name refers to, as Python would find it from `from` (a module of the project):
   * relative (`level` dots) to its package, else from `src/`, the project folder, or the importing
   * file's folder (a script run from its own folder imports its siblings by name).
   */
  resolveModule(from: PyModule, module: string, level: number): string | undefined {
    const parts = module === '' ? [] : module.split('.');
    const bases: string[] = [];
    if (level > 0) {
      let base = dirname(this.fileOf(from));
      for (let i = 1; i < level; i += 1) base = dirname(base);
      bases.push(base);
    } else bases.push(...this.roots, dirname(this.fileOf(from)));
    for (const base of bases) {
      const asFile = join(base, ...parts) + '.py';
      if (parts.length > 0 && existsSync(asFile)) return asFile;
      const asPackage = join(base, ...parts, '__init__.py');
      if (existsSync(asPackage)) return asPackage;
    }
    return undefined;
  }

  /** The top-level statement of `mod` that defines `name` (def, class, assignment or import), the last one winning. */
  definition(mod: PyModule, name: string): PyStmt | undefined {
    let found: PyStmt | undefined;
    for (const s of mod.body) if (defines(s, name)) found = s;
    return found;
  }
}

/** Whether a top-level statement binds `name`. */
export function defines(s: PyStmt, name: string): boolean {
  switch (s.k) {
    case 'def':
    case 'class':
      return s.name === name;
    case 'assign':
      return s.targets.some((t) => t.k === 'name' && t.id === name);
    case 'annassign':
      return s.target.k === 'name' && s.target.id === name;
    case 'import':
      return s.names.some((n) => (n.as ?? n.name.split('.')[0]) === name);
    case 'from':
      return s.names.some((n) => (n.as ?? n.name) === name);
    default:
      return false;
  }
}
