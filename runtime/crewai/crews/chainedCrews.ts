import { FlowDocumentSchema, type FlowDocument } from '../../../shared/model/flow';
import type { Kickoff } from '../construct/frames';
import { templateOf, type Loc, type ObjVal, type ResultAccess, type Val } from '../construct/values';

/**
 * Crews a plain script kicks off one after another, a later one given what an earlier one returned
 * (`letter = WriteCrew().crew().kickoff(inputs={"items": items.raw})`): a flow that runs them in that
 * order. The crew just before passes its output as `{input}`; an older one's output is kept in state.
 */
export interface ChainedCrews {
  flow: FlowDocument;
  /** Inputs that could not be given (with where and why), for the unmapped list. */
  notes: { at: Loc; item: string; why: string }[];
}

interface Step {
  kickoff: Kickoff;
  crewId: string;
  methodId: string;
}

const where = (at: Loc | undefined) => (at ? `${at.file}:${at.line}:${at.col ?? 0}` : '');

/** The flow, when the project's kickoffs chain at least two of its crews; undefined otherwise. */
export function chainedCrewsFlow(kickoffs: Kickoff[], crewIdOf: (crew: ObjVal) => string | undefined, id: string): ChainedCrews | undefined {
  const steps = orderedSteps(kickoffs, crewIdOf);
  if (steps.length < 2) return undefined;
  const byKickoff = new Map(steps.map((s, i) => [where(s.kickoff.at), i]));
  const sourceOf = (from: ResultAccess) => byKickoff.get(where(from.at));
  const chained = steps.some((s, i) => valuesOf(s.kickoff.inputs).some((v) => {
    const from = resultOf(v);
    const j = from && sourceOf(from);
    return j !== undefined && j < i;
  }));
  if (!chained) return undefined;

  const notes: ChainedCrews['notes'] = [];
  const kept = new Set<number>();
  const stateFields = new Set<string>();
  const inputsOf = (step: Step, i: number): Record<string, string> => {
    const out: Record<string, string> = {};
    const inputs = step.kickoff.inputs;
    if (inputs?.t !== 'dict') return out;
    for (const [key, value] of inputs.entries) {
      const stateField = (name: string) => stateFields.add(name);
      const text = inputText(value, i, sourceOf, (j) => (kept.add(j), `${steps[j]!.methodId}_output`), stateField);
      if (text !== undefined) out[key] = text;
      else if (resultOf(value) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) notes.push({ at: step.kickoff.at, item: `${step.crewId} input ${key}`, why: 'a part of an earlier result the flow cannot pass on (only a whole result, or a field of the result just before); the crew asks for the input' });
      else {
        // A value the Python computes (sys.argv, a helper's return): the flow takes it as its own input.
        stateField(key);
        out[key] = `{state.${key}}`;
        notes.push({ at: step.kickoff.at, item: `${step.crewId} input ${key}`, why: `a value computed by Python the importer does not run; the flow takes it as its input "${key}" (crewdeck run … --input ${key}=…)` });
      }
    }
    return out;
  };
  const bodies = steps.map((s, i) => inputsOf(s, i));
  const methods: FlowDocument['methods'] = [];
  steps.forEach((s, i) => {
    const previous = methods[methods.length - 1];
    const inputs = bodies[i]!;
    methods.push({
      id: s.methodId,
      name: s.methodId,
      trigger: previous ? { listen: previous.name } : { start: true },
      body: { type: 'crew', file: `${s.crewId}.crew.json`, ...(Object.keys(inputs).length > 0 ? { inputs } : {}) },
    } as FlowDocument['methods'][number]);
    if (kept.has(i)) {
      const keep = `keep_${s.methodId}_output`;
      methods.push({ id: keep, name: keep, trigger: { listen: s.methodId }, body: { type: 'set_state', set: { [`${s.methodId}_output`]: '{input}' } } } as FlowDocument['methods'][number]);
    }
  });
  const fields = [...stateFields, ...[...kept].map((j) => `${steps[j]!.methodId}_output`)];
  const flow = FlowDocumentSchema.parse({
    kind: 'flow',
    version: 1,
    id,
    name: steps.map((s) => s.crewId).join(' → '),
    persist: false,
    description: 'Crews the project runs one after another in plain Python, each given what the one before returned.',
    state: {
      schema: { type: 'object', properties: Object.fromEntries(fields.map((f) => [f, { type: 'string' }])) },
      initial: Object.fromEntries(fields.map((f) => [f, ''])),
    },
    methods,
  });
  return { flow, notes };
}

/** The kickoffs of imported crews, once each (a function read twice records its kickoffs twice). */
function orderedSteps(kickoffs: Kickoff[], crewIdOf: (crew: ObjVal) => string | undefined): Step[] {
  const seen = new Set<string>();
  const used = new Map<string, number>();
  const steps: Step[] = [];
  for (const k of kickoffs) {
    if (k.target.cls !== 'Crew' || !/^(kickoff|kickoff_async|akickoff)$/.test(k.method)) continue;
    const crewId = crewIdOf(k.target);
    const site = where(k.at);
    if (!crewId || seen.has(site)) continue;
    seen.add(site);
    const n = (used.get(crewId) ?? 0) + 1;
    used.set(crewId, n);
    steps.push({ kickoff: k, crewId, methodId: n === 1 ? crewId : `${crewId}_${n}` });
  }
  return steps;
}

function valuesOf(inputs: Val | undefined): Val[] {
  return inputs?.t === 'dict' ? [...inputs.entries.values()] : [];
}

/** What a value reads from a crew result, when it does. */
function resultOf(v: Val): ResultAccess | undefined {
  if (v.t === 'result') return { of: v.of, ...(v.at ? { at: v.at } : {}), access: [] };
  if (v.t === 'input') return v.from;
  return undefined;
}

/** An input as a flow template: a result of an earlier crew, text, or a run-time value kept in state. */
function inputText(value: Val, i: number, sourceOf: (from: ResultAccess) => number | undefined, keep: (j: number) => string, stateField: (name: string) => void): string | undefined {
  const from = resultOf(value);
  if (from) return resultTemplate(from, i, sourceOf, keep);
  const template = templateOf(value);
  if (!template) return undefined;
  let text = template.text;
  for (const input of template.inputs) {
    const replacement = input.from ? resultTemplate(input.from, i, sourceOf, keep) : `{state.${input.name}}`;
    if (replacement === undefined) return undefined;
    if (!input.from) stateField(input.name);
    text = text.split(`{${input.name}}`).join(replacement);
  }
  return text;
}

/**
 * `result`, `result.raw`: the earlier crew's output; `result.pydantic.x`, `result.json_dict["x"]`,
 * `result["x"]`: a field of its JSON output. The crew just before is `{input}`; an older one's output
 * is kept in state (its whole text only).
 */
function resultTemplate(from: ResultAccess, i: number, sourceOf: (from: ResultAccess) => number | undefined, keep: (j: number) => string): string | undefined {
  const j = sourceOf(from);
  if (j === undefined || j >= i) return undefined;
  const [head, ...rest] = from.access;
  const fields = head === 'raw' ? (rest.length > 0 ? undefined : []) : head === 'pydantic' || head === 'json_dict' ? rest : from.access;
  if (!fields || fields.some((f) => !/^[A-Za-z0-9_-]+$/.test(f))) return undefined;
  const path = fields.map((f) => `.${f}`).join('');
  if (j === i - 1) return `{input${path}}`;
  return path === '' ? `{state.${keep(j)}}` : undefined;
}
