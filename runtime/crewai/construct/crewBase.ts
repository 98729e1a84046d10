import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { PyDef } from '../python/pyAst';
import type { Ev } from './evalTypes';
import { baseName } from './valueOps';
import type { Frame } from './frames';
import { readProjectYaml } from './projectYaml';
import { fromPlain, textOf, UNKNOWN, type CallArgs, type InstVal, type Val } from './values';

/** Decorators that make a @CrewBase method a crew member; CrewAI calls each once per instance. */
export const MEMBER_DECORATORS = ['agent', 'task', 'tool', 'llm', 'crew', 'output_json', 'output_pydantic', 'callback', 'cache_handler'];

export function isCrewBase(ev: Ev, inst: InstVal): boolean {
  return ev.isDecorated(inst.cls.def, 'CrewBase') || ev.bases(inst.cls).some((b) => ev.isDecorated(b.def, 'CrewBase'));
}

/** The member decorator of a method (`agent`, `task`…), if it has one. */
export function memberKind(def: PyDef): string | undefined {
  for (const d of def.decorators) {
    const name = baseName(d.k === 'call' ? d.fn : d);
    if (name && MEMBER_DECORATORS.includes(name)) return name;
  }
  return undefined;
}

/**
 * What @CrewBase adds to an instance: `agents_config` / `tasks_config` (the YAML files, read from the
 * class's folder), and `agents` / `tasks` (every @agent / @task method's result, in class order).
 */
export function crewBaseAttr(ev: Ev, frame: Frame, inst: InstVal, name: string): Val | undefined {
  if (!isCrewBase(ev, inst)) return undefined;
  if (name === 'agents_config' || name === 'tasks_config') {
    const key = `#${name}`;
    if (!inst.memo.has(key)) inst.memo.set(key, loadConfig(ev, inst, name));
    return inst.memo.get(key);
  }
  if (name === 'agents' || name === 'tasks') {
    const kind = name === 'agents' ? 'agent' : 'task';
    const items: Val[] = [];
    for (const def of membersOf(ev, inst, kind)) {
      const fn = { t: 'func' as const, def, mod: inst.cls.mod, self: inst, cls: inst.cls };
      items.push(callMember(ev, frame, fn, kind, { pos: [], kw: new Map() }));
    }
    return { t: 'list', items };
  }
  return undefined;
}

/** The methods of a @CrewBase class (its project bases' first) that carry a member decorator of `kind`. */
export function membersOf(ev: Ev, inst: InstVal, kind: string): PyDef[] {
  const classes = [...ev.bases(inst.cls).reverse(), inst.cls];
  const seen = new Set<string>();
  const out: PyDef[] = [];
  for (const cls of classes) {
    for (const s of cls.def.body) {
      if (s.k !== 'def' || memberKind(s) !== kind || seen.has(s.name)) continue;
      seen.add(s.name);
      out.push(s);
    }
  }
  return out;
}

/** A call of a decorated member method on a @CrewBase instance: once per instance, its result marked as that member. */
export function crewBaseMethod(ev: Ev, frame: Frame, fn: Extract<Val, { t: 'func' }>, args: CallArgs): Val | undefined {
  const inst = fn.self;
  if (inst?.t !== 'inst' || !isCrewBase(ev, inst)) return undefined;
  const kind = memberKind(fn.def);
  if (!kind) return undefined;
  return callMember(ev, frame, fn, kind, args);
}

function callMember(ev: Ev, frame: Frame, fn: Extract<Val, { t: 'func' }>, kind: string, args: { pos: Val[]; kw: Map<string, Val> }): Val {
  const inst = fn.self as InstVal;
  const memo = inst.memo.get(fn.def.name);
  if (memo) return memo;
  const value = ev.callFunction(fn, args.pos, args.kw, frame);
  if (value.t === 'obj' && value.member === undefined) {
    value.member = { kind, name: fn.def.name, owner: inst };
    value.hint = fn.def.name;
  }
  inst.memo.set(fn.def.name, value);
  return value;
}

/** The YAML an `agents_config` / `tasks_config` path names, relative to the class's file (`.yml` too). */
function loadConfig(ev: Ev, inst: InstVal, name: string): Val {
  const configured = inst.attrs.get(name) ?? ev.classAttr(inst.cls, name);
  const given = configured ? textOf(configured) : undefined;
  if (configured && configured.t === 'dict') return configured;
  const path = given ?? (name === 'agents_config' ? 'config/agents.yaml' : 'config/tasks.yaml');
  const base = dirname(ev.src.fileOf(inst.cls.mod));
  const candidates = [join(base, path), join(base, path.replace(/\.yaml$/, '.yml')), join(base, path.replace(/\.yml$/, '.yaml'))];
  const file = candidates.find((f) => existsSync(f)) ?? candidates[0]!;
  const label = relative(ev.src.root, file).split(sep).join('/');
  if (!existsSync(file)) return { t: 'unknown', why: `${label} does not exist (the ${name} of ${inst.cls.name})` };
  try {
    const read = readProjectYaml(ev.src.root, file, label);
    const value = fromPlain(read.value ?? {});
    if (value.t !== 'dict') return UNKNOWN(`${label}: expected a mapping of names to settings at the top level`);
    value.yaml = label;
    for (const [k, x] of value.entries) if (x.t === 'dict') Object.assign(x, { at: { file: label, line: read.lines.get(k) ?? 1 }, key: k });
    return value;
  } catch (error) {
    ev.yamlErrors.push(error as Error);
    return UNKNOWN((error as Error).message);
  }
}

/**
 * A member of a @CrewBase instance by its method name (what a YAML entry's `agent:`, `context:`,
 * `tools:` or `llm:` names): the method's result, made on first use.
 */
export function memberByName(ev: Ev, inst: InstVal, name: string): Val | undefined {
  const known = inst.memo.get(name);
  if (known) return known;
  const fn = ev.method(inst.cls, name);
  if (!fn) return undefined;
  const kind = memberKind(fn.def);
  const globals = ev.moduleGlobals(inst.cls.mod);
  const frame: Frame = { mod: inst.cls.mod, locals: globals, globals, standalone: true, depth: 0 };
  return kind ? callMember(ev, frame, { ...fn, self: inst }, kind, { pos: [], kw: new Map() }) : undefined;
}
