import type { Guardrail } from '../../../shared/model/guardrail';
import { WorkspacePathSchema } from '../../../shared/model/workspacePath';
import { memberByName } from '../construct/crewBase';
import { textOf, type ObjVal, type Val } from '../construct/values';
import { leftovers } from './mapAgent';
import type { MapContext, Setting } from './mapContext';
import { flagSetting, shown, textSetting, type CrewScope } from './mapValues';
import { toolsSetting } from './mapTool';
import { schemaOfModel } from './pydanticModels';

type Loose = Record<string, unknown>;

const TASK_FIELDS = new Set([
  'config', 'description', 'expected_output', 'agent', 'context', 'async_execution', 'human_input', 'output_file', 'markdown', 'guardrail', 'guardrails',
  'guardrail_max_retries', 'max_retries', 'output_json', 'output_pydantic', 'tools', 'name', 'verbose', 'create_directory',
]);

/** A `Task(...)` (its YAML config and keyword arguments) as a Crewdeck task. */
export function mapTask(ctx: MapContext, scope: CrewScope, obj: ObjVal, id: string): Loose {
  const key = obj.member?.name ?? obj.hint ?? id;
  const get = (field: string) => ctx.setting(obj, field);
  const task: Loose = { id };
  const name = textOf(get('name')?.value);
  if (name?.trim()) task.name = name.trim();
  task.description = textSetting(ctx, scope, get('description'), `${key}.description`);
  if (task.description === undefined) {
    task.description = `{${key}_description}`;
    ctx.note(ctx.where(obj.at), `${key}.description`, `the task has no description the importer can find; it is the crew input {${key}_description} instead`);
    scope.inputs.set(`${key}_description`, undefined);
  }
  task.expectedOutput = textSetting(ctx, scope, get('expected_output'), `${key}.expected_output`) ?? '';
  const agent = agentOf(ctx, scope, get('agent'), key);
  if (agent) task.agentId = agent;
  const context = contextOf(ctx, scope, get('context'), key);
  if (context !== undefined) task.context = context;
  for (const [field, to] of [['async_execution', 'async'], ['human_input', 'humanInput']] as const) {
    const v = flagSetting(ctx, get(field), `${key}.${field}`, 'boolean');
    if (v !== undefined) task[to] = v;
  }
  const outputFile = textSetting(ctx, scope, get('output_file'), `${key}.output_file`);
  if (outputFile !== undefined) {
    if (WorkspacePathSchema.safeParse(outputFile).success) task.outputFile = outputFile;
    else ctx.note(get('output_file')!.at, `${key}.output_file: ${outputFile}`, 'the file is outside the workspace (an absolute path, or one leading up out of it); the task is imported without writing it');
  }
  if (get('markdown')?.value.t === 'lit' && (get('markdown')!.value as { v: unknown }).v === true) task.output = { format: 'markdown' };
  const guardrails = guardrailsOf(ctx, obj, key);
  if (guardrails.length > 0) task.guardrails = guardrails;
  const retries = get('guardrail_max_retries') ?? get('max_retries');
  if (retries?.value.t === 'lit' && typeof retries.value.v === 'number' && Number.isInteger(retries.value.v) && retries.value.v >= 0) task.guardrailMaxRetries = retries.value.v;
  for (const field of ['output_json', 'output_pydantic'] as const) {
    const out = outputSchema(ctx, scope, get(field), `${key}.${field}`);
    // output_pydantic is what export writes by default; output_json is recorded so that it comes back as such.
    if (out) task.output = field === 'output_json' ? { format: 'json', schema: out, crewai: field } : { format: 'json', schema: out };
  }
  const tools = toolsSetting(ctx, scope, get('tools'), `${key}.tools`);
  if (tools.length > 0) task.tools = tools;
  leftovers(ctx, obj, key, TASK_FIELDS, 'task');
  return task;
}

/** The agent object (or YAML name of an @agent method) a task names, as the agent's id. */
function agentOf(ctx: MapContext, scope: CrewScope, s: Setting | undefined, key: string): string | undefined {
  if (!s || (s.value.t === 'lit' && s.value.v === null)) return undefined;
  const obj = resolveMember(ctx, scope, s.value);
  const id = obj ? scope.agentIds.get(obj) : undefined;
  if (!id) ctx.note(s.at, `${key}.agent: ${shown(s.value)}`, 'names no agent of this crew');
  return id;
}

function contextOf(ctx: MapContext, scope: CrewScope, s: Setting | undefined, key: string): string[] | 'none' | undefined {
  if (!s || (s.value.t === 'lit' && s.value.v === null)) return undefined;
  if (s.value.t !== 'list') {
    ctx.note(s.at, `${key}.context: ${shown(s.value)}`, 'not a list of tasks; the task gets every earlier output, as when context is left out');
    return undefined;
  }
  if (s.value.items.length === 0) return 'none';
  const ids: string[] = [];
  for (const item of s.value.items) {
    const obj = resolveMember(ctx, scope, item, 'Task');
    const id = obj ? scope.taskIds.get(obj) : undefined;
    if (id) ids.push(id);
    else ctx.note(s.at, `${key}.context: ${shown(item)}`, 'names no task of this crew');
  }
  return ids.length > 0 ? ids : undefined;
}

/** An object, or the YAML name of a @CrewBase member that makes it. */
export function resolveMember(ctx: MapContext, scope: CrewScope, v: Val, cls = 'Agent'): ObjVal | undefined {
  if (v.t === 'obj') return v;
  const name = textOf(v)?.trim();
  if (name === undefined) return undefined;
  const byYaml = scope.names?.get(`${cls}:${name}`) ?? scope.names?.get(`${cls === 'Agent' ? 'Task' : 'Agent'}:${name}`);
  if (byYaml) return byYaml;
  if (!scope.owner) return undefined;
  const member = memberByName(ctx.ev, scope.owner, name);
  if (member?.t === 'obj') return member;
  // A YAML name may also be the member's YAML key (`agent: researcher` for `def lead(self): … config['researcher']`).
  for (const v of scope.owner.memo.values()) if (v.t === 'obj' && (v.args.kw.get('config') as { key?: string } | undefined)?.key === name) return v;
  return undefined;
}

function guardrailsOf(ctx: MapContext, obj: ObjVal, key: string): Guardrail[] {
  const out: Guardrail[] = [];
  for (const field of ['guardrail', 'guardrails']) {
    const s = ctx.setting(obj, field);
    if (!s || (s.value.t === 'lit' && s.value.v === null)) continue;
    for (const item of s.value.t === 'list' ? s.value.items : [s.value]) {
      const criterion = textOf(item);
      if (criterion?.trim()) out.push({ type: 'llm', criterion: criterion.trim() });
      else ctx.note(s.at, `${key}.${field}: ${shown(item)}`, 'a Python guardrail function cannot run in Crewdeck; rebuild it as a regex, length, contains, json_schema or llm guardrail');
    }
  }
  return out;
}

/** output_json / output_pydantic: a pydantic class of the project, as JSON Schema. */
function outputSchema(ctx: MapContext, scope: CrewScope, s: Setting | undefined, item: string): Record<string, unknown> | undefined {
  if (!s || (s.value.t === 'lit' && s.value.v === null)) return undefined;
  let v = s.value;
  const named = textOf(v);
  if (named !== undefined && scope.owner) {
    const found = ctx.ev.moduleGlobals(scope.owner.cls.mod).get(named.trim());
    if (found) v = found;
  }
  if (v.t !== 'class') {
    ctx.note(s.at, `${item}: ${shown(v)}`, 'not a pydantic class of the project; set the output schema in Crewdeck');
    return undefined;
  }
  ctx.out.sourceFiles.add(v.ref.mod.file);
  const read = schemaOfModel(ctx.ev, v.ref);
  if (read.ok) return read.schema;
  ctx.note(s.at, `${item}: ${v.ref.name}`, `a pydantic output class whose JSON schema could not be read (${read.why}); set the output schema in Crewdeck`);
  return undefined;
}
