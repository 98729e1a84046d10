import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { FlowDocumentSchema, type FlowBody, type FlowCondition, type FlowDocument, type FlowMethod } from '../../shared/model/flow';
import { CrewAiImportInvalid } from './crewAiErrors';
import { readMethodSteps } from './flowMethodSteps';
import type { FlowStep, MethodReading } from './flowSteps/flowStep';
import { stub } from './methodStub';
import { modelFromCrewAi } from './modelNames';
import { callArguments, pyLiteral, pyString, splitTopLevel, type PyFunction } from './pythonSource';
import { pruneTriggers, type MethodOrigin } from './pruneTriggers';
import { readFlowClasses, readFlowState, type FlowPy } from './readFlowPy';
import type { UnmappedItem } from './unmapped';

/** A CrewAI Flow read into a Crewdeck flow document whose crew bodies name the imported crews' files. */
export interface FlowImport {
  doc: FlowDocument;
  /** Crew classes the flow kicks off that are not among the imported crews. */
  missingCrews: string[];
}

const FLOW_DECORATORS = new Set(['start', 'listen', 'router']);

type Note = (line: number, item: string, why: string) => void;
type FlowState = { schema?: Record<string, unknown>; initial: Record<string, unknown> };
type PyDecorator = PyFunction['decoratorCalls'][number];

/** What reading the methods of one Flow class shares: the names so far, and the methods and crews read. */
interface FlowReading {
  file: string;
  source: string;
  note: Note;
  crewFileOf: (className: string) => string | undefined;
  /** The flow's method names (those with a flow decorator). */
  names: Set<string>;
  /** Method names taken, the step methods' included. */
  taken: Set<string>;
  /** Names a guard's continue route must not take. */
  reserved: Set<string>;
  fieldType: (field: string) => string | undefined;
  methods: FlowMethod[];
  origin: Map<string, MethodOrigin>;
  missingCrews: Set<string>;
}

/**
 * Reads (never runs) the first `Flow` subclass of `mainPy`. `crewFileOf` gives the crew file of a
 * `@CrewBase` class name (undefined when the project has no such crew). Methods that cannot be read
 * become pass-through script stubs and unmapped items with their line.
 */
export function importCrewAiFlow(root: string, mainPy: string, id: string, crewFileOf: (className: string) => string | undefined, unmapped: UnmappedItem[]): FlowImport | undefined {
  const source = readFileSync(mainPy, 'utf8');
  const classes = readFlowClasses(source);
  const [flow] = classes;
  if (flow === undefined) return undefined;
  const file = relative(root, mainPy).split(sep).join('/');
  const at = (line: number) => `${file}:${line}`;
  const note = (line: number, item: string, why: string) => unmapped.push({ path: at(line), item, why });
  for (const other of classes.slice(1)) note(other.line, `Flow class ${other.className}`, `only the first Flow class of main.py (${flow.className}) is imported`);

  const state = stateOf(flow, source, note);
  const reading = flowReading(flow, source, file, state, note, crewFileOf);
  for (const fn of flow.methods) importMethod(reading, fn);
  const { methods, origin, missingCrews } = reading;
  for (const className of missingCrews) note(flow.line, `crew ${className}`, `the flow kicks off ${className}, but no @CrewBase class of that name was found in the project`);
  declareResultFields(methods, state);

  const doc = {
    kind: 'flow',
    version: 1,
    id,
    name: flow.docstring ?? flow.className,
    persist: flow.persist,
    state: { ...(state.schema ? { schema: state.schema } : {}), initial: state.initial },
    methods: pruneTriggers(methods, origin, note),
  };
  const parsed = FlowDocumentSchema.safeParse(doc);
  if (!parsed.success) {
    throw new CrewAiImportInvalid(root, parsed.error.issues.map((i) => ({ path: `${file} (flow): ${i.path.join('.')}`, message: i.message })));
  }
  return { doc: parsed.data, missingCrews: [...missingCrews] };
}

function flowReading(flow: FlowPy, source: string, file: string, state: FlowState, note: Note, crewFileOf: (className: string) => string | undefined): FlowReading {
  const names = new Set(flow.methods.filter((m) => m.decorators.some((d) => FLOW_DECORATORS.has(d))).map((m) => m.name));
  // A guard's continue route must not be a method name or a label the flow already routes or listens to.
  const reserved = new Set([...names, ...[...source.matchAll(/(["'])([A-Za-z0-9_-]+)\1/g)].map((m) => m[2]!)]);
  const fieldType = (field: string) => {
    const prop = (state.schema?.properties as Record<string, { type?: unknown }> | undefined)?.[field];
    const t = prop?.type;
    return typeof t === 'string' ? t : Array.isArray(t) ? (t.filter((x) => x !== 'null')[0] as string | undefined) : undefined;
  };
  return { file, source, note, crewFileOf, names, taken: new Set(names), reserved, fieldType, methods: [], origin: new Map(), missingCrews: new Set() };
}

/** One Python method of the flow: its steps become methods (none when it has no flow decorator or trigger). */
function importMethod(r: FlowReading, fn: PyFunction): void {
  const { note } = r;
  const [decorator] = fn.decoratorCalls.filter((d) => FLOW_DECORATORS.has(d.name));
  if (decorator === undefined) {
    if (fn.name !== '__init__') note(fn.line, `method ${fn.name}`, 'a method without @start/@listen/@router is plain Python the flow calls; Crewdeck cannot run it (the steps that call it are stubs)');
    else note(fn.line, `method ${fn.name}`, 'a constructor runs Python before the flow; set initial state in the state model instead');
    return;
  }
  for (const d of fn.decoratorCalls) {
    if (!FLOW_DECORATORS.has(d.name) && d.name !== 'human_feedback' && d.name !== 'persist') note(d.line, `@${d.name} on ${fn.name}`, 'a decorator with no Crewdeck equivalent; it is left out');
  }
  const isRouter = decorator.name === 'router';
  const trigger = triggerOf(decorator.name, decorator.args, r.names, (why) => note(decorator.line, `@${decorator.name}(${decorator.args ?? ''}) on ${fn.name}`, why), fn.name);
  if (!trigger) return;
  const reading = readMethodSteps(fn, isRouter, r.fieldType, r.reserved);
  const steps = methodSteps(r, fn, reading, isRouter);
  // Crew bodies name the imported crew files.
  for (const step of steps) nameCrewFile(r, step);
  addStepMethods(r, fn, steps, trigger, reading.description, decorator);
}

/** The steps a method became: a stub when it could not be read, then its @human_feedback review. */
function methodSteps(r: FlowReading, fn: PyFunction, reading: MethodReading, isRouter: boolean): FlowStep[] {
  let steps: FlowStep[] = reading.steps;
  if (reading.unsupported) {
    const { line, python, why } = reading.unsupported;
    r.note(line, `${fn.name}: ${python.split('\n')[0]}`, `${why}; the method is a pass-through script stub that warns when it runs (rewrite it as Crewdeck steps)`);
    steps = [stub(fn, r.file, r.source, isRouter, r.crewFileOf)];
  }
  const feedback = fn.decoratorCalls.find((d) => d.name === 'human_feedback');
  if (feedback) {
    const step = feedbackStep(feedback.args ?? '', (why) => r.note(feedback.line, `@human_feedback on ${fn.name}`, why));
    if (step) steps = [...steps, step];
  }
  if (steps.length === 0) steps = [{ body: { type: 'set_state', set: {} } }];
  return steps;
}

/** A crew body's `crew:<Class>` placeholder → the imported crew's file (or `<Class>.crew.json`, the crew missing). */
function nameCrewFile(r: FlowReading, step: FlowStep): void {
  const crew = step.body.type === 'crew' ? step.body : step.body.type === 'for_each' && step.body.body.type === 'crew' ? step.body.body : undefined;
  if (!crew || !crew.file.startsWith('crew:')) return;
  const className = crew.file.slice('crew:'.length);
  const crewFile = r.crewFileOf(className);
  if (crewFile) crew.file = crewFile;
  else {
    r.missingCrews.add(className);
    crew.file = `${className}.crew.json`;
  }
}

/** A method's steps as flow methods, each listening to the one before; the last keeps the method's name. */
function addStepMethods(r: FlowReading, fn: PyFunction, steps: FlowStep[], trigger: FlowMethod['trigger'], description: string | undefined, decorator: PyDecorator): void {
  // The step before this one and the method it became (none for the first step).
  let previous: { step: FlowStep; method: FlowMethod } | undefined;
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    const name = last ? fn.name : stepName(r, fn, step);
    const method: FlowMethod = {
      id: name,
      name,
      ...(last && description ? { description } : {}),
      // After a guard the rest of the method runs on its continue route (not when a guard returned).
      trigger: previous === undefined ? trigger : previous.step.continueRoute !== undefined ? { listen: { route: previous.step.continueRoute } } : { listen: previous.method.name },
      ...(step.routes ? { routes: step.routes } : {}),
      body: step.body,
      ...(step.outputFile ? { outputFile: step.outputFile } : {}),
    } as FlowMethod;
    r.methods.push(method);
    previous = { step, method };
    r.origin.set(name, { fnName: fn.name, line: i === 0 ? decorator.line : fn.line, first: i === 0 });
  });
}

/** The name of a step before a method's last: the one it needs, else `<method>_<kind>` (numbered when taken). */
function stepName(r: FlowReading, fn: PyFunction, step: FlowStep): string {
  if (step.name !== undefined && !r.taken.has(step.name)) {
    r.taken.add(step.name);
    return step.name;
  }
  const base = `${fn.name}_${step.continueRoute !== undefined ? 'guard' : step.body.type}`;
  let name = base;
  for (let n = 2; r.taken.has(name); n += 1) name = `${base}${n}`;
  r.taken.add(name);
  return name;
}

/**
 * A loop's results field the state model lacks (`<method>_results`) is declared as a list of texts, as
 * export writes it (CrewAI's state model must declare every field a method sets).
 */
function declareResultFields(methods: FlowMethod[], state: FlowState): void {
  for (const m of methods) {
    if (m.body.type !== 'for_each' || m.body.into in state.initial) continue;
    state.initial[m.body.into] = [];
    const properties = state.schema?.properties as Record<string, unknown> | undefined;
    if (properties && !(m.body.into in properties)) properties[m.body.into] = { type: 'array', items: { type: 'string' } };
  }
}

function stateOf(flow: FlowPy, source: string, note: Note): FlowState {
  if (flow.stateClass) {
    const state = readFlowState(source, flow.stateClass);
    if (!state) {
      note(flow.line, `state ${flow.stateClass}`, `the state model ${flow.stateClass} is not a pydantic BaseModel defined in main.py; the flow starts with an empty state`);
      return { initial: {} };
    }
    for (const u of state.unread) note(u.line, `${flow.stateClass}.${u.field} = ${u.text}`, 'a default that is not a literal; the field starts without a value');
    if (!state.schema) note(flow.line, `state ${flow.stateClass}`, 'the state model uses types the importer cannot read as a JSON schema (nested models, validators); the state keeps its initial values but no schema');
    return { schema: state.schema, initial: state.initial };
  }
  return { initial: flow.initialDict ?? {} };
}

/** `@start()`, `@start("retry")`, `@listen(a)`, `@listen(or_(a, "route"))`, `@router(a)`. */
function triggerOf(kind: string, args: string | undefined, names: Set<string>, fail: (why: string) => void, self: string): FlowMethod['trigger'] | undefined {
  const text = args?.trim() ?? '';
  if (kind === 'start') {
    if (text === '') return { start: true };
    const condition = conditionOf(text, names, self);
    if (!condition) return fail('a start condition the importer cannot read'), { start: true };
    return { start: true, listen: condition };
  }
  if (text === '') {
    fail(`@${kind}() with no argument listens to nothing, so the method never runs; it is left out (and so are its listeners)`);
    return undefined;
  }
  const condition = conditionOf(text, names, self);
  if (!condition) {
    fail('a condition the importer cannot read (method names, route strings, or_ and and_)');
    return undefined;
  }
  return { listen: condition };
}

function conditionOf(text: string, names: Set<string>, self: string): FlowCondition | undefined {
  const t = text.trim();
  const call = /^(or_|and_)\s*\(([\s\S]*)\)$/.exec(t);
  if (call) {
    const parts = splitTopLevel(call[2]!).map((p) => conditionOf(p, names, self));
    if (parts.length === 0 || parts.some((p) => p === undefined)) return undefined;
    return call[1] === 'or_' ? { or: parts as FlowCondition[] } : { and: parts as FlowCondition[] };
  }
  const label = pyString(t);
  // A string names a method when one has that name (CrewAI matches both), else a router's output; its
  // own name is the route (a method cannot run on its own completion: `@listen("save") def save`).
  if (label !== undefined) return names.has(label) && label !== self ? label : { route: label };
  const name = /^(?:self\.)?(\w+)$/.exec(t)?.[1];
  return name !== undefined && names.has(name) ? name : undefined;
}

/** `@human_feedback(message=…, emit=[…], default_outcome=…, llm=…)` → a human_feedback step. */
function feedbackStep(args: string, fail: (why: string) => void): FlowStep | undefined {
  const { positional, keywords } = callArguments(args);
  const message = pyString(keywords.get('message') ?? positional[0] ?? '');
  if (!message) {
    fail('a feedback request without a literal message; the review step asks "Review the output"');
  }
  const emit = keywords.has('emit') ? pyLiteral(keywords.get('emit')!) : undefined;
  const outcomes = Array.isArray(emit) && emit.every((e) => typeof e === 'string') ? (emit as string[]) : undefined;
  if (keywords.has('emit') && !outcomes) fail('emit is not a list of string labels; the review has no outcomes');
  const dflt = keywords.has('default_outcome') ? pyString(keywords.get('default_outcome')!) : undefined;
  const llmName = keywords.has('llm') ? pyString(keywords.get('llm')!) : undefined;
  const llm = llmName !== undefined ? modelFromCrewAi(llmName).ref : undefined;
  if (keywords.has('llm') && llmName === undefined) fail(`llm=${keywords.get('llm')} is not a model name; the workspace default model classifies the feedback`);
  for (const key of keywords.keys()) {
    if (!['message', 'emit', 'default_outcome', 'llm'].includes(key)) fail(`${key}=${keywords.get(key)} has no Crewdeck equivalent`);
  }
  const body: FlowBody = {
    type: 'human_feedback',
    message: message || 'Review the output',
    ...(outcomes ? { outcomes } : {}),
    ...(dflt !== undefined && outcomes ? { defaultOutcome: dflt } : {}),
    learn: false,
    ...(llm !== undefined ? { llm } : {}),
  };
  return { body, ...(outcomes ? { routes: outcomes } : {}) };
}

/** The flow with its crew bodies' files renamed (`old → new`), e.g. when a crew was saved under another name. */
export function withCrewFiles(flow: FlowDocument, renamed: Map<string, string>): FlowDocument {
  const rename = (file: string) => renamed.get(file) ?? file;
  return {
    ...flow,
    methods: flow.methods.map((m) => {
      const b = m.body;
      if (b.type === 'crew') return { ...m, body: { ...b, file: rename(b.file) } };
      if (b.type === 'for_each' && b.body.type === 'crew') return { ...m, body: { ...b, body: { ...b.body, file: rename(b.body.file) } } };
      if (b.type === 'script' && b.crews) return { ...m, body: { ...b, crews: b.crews.map(rename) } };
      return m;
    }),
  };
}
