import { z } from 'zod';
import { AgentSchema, CrewInputSchema } from './crew';
import { ModelRefSchema } from './modelRef';
import { regexProblem } from './regex';
import { WorkspacePathSchema } from './workspacePath';
import { BudgetSchema } from './budget';
import { startInputProblems } from './flowChecks';

export const FLOW_DOCUMENT_VERSION = 1;

const id = z.string().regex(/^[A-Za-z0-9_-]+$/, 'ids may only contain letters, digits, _ and -');
const label = z.string().regex(/^[A-Za-z0-9_-]+$/, 'route labels may only contain letters, digits, _ and -');

/**
 * When a listener fires: a method's name (it completed), a route label (a router chose it), any of
 * several (`or`) or all of several since the listener last fired (`and`).
 */
export type FlowCondition = string | { route: string } | { or: FlowCondition[] } | { and: FlowCondition[] };
export const FlowConditionSchema: z.ZodType<FlowCondition> = z.lazy(() =>
  z.union([
    z.string().min(1),
    z.strictObject({ route: z.string().min(1) }),
    z.strictObject({ or: z.array(FlowConditionSchema).min(1) }),
    z.strictObject({ and: z.array(FlowConditionSchema).min(1) }),
  ]),
);

export const FlowTriggerSchema = z.union([
  z.strictObject({ start: z.literal(true) }),
  z.strictObject({ listen: FlowConditionSchema }),
  /** A start method that also listens (CrewAI `@start("retry")`): it runs at the start and again when the condition is met. */
  z.strictObject({ start: z.literal(true), listen: FlowConditionSchema }),
]);
export type FlowTrigger = z.infer<typeof FlowTriggerSchema>;

/**
 * A test over the flow's state or the triggering output: `path` is `state.<field>…` or `input` /
 * `input.<field>…` (the input parsed as JSON).
 */
export const FlowPredicateSchema = z.strictObject({
  path: z.string().regex(/^(state\.[^.\s]+(\.[^.\s]+)*|input(\.[^.\s]+)*)$/, 'must be "state.<field>", "input" or "input.<field>"'),
  op: z.enum(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'not_contains', 'matches', 'exists', 'not_exists', 'truthy', 'falsy']),
  value: z.unknown().optional(),
}).superRefine((p, ctx) => {
  if (p.op !== 'matches') return;
  if (typeof p.value !== 'string' && typeof p.value !== 'number') {
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'a "matches" rule needs a regular expression as its value' });
    return;
  }
  const problem = regexProblem(String(p.value));
  if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem.message });
});
export type FlowPredicate = z.infer<typeof FlowPredicateSchema>;

/**
 * Templates use `{state.field}` and `{input}` (the triggering method's output); inside a for_each body
 * also `{item}` / `{item.field}` (the current item) and `{index}` (its 0-based position).
 */
const template = z.string();

const CrewBodySchema = z.strictObject({ type: z.literal('crew'), file: WorkspacePathSchema, inputs: z.record(z.string(), template).optional() });
const AgentBodySchema = z.strictObject({ type: z.literal('agent'), agent: AgentSchema.omit({ id: true }).extend({ id: id.optional() }), prompt: template.min(1) });
const LlmBodySchema = z.strictObject({ type: z.literal('llm'), prompt: template.min(1), llm: ModelRefSchema.optional(), outputSchema: z.record(z.string(), z.unknown()).optional() });

/** What a for_each runs once per item. */
export const ForEachItemBodySchema = z.discriminatedUnion('type', [CrewBodySchema, AgentBodySchema, LlmBodySchema]);

export const FlowBodySchema = z.discriminatedUnion('type', [
  CrewBodySchema,
  AgentBodySchema,
  LlmBodySchema,
  /**
   * Runs `body` once per item of the list `items` names (CrewAI: asyncio.gather over one kickoff per
   * item), at most `concurrency` at a time, and sets `state.<into>` to the results in item order.
   * Each finished item is checkpointed: a resumed run does not run it again.
   */
  z.strictObject({
    type: z.literal('for_each'),
    /** A template naming a list, e.g. `{state.chapters}` (or giving one as JSON). */
    items: template.min(1),
    body: ForEachItemBodySchema,
    concurrency: z.number().int().min(1).max(32).default(4),
    into: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a state field name: letters, digits and _'),
  }),
  z.strictObject({
    type: z.literal('human_feedback'),
    message: template.min(1),
    outcomes: z.array(label).min(1).optional(),
    defaultOutcome: label.optional(),
    /** Distil the feedback into lessons in memory; later reviews recall them to revise the output first. */
    learn: z.boolean().default(false),
    /** Classifies feedback into an outcome (and distils lessons); default: the workspace default model. */
    llm: ModelRefSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('script'),
    code: z.string().min(1),
    timeoutMs: z.number().int().positive().max(60_000).optional(),
    /**
     * An imported CrewAI method that could not be mapped: the script passes its input on unchanged and
     * the run emits `flow.stub.reached` naming the Python it stands for.
     */
    stub: z.strictObject({ python: z.string().min(1), file: z.string().min(1), line: z.number().int().positive() }).optional(),
    /**
     * The CrewAI Python this script was transpiled from (an import), written back by export as it was.
     * Data only: it is never part of the code that runs.
     */
    python: z.string().min(1).optional(),
    /** The crew files the script may kick off with `crew()` / `crews()` (workspace paths). */
    crews: z.array(WorkspacePathSchema).optional(),
  }),
  z.strictObject({ type: z.literal('set_state'), set: z.record(z.string().min(1), template) }),
  z.strictObject({ type: z.literal('rules'), rules: z.array(z.strictObject({ when: FlowPredicateSchema, route: label })), default: label }),
]);
export type FlowBody = z.infer<typeof FlowBodySchema>;
export type FlowBodyKind = FlowBody['type'];
export const FLOW_BODY_KINDS = ['crew', 'agent', 'llm', 'for_each', 'human_feedback', 'script', 'set_state', 'rules'] as const satisfies readonly FlowBodyKind[];

export const FlowMethodSchema = z.strictObject({
  id,
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'method names may only contain letters, digits and _ (not starting with a digit)'),
  description: z.string().optional(),
  trigger: FlowTriggerSchema,
  /** A router: its body yields one of these labels and the listeners of `{ route: label }` fire. */
  routes: z.array(label).min(1).optional(),
  body: FlowBodySchema,
  /** Writes the method's output to this workspace file (as a task's outputFile does); `{state.x}` placeholders allowed. */
  outputFile: WorkspacePathSchema.optional(),
});
export type FlowMethod = z.infer<typeof FlowMethodSchema>;

const FlowObjectSchema = z.strictObject({
  kind: z.literal('flow'),
  version: z.literal(FLOW_DOCUMENT_VERSION),
  id,
  name: z.string().min(1),
  description: z.string().optional(),
  state: z
    .strictObject({ schema: z.record(z.string(), z.unknown()).optional(), initial: z.record(z.string(), z.unknown()).default({}) })
    .default({ initial: {} }),
  /** Save state and completed methods after every method, so a run can be resumed. */
  persist: z.boolean().default(true),
  /** Stops runaway loops through routes. */
  maxMethodCalls: z.number().int().positive().max(100_000).default(100),
  /** Kickoff inputs; they are set on the state (`{state.<name>}`). */
  inputs: z.array(CrewInputSchema).optional(),
  methods: z.array(FlowMethodSchema).min(1, 'a flow needs at least one method'),
  /** Pauses the run before a model call once its tokens or cost reached a cap. */
  budget: BudgetSchema.optional(),
  layout: z.record(z.string(), z.strictObject({ x: z.number(), y: z.number() })).optional(),
});

export const FlowDocumentSchema = FlowObjectSchema.superRefine((doc, ctx) => checkFlowReferences(doc, ctx), { when: () => true });
export type FlowDocument = z.infer<typeof FlowDocumentSchema>;
export type FlowDocumentInput = z.input<typeof FlowDocumentSchema>;

type Loose = Record<string, unknown>;
const list = (v: unknown): Loose[] => (Array.isArray(v) ? v.map((x) => (x !== null && typeof x === 'object' ? (x as Loose) : {})) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Method names and route labels a condition refers to. */
export function conditionRefs(condition: unknown): { methods: string[]; routes: string[] } {
  const out = { methods: [] as string[], routes: [] as string[] };
  const walk = (c: unknown) => {
    if (typeof c === 'string') out.methods.push(c);
    else if (c !== null && typeof c === 'object') {
      const o = c as Loose;
      if (typeof o.route === 'string') out.routes.push(o.route);
      for (const key of ['or', 'and'] as const) if (Array.isArray(o[key])) (o[key] as unknown[]).forEach(walk);
    }
  };
  walk(condition);
  return out;
}

const ROUTING_BODIES = new Set(['rules', 'script', 'human_feedback']);

/** Cross-references: unique ids and names, listeners naming real methods and routes, routers that can route. */
function checkFlowReferences(input: unknown, ctx: z.RefinementCtx): void {
  const flow = (input ?? {}) as Loose;
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const methods = list(flow.methods);
  const ids = new Set<string>();
  const names = new Set<string>();
  const labels = new Set<string>();
  methods.forEach((m, i) => {
    const mid = str(m.id);
    if (mid !== undefined && ids.has(mid)) issue(['methods', i, 'id'], `duplicate method id "${mid}"`);
    if (mid !== undefined) ids.add(mid);
    const name = str(m.name);
    if (name !== undefined && names.has(name)) issue(['methods', i, 'name'], `duplicate method name "${name}" (listeners refer to methods by name)`);
    if (name !== undefined) names.add(name);
    if (Array.isArray(m.routes)) {
      const seen = new Set<string>();
      m.routes.forEach((r, j) => {
        if (typeof r !== 'string') return;
        if (seen.has(r)) issue(['methods', i, 'routes', j], `duplicate route "${r}"`);
        seen.add(r);
        labels.add(r);
      });
    }
  });

  const trigger = (m: Loose) => (m.trigger !== null && typeof m.trigger === 'object' ? (m.trigger as Loose) : {});
  if (methods.length > 0 && !methods.some((m) => trigger(m).start === true)) issue(['methods'], 'a flow needs at least one start method (trigger: { "start": true })');

  methods.forEach((m, i) => {
    const t = trigger(m);
    if ('listen' in t) {
      const refs = conditionRefs(t.listen);
      for (const name of refs.methods) {
        if (!names.has(name)) issue(['methods', i, 'trigger', 'listen'], `no method named "${name}"${names.size ? ` (methods: ${[...names].join(', ')})` : ''}`);
        else if (name === m.name) issue(['methods', i, 'trigger', 'listen'], 'a method cannot listen to itself');
      }
      for (const route of refs.routes) {
        if (!labels.has(route)) issue(['methods', i, 'trigger', 'listen'], `no router has the route "${route}"${labels.size ? ` (routes: ${[...labels].join(', ')})` : ''}`);
      }
    }
    const body = m.body !== null && typeof m.body === 'object' ? (m.body as Loose) : {};
    const type = str(body.type);
    const routes = Array.isArray(m.routes) ? m.routes.filter((r): r is string => typeof r === 'string') : undefined;
    if (routes && type && !ROUTING_BODIES.has(type)) {
      issue(['methods', i, 'routes'], `a ${type} body cannot choose a route; routers use a rules, script or human_feedback body`);
    }
    if (type === 'rules') {
      if (!routes) issue(['methods', i, 'routes'], 'a rules body chooses a route: list the routes it may choose');
      else {
        list(body.rules).forEach((r, j) => {
          if (typeof r.route === 'string' && !routes.includes(r.route)) issue(['methods', i, 'body', 'rules', j, 'route'], `"${r.route}" is not one of this method's routes (${routes.join(', ')})`);
        });
        if (typeof body.default === 'string' && !routes.includes(body.default)) issue(['methods', i, 'body', 'default'], `"${body.default}" is not one of this method's routes (${routes.join(', ')})`);
      }
    }
    if (type === 'human_feedback') {
      const outcomes = Array.isArray(body.outcomes) ? body.outcomes.filter((o): o is string => typeof o === 'string') : undefined;
      if (routes && outcomes && (outcomes.length !== routes.length || outcomes.some((o) => !routes.includes(o)))) {
        issue(['methods', i, 'body', 'outcomes'], `a feedback router's outcomes are its routes (${routes.join(', ')}); leave outcomes out or list the same labels`);
      }
      const choices = outcomes ?? routes;
      const fallback = str(body.defaultOutcome);
      if (fallback !== undefined && !choices) issue(['methods', i, 'body', 'defaultOutcome'], 'a default outcome needs outcomes (or routes)');
      else if (fallback !== undefined && choices && !choices.includes(fallback)) issue(['methods', i, 'body', 'defaultOutcome'], `"${fallback}" is not one of the outcomes (${choices.join(', ')})`);
    }
    if (type === 'crew' && typeof body.file === 'string' && !body.file.endsWith('.crew.json')) {
      issue(['methods', i, 'body', 'file'], `"${body.file}" is not a crew file (*.crew.json)`);
    }
    const inner = type === 'for_each' && body.body !== null && typeof body.body === 'object' ? (body.body as Loose) : undefined;
    if (inner?.type === 'crew' && typeof inner.file === 'string' && !inner.file.endsWith('.crew.json')) {
      issue(['methods', i, 'body', 'body', 'file'], `"${inner.file}" is not a crew file (*.crew.json)`);
    }
  });
  // A start method's {input}: nothing triggered it, so its run would fail there.
  for (const problem of startInputProblems(Array.isArray(flow.methods) ? flow.methods : [])) issue(problem.path, problem.message);
}
