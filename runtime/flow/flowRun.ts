import { withEmbeddingScope } from '../memory/embeddingScope';
import type { FlowDocument, FlowMethod } from '../../shared/model/flow';
import type { StubReached } from '../../shared/events';
import { addStubReached } from '../../shared/stubsReached';
import type { Budget, BudgetPending } from '../../shared/model/budget';
import { BudgetNotRaised, mergeBudget, reachedCap } from '../run/budgetGuard';
import { emptyUsage, type TokenUsage } from '../../shared/usage';
import type { RunContext } from '../agent/runContext';
import { BudgetReached, errorMessage, errorName } from '../errors';
import { RunEventLog, Span, type EventListener } from '../events/span';
import { cancelStoppedRun, RunLifecycle, type RunLifecycleRequest } from '../run/runLifecycle';
import { closeOpenSpans, openSpans } from '../run/openSpans';
import type { RunStore } from '../store/types';
import { compileSchema, describeSchemaErrors } from '../validation/jsonSchema';
import { BODY_RUNNERS } from './bodies';
import { writeOutputFile } from '../crew/taskRunner';
import { renderTemplate } from './template';
import { answerFeedback } from './bodies/humanFeedback';
import type { BodyOutcome, FeedbackAsk, FlowDeps, ItemResult, MethodScope } from './bodies/types';
import { FlowLoopLimit, FlowNotResumable, FlowRouteInvalid, FlowStateInvalid } from './flowErrors';
import { describeTrigger, ListenerBook } from './listeners';
import { callKey, type FlowFork } from './flowFork';
import { loadFlowCheckpoint, progressOf, progressOps, type ActiveCall, type CheckpointOp, type FlowCheckpoint, type FlowCheckpointEntry, type FlowProgress, type ItemsRef, type PendingFeedback } from './flowCheckpoint';
import { applyStateOps, fieldsTouched, jsonEqual, setOps, type StateOp } from './stateOps';

export interface FlowRunResult {
  runId: string;
  status: 'completed' | 'failed' | 'cancelled' | 'paused';
  output: string;
  state: Record<string, unknown>;
  tokenUsage: TokenUsage;
  /** What a paused flow is waiting for: feedback, or (`kind: "budget"`) a higher cap. */
  pending?: { kind?: undefined; requestId: string; methodId: string; methodName: string; message: string; output: string; outcomes?: string[]; defaultOutcome?: string } | BudgetPending;
  error?: { name: string; message: string };
  /** Imported CrewAI stubs the run reached (in any of its sessions), one per method; absent when none. */
  stubsReached?: StubReached[];
}

export interface FlowRunRequest {
  runId: string;
  doc: FlowDocument;
  documentPath?: string;
  deps: FlowDeps;
  store?: RunStore;
  signal?: AbortSignal;
  onEvent?: EventListener;
  now: () => number;
  /** An offline re-run of this recorded run (marked in `run.started`). */
  offlineFrom?: string;
  /** Caps over the document's `budget` (each field replaces the document's; a resume's, the saved ones). */
  budget?: Budget;
  /** A fork of a recorded run from one of its methods (recorded in `run.started.replayOf`). */
  fork?: FlowFork;
}

/**
 * Runs a flow (SPEC §4): start methods at once, listeners as their conditions are met, routers'
 * routes, independent branches concurrently, loops bounded by `maxMethodCalls`. State is checked
 * against its schema after every method. A feedback method pauses the run once nothing else is
 * running; `resumeFlow` continues it, also in another process, without re-running completed methods.
 */
export async function startFlow(req: FlowRunRequest, inputs: Record<string, string>): Promise<FlowRunResult> {
  const state = { ...structuredClone(req.doc.state.initial), ...inputs };
  const budget = mergeBudget(req.doc.budget, req.budget);
  const fork = req.fork;
  const lifecycle = RunLifecycle.open(
    { ...lifecycleRequest(req), budget },
    { kind: 'flow', documentId: req.doc.id, name: req.doc.name, document: req.doc, documentPath: req.documentPath, inputs, ...(fork ? { replayOf: { runId: fork.runId, fromMethodId: fork.fromMethodId } } : {}) },
    {
      documentId: req.doc.id,
      documentName: req.doc.name,
      process: 'flow',
      inputs,
      stepIds: req.doc.methods.map((m) => m.id),
      ...(fork ? { replayOf: { runId: fork.runId, fromMethodId: fork.fromMethodId, ...(fork.edits ? { edits: fork.edits } : {}) } } : {}),
      ...(req.offlineFrom ? { offlineFrom: req.offlineFrom } : {}),
    },
  );
  const checkpoint: FlowCheckpoint = {
    version: 1,
    rootSpanId: lifecycle.root.id,
    sessions: 0,
    state,
    calls: 0,
    callsByMethod: {},
    completed: {},
    listeners: {},
    active: [],
    pending: [],
    startedAt: lifecycle.startedAt,
    ...(budget ? { budget } : {}),
    // Kept in the checkpoint: a fork interrupted (or paused) before its fork method started keeps its edits.
    ...(fork ? { fork: { runId: fork.runId, fromMethodId: fork.fromMethodId, outcomes: fork.outcomes, ...(fork.edits ? { edits: fork.edits } : {}), applied: false } } : {}),
  };
  const run = new FlowRun(req, lifecycle, checkpoint, undefined);
  return run.execute(async () => {
    run.checkState(state, 'the initial state');
    const starts = req.doc.methods.filter((m) => 'start' in m.trigger);
    for (const m of starts) run.trigger(m, undefined, undefined);
    run.save();
    run.launchActive();
  });
}

/** Continues a paused (or interrupted) flow run with the answer to its pending feedback, if it has one. */
export async function resumeFlow(req: Omit<FlowRunRequest, 'doc' | 'runId'> & { runId: string; doc: FlowDocument; store: RunStore }, feedback: string | undefined): Promise<FlowRunResult> {
  const saved = loadFlowCheckpoint(req.store, req.runId);
  if (!saved) throw new FlowNotResumable(`run ${req.runId} has no saved flow state to resume from (was "persist" off and did it never pause?)`);
  const waiting = saved.pending[0];
  const budget = mergeBudget(req.doc.budget, saved.budget, req.budget);
  const atBudget = saved.budgetPending;
  if (atBudget) {
    const still = reachedCap(budget, saved.tokenUsage ?? emptyUsage());
    if (still) throw new BudgetNotRaised(req.runId, still.which, still.spent, still.limit);
  }
  if (waiting && feedback === undefined && !atBudget) {
    const method = req.doc.methods.find((m) => m.id === waiting.methodId);
    throw new FlowNotResumable(`run ${req.runId} is waiting for feedback on "${method?.name ?? waiting.methodId}": ${waiting.ask.message} — answer it with --feedback TEXT`);
  }
  const checkpoint: FlowCheckpoint = { ...saved, sessions: saved.sessions + 1, budget, budgetPending: undefined };
  const lifecycle = RunLifecycle.continue(
    { ...lifecycleRequest(req), store: req.store, budget },
    { rootSpanId: checkpoint.rootSpanId, session: checkpoint.sessions, startedAt: checkpoint.startedAt, earlierUsage: checkpoint.tokenUsage },
  );
  // Stubs reached in the earlier sessions, from the run's stored events.
  const earlierStubs = req.store.getRun(req.runId)?.stubsReached ?? [];
  const run = new FlowRun(req, lifecycle, checkpoint, progressOf(saved), earlierStubs);
  lifecycle.root.emit({ type: 'run.resumed', requestId: atBudget?.requestId ?? waiting?.requestId ?? '', pausedForMs: Math.max(0, req.now() - (saved.pausedAt ?? req.now())), ...(req.offlineFrom ? { offlineFrom: req.offlineFrom } : {}) });
  return run.execute(async () => {
    run.restartInterrupted();
    if (waiting && feedback !== undefined) run.answer(waiting, feedback);
    run.launchActive();
  });
}

function lifecycleRequest(req: Omit<FlowRunRequest, 'doc'>): RunLifecycleRequest {
  const { deps } = req;
  return { runId: req.runId, workspace: deps.workspace, human: deps.human, hooks: deps.hooks, store: req.store, signal: req.signal, onEvent: req.onEvent, now: req.now, toolServices: deps.toolServices };
}

/**
 * Stops a paused (or interrupted) flow for good: its pending feedback is dropped and the run ends
 * `cancelled` under its own root span (cancelStoppedRun). An interrupted flow's methods (and what ran
 * inside them) that its dead process left open are closed as interrupted first (`stoppedAt`: its last event).
 */
export function cancelStoppedFlow(store: RunStore, runId: string, reason: string, now: () => number, interrupted?: { stoppedAt: number }): void {
  const saved = loadFlowCheckpoint(store, runId);
  if (!saved) throw new FlowNotResumable(`run ${runId} has no saved flow state; only paused or interrupted flows can be stopped this way`);
  const open = interrupted ? openSpans(store.events(runId)) : [];
  cancelStoppedRun(store, runId, saved, reason, now, {
    closeOpen: (log) => closeOpenSpans(log, open, interrupted?.stoppedAt ?? now(), 'interrupted: the process running the flow stopped; the run was then cancelled'),
    persist: () => store.saveCheckpoint(runId, { ...saved, sessions: saved.sessions + 1, pending: [], active: [] }),
  });
}

/** The flow-specific part of a run: its methods, listeners, state and checkpoint, inside a RunLifecycle. */
class FlowRun {
  private readonly ctx: RunContext;
  private readonly log: RunEventLog;
  private readonly root: Span;
  private readonly book: ListenerBook;
  private readonly byId: Map<string, FlowMethod>;
  private readonly inflight = new Set<Promise<void>>();
  private readonly running = new Set<string>();
  private readonly validateState?: ReturnType<typeof compileSchema>;
  private failure: unknown;
  /** State operations applied since the checkpoint was last written (only while checkpointing). */
  private unsavedOps: CheckpointOp[] = [];
  /** The last output, when a method completed since the checkpoint was last written (only while checkpointing). */
  private unsavedOutput: string | ItemsRef | undefined;
  /** The stubs the run reached (`flow.stub.reached`, one per method), earlier sessions' first. */
  private stubs: StubReached[];

  /** `written`: the progress as the stored checkpoint holds it (undefined: nothing stored yet, a new run). */
  constructor(
    private readonly req: Omit<FlowRunRequest, 'runId'> & { runId: string },
    private readonly run: RunLifecycle,
    private readonly cp: FlowCheckpoint,
    private written: FlowProgress | undefined,
    earlierStubs: StubReached[] = [],
  ) {
    this.log = run.log;
    this.stubs = earlierStubs;
    this.log.listen((e) => {
      if (e.type === 'flow.stub.reached') this.stubs = addStubReached(this.stubs, e);
    });
    this.root = run.root;
    // The run's one gate: every method's crew or agent uses it, so approvals, limits and cache hold across methods.
    this.ctx = run.context();
    this.byId = new Map(req.doc.methods.map((m) => [m.id, m]));
    this.book = new ListenerBook(req.doc.methods, cp.listeners);
    if (req.doc.state.schema) this.validateState = compileSchema(req.doc.state.schema);
  }

  /** Runs `begin`, waits until nothing runs, then ends the run: completed, paused, failed or cancelled. */
  async execute(begin: () => Promise<void>): Promise<FlowRunResult> {
    try {
      try {
        await begin();
      } catch (error) {
        this.fail(error);
      }
      while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
      return this.finish();
    } finally {
      this.run.close();
    }
  }

  private finish(): FlowRunResult {
    const { cp, run } = this;
    const stubsReached = this.stubs.length > 0 ? this.stubs : undefined;
    const base = () => ({ output: cp.lastOutput ?? '', state: cp.state, ...(stubsReached ? { stubsReached } : {}) });
    const persist = () => this.save(true);
    if (this.failure !== undefined) return { ...base(), ...run.finish({ kind: 'error', error: this.failure }, persist) };
    const atBudget = cp.budgetPending;
    if (atBudget) {
      cp.pausedAt = this.req.now();
      const end = run.finish({ kind: 'paused', requestId: atBudget.requestId, methodId: atBudget.stepId ?? '', budget: atBudget }, persist);
      return { ...base(), ...end, pending: atBudget };
    }
    const waiting = cp.pending[0];
    if (waiting) {
      cp.pausedAt = this.req.now();
      const end = run.finish({ kind: 'paused', requestId: waiting.requestId, methodId: waiting.methodId }, persist);
      const method = this.byId.get(waiting.methodId)!;
      return { ...base(), ...end, pending: { requestId: waiting.requestId, methodId: waiting.methodId, methodName: method.name, ...waiting.ask } };
    }
    return { ...base(), ...run.finish({ kind: 'completed', output: cp.lastOutput ?? '', stubsReached }, persist) };
  }

  private fail(error: unknown): void {
    if (this.failure === undefined) this.failure = error;
    this.run.abort(error);
  }

  /**
   * Saves the checkpoint: after every method with `persist`, and always when the run stops or pauses.
   * A stop, a pause or a new run writes it whole; in between, a method appends what changed (its state
   * operations and the progress that moved), so a run writes in proportion to its changes, not its size.
   */
  save(always = false): void {
    const store = this.req.store;
    if (!store || (!always && !this.req.doc.persist)) return;
    if (always || !this.written) {
      this.cp.listeners = this.book.snapshot();
      this.cp.tokenUsage = this.run.usage();
      store.saveCheckpoint(this.req.runId, this.cp);
      this.written = progressOf(this.cp);
      this.unsavedOps = [];
      this.unsavedOutput = undefined;
      return;
    }
    const output = this.unsavedOutput;
    this.appendEntry({ kind: 'step', ops: this.unsavedOps, ...(output !== undefined ? { output } : {}) });
    this.unsavedOps = [];
    this.unsavedOutput = undefined;
  }

  /** Appends an entry to the stored checkpoint, with the progress that moved since the last one. */
  private appendEntry(entry: Omit<Extract<FlowCheckpointEntry, { kind: 'step' }>, 'progress'> | Omit<Extract<FlowCheckpointEntry, { kind: 'item' }>, 'progress'>): void {
    const { store } = this.req;
    if (!store || !this.written) return;
    this.cp.listeners = this.book.snapshot();
    this.cp.tokenUsage = this.run.usage();
    const now = progressOf(this.cp);
    const progress = progressOps(this.written, now);
    if (entry.kind === 'step' && entry.ops.length === 0 && entry.output === undefined && progress.length === 0) return;
    store.appendCheckpointEntry(this.req.runId, { ...entry, progress } as FlowCheckpointEntry);
    this.written = now;
    // A method's entry is committed at once, with the events before it (durable after every method, as
    // whole checkpoints were); an item's goes in its turn's commit, with the item's events.
    if (entry.kind === 'step') store.commitPending();
  }

  private get checkpointing(): boolean {
    return Boolean(this.req.store && this.req.doc.persist);
  }

  /**
   * Applies state operations to the live state (checked against the schema first); answers the new state.
   * `stored`: the same operations as the checkpoint is to hold them (a for_each's list as its items).
   */
  private applyState(ops: readonly StateOp[], what: string, stored: readonly CheckpointOp[] = ops): Record<string, unknown> {
    const next = applyStateOps(this.cp.state, ops);
    if (ops.length === 0) return next;
    this.checkState(next, what);
    this.cp.state = next;
    if (this.checkpointing) this.unsavedOps.push(...stored);
    return next;
  }

  checkState(state: Record<string, unknown>, what: string): void {
    if (!this.validateState || this.validateState(state)) return;
    throw new FlowStateInvalid(`${what} breaks the state schema: ${describeSchemaErrors(this.validateState.errors)}`);
  }

  /** Queues a call of `method` (bounded by maxMethodCalls). */
  trigger(method: FlowMethod, input: string | undefined, triggeredBy: string | undefined): void {
    const { doc } = this.req;
    if (this.cp.calls >= doc.maxMethodCalls) {
      throw new FlowLoopLimit(
        `the flow made ${this.cp.calls} method calls, its maxMethodCalls; "${method.name}" would be one more` +
          `${triggeredBy ? ` (triggered by "${triggeredBy}")` : ''}. A loop through routes that never ends? Raise maxMethodCalls if the loop is meant to run longer.`,
      );
    }
    this.cp.calls += 1;
    const nth = (this.cp.callsByMethod[method.id] = (this.cp.callsByMethod[method.id] ?? 0) + 1);
    this.cp.active.push({ key: `${method.id}#${this.cp.calls}`, methodId: method.id, call: this.cp.calls, nth, input, triggeredBy });
  }

  /** Starts every queued call that is neither running nor waiting for feedback. */
  launchActive(): void {
    if (this.failure !== undefined || this.cp.budgetPending) return;
    for (const call of this.cp.active) {
      if (this.running.has(call.key) || this.cp.pending.some((p) => p.key === call.key)) continue;
      this.track(call, this.runCall(call));
    }
  }

  /**
   * After a crash: calls that had started are closed as interrupted and run again from the start. What
   * ran inside them when the process died (an item, an agent, a model or tool call) is closed first,
   * innermost first, so the trace is whole before they run again.
   */
  restartInterrupted(): void {
    if (this.req.store) {
      // The calls' own spans are closed below (or wait for their feedback); a paused flow leaves nothing else open.
      const calls = new Set(this.cp.active.map((c) => c.spanId));
      const events = this.req.store.events(this.req.runId);
      const inner = openSpans(events).filter((s) => !calls.has(s.spanId));
      closeOpenSpans(this.log, inner, events.at(-1)?.ts ?? this.req.now(), 'interrupted: the process running the flow stopped');
    }
    for (const call of this.cp.active) {
      if (!call.spanId || this.cp.pending.some((p) => p.key === call.key)) continue;
      const method = this.byId.get(call.methodId)!;
      new Span(this.log, call.spanId, this.root.id).emit({
        type: 'flow.method.failed',
        methodId: method.id,
        methodName: method.name,
        error: 'interrupted: the process running the flow stopped; the method runs again',
        errorName: 'Interrupted',
        durationMs: 0,
      });
      call.spanId = undefined;
    }
  }

  /** Answers a pending feedback request: its method completes with the classified outcome. */
  answer(pending: PendingFeedback, feedback: string): void {
    const call = this.cp.active.find((c) => c.key === pending.key)!;
    this.cp.pending = this.cp.pending.filter((p) => p !== pending);
    const method = this.byId.get(pending.methodId)!;
    const span = new Span(this.log, call.spanId!, this.root.id);
    const started = this.req.now();
    const work = (async () => {
      const scope = this.scope(method, span, call);
      const body = method.body as Extract<FlowMethod['body'], { type: 'human_feedback' }>;
      // Learning from the answer (memory lessons) embeds: metered on the method's span.
      const outcome = await withEmbeddingScope({ span, meter: scope.ctx.meter, budget: scope.ctx.budget, methodId: method.id }, () => answerFeedback(body, scope, feedback, pending.ask.output));
      new Span(this.log, pending.humanSpanId, span.id).emit({
        type: 'human.answered',
        requestId: pending.requestId,
        kind: 'flow_feedback',
        feedback,
        ...(outcome.route ? { outcome: outcome.route } : {}),
      });
      this.complete(method, span, call, outcome, started);
    })();
    this.track(call, work, span, method, started);
  }

  private track(call: ActiveCall, work: Promise<void>, span?: Span, method?: FlowMethod, started?: number): void {
    this.running.add(call.key);
    const done = work
      .catch((error) => {
        const m = method ?? this.byId.get(call.methodId)!;
        const s = span ?? (call.spanId ? new Span(this.log, call.spanId, this.root.id) : undefined);
        if (s) s.emit({ type: 'flow.method.failed', methodId: m.id, methodName: m.name, error: errorMessage(error), errorName: errorName(error), durationMs: Math.round(this.req.now() - (started ?? this.req.now())) });
        this.fail(error);
      })
      .finally(() => {
        this.running.delete(call.key);
        this.inflight.delete(done);
      });
    this.inflight.add(done);
  }

  private scope(method: FlowMethod, span: Span, call: ActiveCall): MethodScope {
    const items = {
      done: call.items ?? {},
      // One entry per finished item (with `persist`): the checkpoint grows by the item, not by the run.
      record: (index: number, result: ItemResult) => {
        (call.items ??= {})[String(index)] = result;
        if (this.checkpointing) this.appendEntry({ kind: 'item', key: call.key, index, result });
      },
    };
    const cp = this.cp;
    return {
      ctx: this.ctx,
      span,
      flow: this.req.doc,
      documentPath: this.req.documentPath,
      method,
      // The live state (never changed in place: stateOps.ts makes a new one for each change).
      get state() {
        return cp.state;
      },
      input: call.input,
      deps: this.req.deps,
      items,
    };
  }

  private async runCall(call: ActiveCall): Promise<void> {
    const method = this.byId.get(call.methodId)!;
    // A fork's recorded outcomes and edits, from the checkpoint: the same in a resumed session.
    const fork = this.cp.fork;
    const recorded = fork?.outcomes[callKey(method.id, call.nth)];
    if (fork && !fork.applied && method.id === fork.fromMethodId) {
      // The edits are applied once, when the fork method first starts (saved with its start).
      fork.applied = true;
      try {
        this.applyState(setOps(fork.edits), `the state edited for the fork at "${method.name}"`);
      } catch (error) {
        return this.fail(error);
      }
    }
    const span = this.root.child();
    call.spanId = span.id;
    const started = this.req.now();
    span.emit({
      type: 'flow.method.started',
      methodId: method.id,
      methodName: method.name,
      bodyType: method.body.type,
      trigger: describeTrigger(method),
      ...(call.triggeredBy ? { triggeredBy: call.triggeredBy } : {}),
      ...(call.input !== undefined ? { input: call.input } : {}),
      call: call.nth,
    });
    this.save();
    if (recorded) {
      // Completed before the fork point in the recorded run: its outcome as recorded, no body run
      // (after a turn, as a body's would be: every call launched with it is tracked first).
      // Its output file is written again (through the same protected-file check), so the files reflect this run.
      await Promise.resolve();
      try {
        await this.writeOutputFile(method, call, recorded.output, setOps(recorded.set));
        return this.complete(method, span, call, { kind: 'done', output: recorded.output, route: recorded.route, routeReason: recorded.routeReason, set: recorded.set }, started, fork!.runId);
      } catch (error) {
        span.emit({ type: 'flow.method.failed', methodId: method.id, methodName: method.name, error: errorMessage(error), errorName: errorName(error), durationMs: 0 });
        return this.fail(error);
      }
    }
    try {
      const runner = BODY_RUNNERS[method.body.type] as (body: FlowMethod['body'], scope: MethodScope) => Promise<BodyOutcome>;
      const scope = this.scope(method, span, call);
      // Embedding requests of the body (memory lessons, a crew's knowledge) are metered on the method's span.
      const outcome = await withEmbeddingScope({ span, meter: scope.ctx.meter, budget: scope.ctx.budget, methodId: method.id }, () => runner(method.body, scope));
      if (outcome.kind === 'pause') return this.pause(method, span, call, outcome.ask);
      await this.writeOutputFile(method, call, outcome.output, outcomeOps(outcome));
      this.complete(method, span, call, outcome, started);
    } catch (error) {
      // Paused only where a store keeps the pause (a run without one could never be resumed: it fails).
      if (error instanceof BudgetReached && this.failure === undefined && this.req.store) return this.pauseAtBudget(method, span, call, error, started);
      span.emit({ type: 'flow.method.failed', methodId: method.id, methodName: method.name, error: errorMessage(error), errorName: errorName(error), durationMs: Math.round(this.req.now() - started) });
      this.fail(error);
    }
  }

  /** Writes the method's `outputFile` (placeholders from the state after it), if it has one; protected files are refused. */
  private async writeOutputFile(method: FlowMethod, call: ActiveCall, output: string, ops: StateOp[]): Promise<void> {
    if (!method.outputFile) return;
    const state = applyStateOps(this.cp.state, ops);
    await writeOutputFile(this.req.deps.workspace, renderTemplate(method.outputFile, { state, input: call.input }, `${method.name}.outputFile`), output);
  }

  /** A model call found the budget reached: the call stops (its span closed) and runs again from its start on resume. */
  private pauseAtBudget(method: FlowMethod, span: Span, call: ActiveCall, reached: BudgetReached, started: number): void {
    span.emit({
      type: 'flow.method.paused',
      methodId: method.id,
      methodName: method.name,
      reason: 'budget',
      message: `${reached.message}; the method runs again when the run is resumed with a higher cap`,
      durationMs: Math.round(this.req.now() - started),
    });
    call.spanId = undefined;
    this.cp.budgetPending ??= { kind: 'budget', which: reached.which, spent: reached.spent, limit: reached.limit, requestId: `${this.req.runId}:budget:${this.cp.sessions}`, stepId: method.id };
    this.save(true);
  }

  private pause(method: FlowMethod, span: Span, call: ActiveCall, ask: FeedbackAsk): void {
    const human = span.child();
    const requestId = `${this.req.runId}:feedback:${method.id}:${call.call}`;
    human.emit({
      type: 'human.requested',
      requestId,
      kind: 'flow_feedback',
      agentRole: method.name,
      prompt: ask.message,
      output: ask.output,
      methodId: method.id,
      ...(ask.outcomes ? { outcomes: ask.outcomes } : {}),
      ...(ask.defaultOutcome ? { defaultOutcome: ask.defaultOutcome } : {}),
    });
    this.cp.pending.push({ key: call.key, requestId, methodId: method.id, humanSpanId: human.id, ask, requestedAt: this.req.now() });
    this.save(true);
  }

  /** A for_each's results as a reference to its item entries, when every item is among them (else undefined: written out). */
  private itemsRef(call: ActiveCall, outcome: Extract<BodyOutcome, { kind: 'done' }>): ItemsRef | undefined {
    if (!this.checkpointing || outcome.itemsInto === undefined) return undefined;
    const list = outcome.set?.[outcome.itemsInto];
    if (!Array.isArray(list) || !call.items) return undefined;
    const done = call.items;
    return list.every((_, i) => Object.hasOwn(done, String(i))) ? { items: call.key, count: list.length } : undefined;
  }

  private complete(method: FlowMethod, span: Span, call: ActiveCall, outcome: Extract<BodyOutcome, { kind: 'done' }>, started: number, restoredFrom?: string): void {
    let route: string | undefined;
    if (method.routes) {
      if (outcome.route === undefined) throw new FlowRouteInvalid(`router "${method.name}" chose no route; it must choose one of: ${method.routes.join(', ')}`);
      if (!method.routes.includes(outcome.route)) throw new FlowRouteInvalid(`router "${method.name}" chose "${outcome.route}", which is not one of its routes (${method.routes.join(', ')})`);
      route = outcome.route;
    }
    const ops = outcomeOps(outcome);
    const before = this.cp.state;
    const items = this.itemsRef(call, outcome);
    const next = this.applyState(ops, `the state after "${method.name}"`, items ? withItemsRef(ops, outcome.itemsInto, items) : ops);
    const changed = fieldsTouched(ops).filter((k) => !jsonEqual(before[k], next[k]));
    if (route !== undefined) {
      span.emit({
        type: 'flow.route',
        methodId: method.id,
        methodName: method.name,
        route,
        reason: outcome.routeReason ?? '',
        ...(outcome.routeReply !== undefined ? { rawReply: outcome.routeReply } : {}),
        ...(outcome.routeReadAs ? { readAs: outcome.routeReadAs } : {}),
      });
    }
    span.emit({
      type: 'flow.method.completed',
      methodId: method.id,
      methodName: method.name,
      output: outcome.output,
      ...(route !== undefined ? { route } : {}),
      state: next,
      changed,
      durationMs: Math.round(this.req.now() - started),
      ...(restoredFrom ? { restoredFrom } : {}),
    });
    this.cp.lastOutput = outcome.output;
    if (this.checkpointing) this.unsavedOutput = items ?? outcome.output;
    this.cp.completed[method.id] = (this.cp.completed[method.id] ?? 0) + 1;
    this.cp.active = this.cp.active.filter((c) => c.key !== call.key);
    try {
      if (this.failure === undefined) {
        const underWay = (name: string) => this.cp.active.some((c) => this.byId.get(c.methodId)!.name === name);
        for (const listener of this.book.completed(method.name, route, underWay)) this.trigger(listener, outcome.output, method.name);
      }
    } catch (error) {
      // The method itself completed; what it would trigger (past maxMethodCalls) fails the run.
      this.fail(error);
    }
    this.save();
    this.launchActive();
  }
}

/** The operations as a checkpoint holds them: the for_each's list (`set` of `into`) as a reference to its items. */
function withItemsRef(ops: StateOp[], into: string | undefined, items: ItemsRef): CheckpointOp[] {
  return ops.map((op) => (op.op === 'set' && op.path.length === 1 && op.path[0] === into ? { op: 'items', path: op.path, ...items } : op));
}

/** A body's changes to the state as operations: its `set` fields, then its finer operations. */
function outcomeOps(outcome: Extract<BodyOutcome, { kind: 'done' }>): StateOp[] {
  return [...setOps(outcome.set), ...(outcome.ops ?? [])];
}
