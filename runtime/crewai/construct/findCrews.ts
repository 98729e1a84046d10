import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { walk } from '../findProject';
import { readProjectYaml } from './projectYaml';
import type { PyClass, PyDef, PyExpr, PyModule, PyStmt } from '../python/pyAst';
import { exprTree, walkExprs } from '../python/pyAst';
import type { ProjectSource } from '../project/projectSource';
import { Evaluator } from './evaluator';
import { baseName } from './valueOps';
import { nameExpr, type Frame } from './frames';
import { isCrewBase, memberByName, membersOf } from './crewBase';
import { fromPlain, type ClassRef, type InstVal, type ObjVal, type Val } from './values';

/** A crew the project builds, found by following its code. */
export interface FoundCrew {
  crew: ObjVal;
  /** The @CrewBase instance whose @crew method made it. */
  owner?: InstVal;
  /** Where it was found: reached from an entry point, or read on its own (its parameters are inputs). */
  reached: 'entry' | 'standalone';
  /** A crew read from YAML alone (no Python builds it): its members by YAML key. */
  names?: Map<string, ObjVal>;
}

/** What following the project's code found. */
export interface Discovery {
  ev: Evaluator;
  crews: FoundCrew[];
  /** `class X(Flow[...])` classes, in file order. */
  flows: ClassRef[];
  /** Modules in file order (tests and examples folders left out). */
  modules: PyModule[];
}

const SKIP = /(^|\/)(tests?|examples?|docs|scripts?|notebooks?)\//;

/**
 * Follows the project: every module's top level (a script's `if __name__ == "__main__":` block
 * included), the entry functions pyproject.toml names, then every @CrewBase class's @crew method and
 * every other `Crew(...)` on its own (the enclosing function called with its parameters as inputs).
 */
export function discoverProject(src: ProjectSource): Discovery {
  const ev = new Evaluator(src);
  const modules = src.modules().filter((m) => !SKIP.test(m.file));
  for (const mod of modules) {
    ev.entry = mod;
    ev.moduleGlobals(mod);
  }
  ev.entry = undefined;
  for (const fn of entryFunctions(src, modules)) callStandalone(ev, fn.mod, fn.def, undefined, false);
  for (const cls of classesOf(modules)) {
    if (!ev.isDecorated(cls.def, 'CrewBase')) continue;
    const inst = ev.instantiate(cls, [], new Map(), frameFor(ev, cls.mod, true));
    if (!isCrewBase(ev, inst)) continue;
    for (const def of membersOf(ev, inst, 'crew')) {
      const before = ev.record.objects.length;
      memberByName(ev, inst, def.name);
      for (const obj of ev.record.objects.slice(before)) standaloneSites.add(obj);
    }
  }
  const seen = new Set(ev.record.objects.filter((o) => o.cls === 'Crew').map((o) => siteOf(o)));
  for (const site of crewCallSites(modules)) {
    if (seen.has(`${site.mod.file}:${site.call.line}:${site.call.col}`) || !site.def) continue;
    const inst = site.cls ? ev.instantiate(site.cls, [], new Map(), frameFor(ev, site.mod, true)) : undefined;
    callStandalone(ev, site.mod, site.def, inst, true);
  }
  const crews: FoundCrew[] = [];
  const sites = new Set<string>();
  for (const obj of ev.record.objects) {
    if (obj.cls !== 'Crew' || sites.has(siteOf(obj))) continue;
    sites.add(siteOf(obj));
    crews.push({ crew: obj, ...(obj.member ? { owner: obj.member.owner } : {}), reached: obj.member || !standaloneSites.has(obj) ? 'entry' : 'standalone' });
  }
  if (crews.length === 0) crews.push(...yamlOnlyCrews(ev));
  return { ev, crews, flows: classesOf(modules).filter((c) => ev.baseNames(c).includes('Flow')), modules };
}

/**
 * A project with no Python that builds a crew (YAML only): each agents.yaml with a tasks.yaml beside
 * it is a crew of every entry, in file order, tasks naming their agents by YAML key.
 */
function yamlOnlyCrews(ev: Evaluator): FoundCrew[] {
  const files = walk(ev.src.root).filter((f) => /[\\/]agents\.ya?ml$/.test(f) && !SKIP.test(ev.src.rel(f)));
  files.sort((a, b) => a.split(sep).length - b.split(sep).length || (a < b ? -1 : 1));
  for (const agentsFile of files) {
    const tasksFile = ['tasks.yaml', 'tasks.yml'].map((n) => join(dirname(agentsFile), n)).find((f) => existsSync(f));
    if (!tasksFile) continue;
    const load = (file: string): Val => {
      try {
        const read = readProjectYaml(ev.src.root, file, ev.src.rel(file));
        const value = fromPlain(read.value ?? {});
        if (value.t === 'dict') for (const [k, x] of value.entries) if (x.t === 'dict') Object.assign(x, { at: { file: ev.src.rel(file), line: read.lines.get(k) ?? 1 }, key: k });
        return value;
      } catch (error) {
        ev.yamlErrors.push(error as Error);
        return { t: 'unknown', why: (error as Error).message };
      }
    };
    const names = new Map<string, ObjVal>();
    const make = (cls: string, config: Val, hint: string): ObjVal => {
      const at = config.t === 'dict' && config.at ? config.at : { file: ev.src.rel(agentsFile), line: 1 };
      return ev.made({ t: 'obj', cls, module: 'crewai', args: { pos: [], kw: new Map([['config', config]]) }, at, id: ev.newId(), attrs: new Map(), hint });
    };
    const members = (value: Val, cls: string): Val[] => {
      if (value.t !== 'dict') return [{ t: 'unknown', why: value.t === 'unknown' ? value.why : 'expected a mapping of names to settings' } as Val].map((c) => make(cls, c, cls.toLowerCase()));
      return [...value.entries].map(([key, config]) => {
        const obj = make(cls, config.t === 'dict' ? config : { t: 'unknown', why: `"${key}" must be a mapping of settings` }, key);
        names.set(`${cls}:${key}`, obj);
        return obj;
      });
    };
    const agents = members(load(agentsFile), 'Agent');
    const tasks = members(load(tasksFile), 'Task');
    const crew = make('Crew', { t: 'lit', v: null }, 'crew');
    crew.args.kw = new Map<string, Val>([['agents', { t: 'list', items: agents }], ['tasks', { t: 'list', items: tasks }]]);
    crew.at = { file: ev.src.rel(agentsFile), line: 1 };
    return [{ crew, reached: 'standalone', names }];
  }
  return [];
}

/** Objects made while reading code on its own. */
const standaloneSites = new WeakSet<ObjVal>();

/** Where an object was made: file, line and column of the call (one crew per place that builds one). */
export function siteOf(obj: ObjVal): string {
  return `${obj.at.file}:${obj.at.line}:${obj.at.col ?? 0}`;
}

function frameFor(ev: Evaluator, mod: PyModule, standalone: boolean): Frame {
  const globals = ev.moduleGlobals(mod);
  return { mod, locals: globals, globals, standalone, depth: 0 };
}

/** Calls a function (a method when `self` is given) with its parameters standing for inputs. */
function callStandalone(ev: Evaluator, mod: PyModule, def: PyDef, self: InstVal | undefined, standalone: boolean): Val {
  const before = ev.record.objects.length;
  const fn = { t: 'func' as const, def, mod, ...(self ? { self, cls: self.cls } : {}) };
  const params = def.params.slice(self ? 1 : 0).filter((p) => p.kind === 'normal' && !p.default);
  const pos: Val[] = params.map((p) => ({ t: 'input', name: p.name, bind: nameExpr(p.name, def), mod }));
  const value = ev.callFunction(fn, pos, new Map(), frameFor(ev, mod, standalone));
  if (standalone) for (const obj of ev.record.objects.slice(before)) standaloneSites.add(obj);
  return value;
}

/** Functions pyproject.toml's [project.scripts] names (`run_crew = "pkg.main:run"`), and main.py's run/main. */
function entryFunctions(src: ProjectSource, modules: PyModule[]): { mod: PyModule; def: PyDef }[] {
  const out: { mod: PyModule; def: PyDef }[] = [];
  const pyproject = join(src.root, 'pyproject.toml');
  const text = existsSync(pyproject) ? readFileSync(pyproject, 'utf8').slice(0, 200_000) : '';
  const scripts = /^\[project\.scripts\]([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text)?.[1] ?? '';
  const named = [...scripts.matchAll(/^\s*[\w-]+\s*=\s*["']([\w.]+):(\w+)["']/gm)].map((m) => ({ module: m[1]!, fn: m[2]! }));
  for (const mod of modules) {
    const dotted = mod.file.replace(/^src\//, '').replace(/\.py$/, '').replace(/\//g, '.');
    const wanted = new Set(named.filter((n) => n.module === dotted).map((n) => n.fn));
    if (/(^|\/)main\.py$/.test(mod.file) && wanted.size === 0) for (const f of ['run', 'main', 'kickoff']) wanted.add(f);
    for (const s of mod.body) if (s.k === 'def' && wanted.has(s.name)) out.push({ mod, def: s });
  }
  return out;
}

export function classesOf(modules: PyModule[]): ClassRef[] {
  return modules.flatMap((mod) => mod.body.filter((s): s is PyClass => s.k === 'class').map((def) => ({ name: def.name, def, mod })));
}

/** Every `Crew(...)` call of the project, with the function (and class) around it. */
function crewCallSites(modules: PyModule[]): { mod: PyModule; call: PyExpr; def?: PyDef; cls?: ClassRef }[] {
  const out: { mod: PyModule; call: PyExpr; def?: PyDef; cls?: ClassRef }[] = [];
  const visit = (mod: PyModule, body: PyStmt[], def: PyDef | undefined, cls: ClassRef | undefined) => {
    for (const s of body) {
      if (s.k === 'def') visit(mod, s.body, def ?? s, cls);
      else if (s.k === 'class') visit(mod, s.body, undefined, { name: s.name, def: s, mod });
      else {
        for (const e of walkExprs([s])) {
          if (e.k === 'call' && baseName(e.fn) === 'Crew') out.push({ mod, call: e, ...(def ? { def } : {}), ...(cls ? { cls } : {}) });
        }
      }
    }
  };
  for (const mod of modules) visit(mod, mod.body, undefined, undefined);
  return out;
}

export { exprTree };
