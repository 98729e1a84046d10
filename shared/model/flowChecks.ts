import { stubStatement } from '../stubsReached';
import type { Problem } from './problems';

type Loose = Record<string, unknown>;
const record = (v: unknown): Loose => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {});
const list = (v: unknown): Loose[] => (Array.isArray(v) ? v.map(record) : []);
const items = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** `{input}` or `{input.field}` in a flow template (`runtime/flow/template.ts` reads the same). */
const INPUT_PLACEHOLDER = /\{input(?:\.[A-Za-z0-9_-]+)*\}/;

/**
 * The templates of a method body that are rendered when it runs, by field path: a prompt, a message,
 * `set` values, `items`, crew `inputs`, and those of a for_each body. (Script code reads `input` as a
 * variable, which is simply undefined in a start method; rules read it as a path, which is then false.)
 */
function bodyTemplates(body: Loose, path: (string | number)[]): { path: (string | number)[]; text: string }[] {
  const out: { path: (string | number)[]; text: string }[] = [];
  const add = (key: string, value: unknown) => {
    if (typeof value === 'string') out.push({ path: [...path, key], text: value });
  };
  add('prompt', body.prompt);
  add('message', body.message);
  add('items', body.items);
  for (const [key, value] of Object.entries(record(body.set))) if (typeof value === 'string') out.push({ path: [...path, 'set', key], text: value });
  for (const [key, value] of Object.entries(record(body.inputs))) if (typeof value === 'string') out.push({ path: [...path, 'inputs', key], text: value });
  if (body.type === 'for_each') out.push(...bodyTemplates(record(body.body), [...path, 'body']));
  return out;
}

/**
 * A start method's templates that name `{input}`: nothing triggered it, so the run fails there ("{input}
 * has no value"). Reported before any run, on the method, as a problem of the document.
 */
export function startInputProblems(methods: readonly unknown[]): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  methods.forEach((value, i) => {
    const method = record(value);
    if (record(method.trigger).start !== true) return;
    for (const template of bodyTemplates(record(method.body), ['methods', i, 'body'])) {
      const found = INPUT_PLACEHOLDER.exec(template.text);
      if (!found) continue;
      const also = 'listen' in record(method.trigger) ? ' (at the start nothing triggered it yet)' : '';
      problems.push({
        path: template.path,
        message: `${found[0]} has no value in a start method${also}: use {state.<field>} or a flow input, or make the method listen to another one`,
      });
    }
  });
  return problems;
}

/** What a listen condition names: methods by name, routes by label. */
function conditionNames(condition: unknown, out: { methods: string[]; routes: string[] } = { methods: [], routes: [] }) {
  if (typeof condition === 'string') out.methods.push(condition);
  else {
    const c = record(condition);
    if (typeof c.route === 'string') out.routes.push(c.route);
    for (const member of [...items(c.or), ...items(c.and)]) conditionNames(member, out);
  }
  return out;
}

/** Whether a condition can be met once these methods ran and these routes were chosen (`and`: all of it). */
function satisfiable(condition: unknown, ran: ReadonlySet<string>, chosen: ReadonlySet<string>): boolean {
  if (typeof condition === 'string') return ran.has(condition);
  const c = record(condition);
  if (typeof c.route === 'string') return chosen.has(c.route);
  if (Array.isArray(c.or)) return c.or.some((m) => satisfiable(m, ran, chosen));
  if (Array.isArray(c.and)) return c.and.every((m) => satisfiable(m, ran, chosen));
  return false;
}

/**
 * A flow's stubs: imported CrewAI methods that could not be mapped (a script with `stub`), one warning
 * each naming the method, the Python file and line (`crewdeck validate` lists them; a run that reaches
 * one says so in its result).
 */
export function flowStubWarnings(document: unknown): Problem[] {
  const warnings: Problem[] = [];
  list(record(document).methods).forEach((m, i) => {
    const stub = record(record(m.body).stub);
    const file = str(stub.file);
    if (file === undefined || typeof stub.line !== 'number') return;
    const statement = oneLine(stubStatement(str(stub.python) ?? ''), 60);
    warnings.push({
      path: `methods.${i}.body.stub`,
      message: `${str(m.name) ?? str(m.id) ?? `method ${i + 1}`} is a stub for CrewAI Python at ${file}:${stub.line}${statement ? ` (${statement})` : ''}: a run passes its input on unchanged there`,
    });
  });
  return warnings;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * What a flow may do (CrewAI allows it) that is probably not meant, shown on the method before any run
 * and never making the document invalid:
 *   - a method no start method leads to (it never runs);
 *   - a router's route that no method listens to (choosing it ends that branch of the flow);
 *   - a stub for imported CrewAI Python (flowStubWarnings).
 */
export function flowWarnings(document: unknown): Problem[] {
  const methods = list(record(document).methods);
  const warnings: Problem[] = [];
  const ran = new Set<string>();
  const chosen = new Set<string>();
  const reached = new Set<number>();
  // Fixpoint: start methods run; a listener runs once its condition can be met by what ran.
  for (let changed = true; changed; ) {
    changed = false;
    methods.forEach((m, i) => {
      if (reached.has(i)) return;
      const trigger = record(m.trigger);
      if (trigger.start !== true && !('listen' in trigger && satisfiable(trigger.listen, ran, chosen))) return;
      reached.add(i);
      changed = true;
      const name = str(m.name);
      if (name) ran.add(name);
      for (const route of Array.isArray(m.routes) ? m.routes : []) if (typeof route === 'string') chosen.add(route);
    });
  }
  const listened = new Set<string>();
  for (const m of methods) if ('listen' in record(m.trigger)) for (const route of conditionNames(record(m.trigger).listen).routes) listened.add(route);
  const starts = methods.some((m) => record(m.trigger).start === true);
  methods.forEach((m, i) => {
    if (starts && !reached.has(i)) {
      warnings.push({ path: `methods.${i}.trigger`, message: 'never runs: no start method leads to what it listens to' });
    }
    (Array.isArray(m.routes) ? m.routes : []).forEach((route, j) => {
      if (typeof route === 'string' && !listened.has(route)) warnings.push({ path: `methods.${i}.routes.${j}`, message: `route "${route}" has no listener: choosing it ends the flow there` });
    });
  });
  warnings.push(...flowStubWarnings(document));
  return warnings;
}
