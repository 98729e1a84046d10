import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PyStmt } from '../python/pyAst';
import type { Discovery, FoundCrew } from '../construct/findCrews';
import type { ProjectSource } from '../project/projectSource';
import type { CrewIdentity } from './mapCrew';

const GENERIC = new Set(['crew', 'my_crew', 'the_crew', 'c', 'main', 'run', 'kickoff', 'create_crew', 'build_crew', 'get_crew', 'setup_crew', 'run_crew', '__init__']);
const snake = (name: string) => name.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');

/**
 * Each crew's id, name and description. A project with one crew (and no flow) is named by its
 * pyproject.toml; with several, each crew by its @CrewBase class, or by the class, function or
 * variable that builds it (a plain-Python crew), then by its file. Ids are unique.
 */
export function crewIdentities(src: ProjectSource, found: Discovery): Map<FoundCrew, CrewIdentity> {
  const out = new Map<FoundCrew, CrewIdentity>();
  const project = pyprojectFields(src.root);
  const taken = new Set<string>();
  const unique = (id: string) => {
    let out = id || 'crew';
    for (let n = 2; taken.has(out); n += 1) out = `${id}-${n}`;
    taken.add(out);
    return out;
  };
  const single = found.crews.length === 1 && found.flows.length === 0;
  for (const one of found.crews) {
    const cls = one.owner?.cls;
    if (single) {
      const pkg = one.crew.at.file.startsWith('src/') ? one.crew.at.file.split('/')[1] : undefined;
      const raw = project.name ?? pkg ?? basename(src.root);
      const id = unique(raw.replace(/[^A-Za-z0-9_-]/g, '-') || 'crewai-crew');
      const name = cls ? (cls.def.docstring?.trim() || cls.name) : raw;
      out.set(one, { id, name, ...(project.description ? { description: project.description } : {}) });
      continue;
    }
    if (cls) {
      out.set(one, { id: unique(snake(cls.name)), name: cls.def.docstring?.trim() || cls.name });
      continue;
    }
    const builder = builderOf(src, one);
    const hint = one.crew.hint && !GENERIC.has(one.crew.hint) ? one.crew.hint : undefined;
    const raw = builder ?? hint ?? basename(one.crew.at.file, '.py');
    const id = unique(snake(raw) || 'crew');
    out.set(one, { id, name: raw });
  }
  return out;
}

/** The class (or function) whose code builds a plain-Python crew, unless its name says nothing. */
function builderOf(src: ProjectSource, one: FoundCrew): string | undefined {
  const mod = src.module(join(src.root, ...one.crew.at.file.split('/')));
  if (!mod) return undefined;
  const within = (s: PyStmt) => s.line <= one.crew.at.line && s.endLine >= one.crew.at.line;
  for (const s of mod.body) {
    if (!within(s)) continue;
    if (s.k === 'class') return s.name;
    if (s.k === 'def' && !GENERIC.has(s.name)) return s.name.replace(/^(create|build|get|make|setup)_/, '');
  }
  return undefined;
}

/** The project's name and description from pyproject.toml's [project] table. */
function pyprojectFields(root: string): { name?: string; description?: string } {
  const file = join(root, 'pyproject.toml');
  const text = existsSync(file) ? readFileSync(file, 'utf8').slice(0, 200_000) : '';
  const project = /^\[project\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text)?.[1] ?? '';
  const value = (name: string) => {
    const m = new RegExp(`^${name}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|'[^']*')`, 'm').exec(project);
    if (!m?.[1]) return undefined;
    // A TOML basic string ("…") has escapes; a literal string ('…') has none.
    if (m[1].startsWith("'")) return m[1].slice(1, -1);
    const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\' };
    return m[1].slice(1, -1).replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (whole, e: string) => (e.length > 1 ? String.fromCodePoint(parseInt(e.slice(1), 16)) : escapes[e] ?? whole));
  };
  const name = value('name');
  const description = value('description');
  return { ...(name ? { name } : {}), ...(description ? { description } : {}) };
}
