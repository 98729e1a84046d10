import type { ObjVal } from '../construct/values';
import { knowledgeSetting } from './mapKnowledge';
import type { MapContext, Setting } from './mapContext';
import { modelSetting } from './mapModel';
import { toolsSetting } from './mapTool';
import { flagSetting, shown, textSetting, type CrewScope } from './mapValues';

type Loose = Record<string, unknown>;

export const NOT_NEEDED = 'not needed: Crewdeck records every step of a run in its trace';
const AGENT_FIELDS = new Set([
  'config', 'role', 'goal', 'backstory', 'llm', 'tools', 'allow_delegation', 'max_iter', 'max_rpm', 'max_execution_time', 'respect_context_window',
  'cache', 'memory', 'verbose', 'knowledge_sources',
]);

/** An `Agent(...)` (its YAML config and keyword arguments) as a Crewdeck agent. */
export function mapAgent(ctx: MapContext, scope: CrewScope, obj: ObjVal, id: string): Loose {
  const key = obj.member?.name ?? obj.hint ?? id;
  const get = (field: string) => ctx.setting(obj, field);
  const agent: Loose = { id };
  agent.role = textSetting(ctx, scope, get('role'), `${key}.role`) ?? missingText(ctx, scope, obj, key, 'role');
  agent.goal = textSetting(ctx, scope, get('goal'), `${key}.goal`) ?? missingText(ctx, scope, obj, key, 'goal');
  const backstory = textSetting(ctx, scope, get('backstory'), `${key}.backstory`);
  if (backstory !== undefined) agent.backstory = backstory;
  const llm = modelSetting(ctx, scope, get('llm'), `${key}.llm`);
  if (llm !== undefined) agent.llm = llm;
  const knowledge = knowledgeSetting(ctx, get('knowledge_sources'), `${key}.knowledge_sources`);
  if (knowledge.length > 0) agent.knowledge = knowledge;
  const tools = toolsSetting(ctx, scope, get('tools'), `${key}.tools`);
  if (tools.length > 0) agent.tools = tools;
  const flags: [string, string, 'boolean' | 'integer'][] = [
    ['allow_delegation', 'allowDelegation', 'boolean'],
    ['max_iter', 'maxIter', 'integer'],
    ['max_rpm', 'maxRpm', 'integer'],
    ['respect_context_window', 'respectContextWindow', 'boolean'],
    ['cache', 'cache', 'boolean'],
    ['memory', 'memory', 'boolean'],
  ];
  for (const [field, to, type] of flags) {
    const value = flagSetting(ctx, get(field), `${key}.${field}`, type);
    if (value !== undefined) agent[to] = value;
  }
  const seconds = get('max_execution_time');
  if (seconds && !(seconds.value.t === 'lit' && seconds.value.v === null)) {
    if (seconds.value.t === 'lit' && typeof seconds.value.v === 'number' && seconds.value.v > 0) agent.maxExecutionTimeMs = Math.round(seconds.value.v * 1000);
    else ctx.note(seconds.at, `${key}.max_execution_time: ${shown(seconds.value)}`, 'expected a positive number of seconds');
  }
  leftovers(ctx, obj, key, AGENT_FIELDS, 'agent');
  return agent;
}

/** An agent without a role or goal (CrewAI refuses one too): a placeholder input, listed. */
function missingText(ctx: MapContext, scope: CrewScope, obj: ObjVal, key: string, field: string): string {
  const name = `${key}_${field}`.replace(/[^A-Za-z0-9_]/g, '_');
  ctx.note(ctx.where(obj.at), `${key}.${field}`, `the agent has no ${field} the importer can find; it is the crew input {${name}} instead`);
  scope.inputs.set(name, undefined);
  return `{${name}}`;
}

/** Settings with no Crewdeck equivalent (and `verbose`, which the trace makes unneeded), each listed. */
export function leftovers(ctx: MapContext, obj: ObjVal, key: string, known: Set<string>, kind: string): void {
  const why = (field: string) => (field === 'verbose' ? NOT_NEEDED : /callback/.test(field) ? 'a Python callback cannot run in Crewdeck' : `CrewAI ${kind} setting with no Crewdeck equivalent`);
  const config = ctx.config(obj);
  for (const field of config?.entries.keys() ?? []) {
    if (!known.has(field) || field === 'verbose') ctx.note(ctx.where(config?.at ?? obj.at), `${key}.${field}`, why(field));
  }
  for (const [field, value] of obj.args.kw) {
    if (!known.has(field) || field === 'verbose') ctx.note(ctx.where(obj.at), `${key}.${field}=${shown(value)}`, why(field));
  }
}

export type { Setting };
