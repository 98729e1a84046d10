import type { CrewDocument } from '../../../shared/model/crew';
import { parseCrewDocument } from '../../../shared/model/parse';
import type { FoundCrew } from '../construct/findCrews';
import { fromPlain, plainOf, textOf, type InputVal, type InstVal, type ObjVal, type Val } from '../construct/values';
import { leftovers, mapAgent } from './mapAgent';
import { knowledgeSetting } from './mapKnowledge';
import type { MapContext } from './mapContext';
import { modelSetting } from './mapModel';
import { mapTask, resolveMember } from './mapTask';
import { flagSetting, shown, type CrewScope } from './mapValues';

type Loose = Record<string, unknown>;

const CREW_FIELDS = new Set(['agents', 'tasks', 'process', 'manager_llm', 'manager_agent', 'planning', 'planning_llm', 'memory', 'max_rpm', 'verbose', 'knowledge_sources']);

/** The identity a crew document gets (decided for the whole project: ids must be unique). */
export interface CrewIdentity {
  id: string;
  name: string;
  description?: string;
}

export type CrewMapping =
  | { ok: true; doc: CrewDocument; inputs: Map<string, InputVal | undefined> }
  /** `at`: where the reason is (a member's config load); `missing`: the YAML key it lacks. */
  | { ok: false; why: string; at?: string; missing?: { reason: string; detail: string } };

/**
 * A `Crew(...)` the project builds, as a crew document. A crew one of whose members loads a config
 * key its YAML lacks (or whose YAML cannot be read) is left out, naming the key; anything else that
 * cannot be read is listed and the rest of the crew still imports.
 */
export function mapCrew(ctx: MapContext, found: FoundCrew, identity: CrewIdentity, kickoffInputs: Val[]): CrewMapping {
  const crew = found.crew;
  const scope: CrewScope = { ...(found.owner ? { owner: found.owner } : {}), ...(found.names ? { names: found.names } : {}), inputs: new Map(), agentIds: new Map(), taskIds: new Map() };
  const agentObjs = objects(ctx, scope, crew.args.kw.get('agents'), 'Agent');
  const taskObjs = objects(ctx, scope, crew.args.kw.get('tasks'), 'Task');
  const manager = crew.args.kw.get('manager_agent');
  const managerObj = manager ? resolveMember(ctx, scope, manager) : undefined;
  // A task's agent that the crew's list leaves out still does the task (CrewAI runs it).
  for (const t of taskObjs) {
    const a = ctx.setting(t, 'agent');
    const obj = a ? resolveMember(ctx, scope, a.value) : undefined;
    if (obj && obj.cls === 'Agent' && !agentObjs.includes(obj)) agentObjs.push(obj);
  }
  if (managerObj && !agentObjs.includes(managerObj)) agentObjs.push(managerObj);
  // A @CrewBase crew keeps its agents in class order (the manager among them).
  if (found.owner) agentObjs.sort((a, b) => memberIndex(found.owner!, a) - memberIndex(found.owner!, b));
  const broken = [...agentObjs, ...taskObjs].map((o) => brokenConfig(ctx, o)).find((b) => b !== undefined);
  if (broken) return { ok: false, ...broken };
  if (taskObjs.length === 0) return { ok: false, why: `the crew's tasks (${shown(crew.args.kw.get('tasks') ?? { t: 'lit', v: null })}) could not be read without running the Python` };
  assignIds(agentObjs, scope.agentIds, 'agent');
  assignIds(taskObjs, scope.taskIds, 'task');
  const agents = agentObjs.map((a) => mapAgent(ctx, scope, a, scope.agentIds.get(a)!));
  const tasks = taskObjs.map((t) => mapTask(ctx, scope, t, scope.taskIds.get(t)!));
  const doc: Loose = { kind: 'crew', version: 1, ...identity, agents, tasks };
  crewSettings(ctx, scope, crew, doc, managerObj);
  const inputs = inputsOf(scope, kickoffInputs);
  if (inputs.length > 0) doc.inputs = inputs;
  leftovers(ctx, crew, 'crew', CREW_FIELDS, 'crew');
  const parsed = parseCrewDocument(doc);
  if (!parsed.ok) return { ok: false, why: parsed.problems.map((p) => `${p.path}: ${p.message}`).join('; ') };
  return { ok: true, doc: parsed.value, inputs: scope.inputs };
}

/** The Agent/Task objects a crew's `agents=` / `tasks=` list holds (YAML names resolved through the @CrewBase class). */
function objects(ctx: MapContext, scope: CrewScope, v: Val | undefined, cls: string): ObjVal[] {
  const items = v?.t === 'list' ? v.items : [];
  const out: ObjVal[] = [];
  for (const item of items) {
    const obj = resolveMember(ctx, scope, item, cls);
    if (obj && obj.cls === cls && !out.includes(obj)) out.push(obj);
    else if (!obj) ctx.note(ctx.where(undefined), `${cls.toLowerCase()}: ${shown(item)}`, `not an ${cls}(...) the importer can read without running the Python; it is left out of the crew`);
  }
  return out;
}

function memberIndex(owner: InstVal, obj: ObjVal): number {
  const name = obj.member?.name;
  const i = name === undefined ? -1 : owner.cls.def.body.findIndex((s) => s.k === 'def' && s.name === name);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}

/** Why a member's `config=` could not be read (a key the YAML lacks, an unreadable YAML file), and where. */
function brokenConfig(ctx: MapContext, obj: ObjVal): { why: string; at: string; missing?: { reason: string; detail: string } } | undefined {
  const config = obj.args.kw.get('config');
  if (config?.t !== 'unknown') return undefined;
  const at = ctx.where(obj.at);
  if (config.missing) {
    const { key, file, keys } = config.missing;
    const kind = obj.cls === 'Agent' ? 'agents' : 'tasks';
    const reason = `${kind}_config['${key}'] is not in ${file.split('/').pop()}`;
    const detail = `${file} defines ${keys.length === 0 ? 'nothing' : keys.map((k) => `"${k}"`).join(', ')}`;
    return { why: `${reason} (${detail})`, at, missing: { reason, detail } };
  }
  return { why: `the ${obj.cls.toLowerCase()}'s config could not be read: ${config.why}`, at };
}

/**
 * Ids from each member's YAML key (`config=self.agents_config['researcher']`), unless two members share
 * one (CrewAI allows it: then their method names), else its @agent/@task method or variable name.
 */
function assignIds(objs: ObjVal[], ids: Map<ObjVal, string>, kind: string): void {
  const taken = new Set<string>();
  const keyOf = (o: ObjVal) => (o.args.kw.get('config')?.t === 'dict' ? (o.args.kw.get('config') as { key?: string }).key : undefined);
  const shared = (key: string) => objs.filter((o) => keyOf(o) === key).length > 1;
  for (const obj of objs) {
    const key = keyOf(obj);
    const base = ((key !== undefined && !shared(key) ? key : undefined) ?? obj.member?.name ?? obj.hint ?? kind).replace(/[^A-Za-z0-9_-]/g, '_') || kind;
    let id = base;
    for (let n = 2; taken.has(id); n += 1) id = `${base}_${n}`;
    taken.add(id);
    ids.set(obj, id);
  }
}

function crewSettings(ctx: MapContext, scope: CrewScope, crew: ObjVal, doc: Loose, managerObj: ObjVal | undefined): void {
  const get = (field: string) => ctx.setting(crew, field);
  const knowledge = knowledgeSetting(ctx, get('knowledge_sources'), 'crew.knowledge_sources');
  if (knowledge.length > 0) doc.knowledge = knowledge;
  const process = get('process');
  const processName = process ? (process.value.t === 'ext' ? process.value.qual : textOf(process.value)) : undefined;
  if (processName !== undefined) {
    if (/hierarchical/.test(processName)) doc.process = 'hierarchical';
    else if (!/sequential/.test(processName)) ctx.note(process!.at, `process=${shown(process!.value)}`, 'not a process this importer can read; the crew is sequential');
  }
  const managerLlm = get('manager_llm');
  if (managerObj) {
    doc.manager = { agentId: scope.agentIds.get(managerObj)! };
    if (managerLlm) ctx.note(managerLlm.at, `manager_llm=${shown(managerLlm.value)}`, 'a manager agent uses its own llm; manager_llm is ignored (as CrewAI does)');
  } else if (get('manager_agent')) ctx.note(get('manager_agent')!.at, `manager_agent=${shown(get('manager_agent')!.value)}`, 'the manager must be an agent of the crew');
  else if (managerLlm) {
    const llm = modelSetting(ctx, scope, managerLlm, 'manager_llm');
    doc.manager = llm !== undefined ? { llm } : {};
  } else if (doc.process === 'hierarchical') doc.manager = {};
  if (doc.process !== 'hierarchical' && doc.manager !== undefined) {
    ctx.note(ctx.where(crew.at), 'manager', 'a manager only takes part in a hierarchical crew');
    delete doc.manager;
  }
  if (get('planning')?.value.t === 'lit' && (get('planning')!.value as { v: unknown }).v === true) {
    const llm = modelSetting(ctx, scope, get('planning_llm'), 'planning_llm');
    doc.planning = llm !== undefined ? { enabled: true, llm } : { enabled: true };
  }
  const memory = get('memory');
  if (memory && !(memory.value.t === 'lit' && memory.value.v === false)) {
    if (memory.value.t === 'lit' && memory.value.v === true) doc.memory = { enabled: true };
    else ctx.note(memory.at, `memory=${shown(memory.value)}`, 'a memory object built in Python; turn on crew memory in Crewdeck instead');
  }
  const maxRpm = flagSetting(ctx, get('max_rpm'), 'max_rpm', 'integer');
  if (maxRpm !== undefined) doc.maxRpm = maxRpm;
}

/** Inputs: every `{placeholder}` of the crew's text, with defaults from what the project kicks it off with. */
function inputsOf(scope: CrewScope, kickoffs: Val[]): { name: string; description?: string; default?: string }[] {
  const defaults = new Map<string, string>();
  const given: string[] = [];
  for (const inputs of kickoffs) {
    if (inputs.t !== 'dict') continue;
    for (const [k, v] of inputs.entries) {
      given.push(k);
      const plain = plainOf(v);
      if ((typeof plain === 'string' || typeof plain === 'number' || typeof plain === 'boolean') && !defaults.has(k)) defaults.set(k, String(plain));
    }
  }
  const out: { name: string; description?: string; default?: string }[] = [];
  // What the project kicks the crew off with comes first (in its order), then the placeholders it does not give.
  const names = [...new Set([...given, ...scope.inputs.keys()])];
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) continue;
    const prompt = scope.inputs.get(name)?.prompt?.trim();
    out.push({ name, ...(prompt ? { description: prompt } : {}), ...(defaults.has(name) ? { default: defaults.get(name)! } : {}) });
  }
  return out;
}

export { fromPlain };
