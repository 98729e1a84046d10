import { withEmbeddingScope } from '../memory/embeddingScope';
import type { FlowMethod } from '../../shared/model/flow';
import type { StubReached } from '../../shared/events';
import { addStubReached } from '../../shared/stubsReached';
import type { RunContext } from '../agent/runContext';
import { BudgetReached } from '../errors';
import { RunEventLog, Span } from '../events/span';
import type { RunLifecycle } from '../run/runLifecycle';
import { closeOpenSpans, openSpans } from '../run/openSpans';
import { BODY_RUNNERS } from './bodies';
import { writeOutputFile } from '../crew/taskRunner';
import { renderTemplate } from './template';
import { answerFeedback } from './bodies/humanFeedback';
import type { BodyOutcome, FeedbackAsk, MethodScope } from './bodies/types';
import { FlowLoopLimit } from './flowErrors';
import { CheckedState } from './checkedState';
import { ListenerBook } from './listeners';
import { callKey } from './flowFork';
import type { ActiveCall, FlowCheckpoint, FlowProgress, PendingFeedback } from './flowCheckpoint';
import { FlowCheckpointWriter } from './flowCheckpointWriter';
import type { FlowRunRequest, FlowRunResult } from './flowRunTypes';
import { emitFeedbackAnswered, emitMethodCompleted, emitMethodFailed, emitMethodInterrupted, emitMethodStarted, emitPausedAtBudget, requestFeedback } from './methodEvents';
import { chosenRoute, itemsRef, outcomeOps, withItemsRef } from './methodOutcome';
import { methodScope } from './methodScope';
import { applyStateOps, fieldsTouched, jsonEqual, setOps, type StateOp } from './stateOps';

/** The flow-specific part of a run: its methods, listeners, state and checkpoint, inside a RunLifecycle. */
export class FlowRun {
  private readonly ctx: RunContext;
  private readonly log: RunEventLog;
  private readonly root: Span;
  private readonly book: ListenerBook;
  private readonly byId: Map<string, FlowMethod>;
  private readonly inflight = new Set<Promise<void>>();
  private readonly running = new Set<string>();
  private readonly state: CheckedState;
  private failure: unknown;
  private readonly checkpoint: FlowCheckpointWriter;
  /** The stubs the run reached (`flow.stub.reached`, one per method), earlier sessions' first. */
  private stubs: StubReached[];

  /** `written`: the progress as the stored checkpoint holds it (undefined: nothing stored yet, a new run). */
  constructor(
    private readonly req: Omit<FlowRunRequest, 'runId'> & { runId: string },
    private readonly run: RunLifecycle,
    private readonly cp: FlowCheckpoint,
    written: FlowProgress | undefined,
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
    this.checkpoint = new FlowCheckpointWriter(req, cp, this.book, run, written);
    this.state = new CheckedState(req.doc, cp, this.checkpoint);
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

  /** Saves the checkpoint (see FlowCheckpointWriter.save). */
  save(always = false): void {
    this.checkpoint.save(always);
  }

  checkState(state: Record<string, unknown>, what: string): void {
    this.state.check(state, what);
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
      emitMethodInterrupted(new Span(this.log, call.spanId, this.root.id), method);
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
      emitFeedbackAnswered(new Span(this.log, pending.humanSpanId, span.id), pending.requestId, feedback, outcome.route);
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
        if (s) emitMethodFailed(s, m, error, Math.round(this.req.now() - (started ?? this.req.now())));
        this.fail(error);
      })
      .finally(() => {
        this.running.delete(call.key);
        this.inflight.delete(done);
      });
    this.inflight.add(done);
  }

  private scope(method: FlowMethod, span: Span, call: ActiveCall): MethodScope {
    return methodScope(this.ctx, this.req, this.cp, this.checkpoint, { method, span, call });
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
        this.state.apply(setOps(fork.edits), `the state edited for the fork at "${method.name}"`);
      } catch (error) {
        return this.fail(error);
      }
    }
    const span = this.root.child();
    call.spanId = span.id;
    const started = this.req.now();
    emitMethodStarted(span, method, call);
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
        emitMethodFailed(span, method, error, 0);
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
      emitMethodFailed(span, method, error, Math.round(this.req.now() - started));
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
    emitPausedAtBudget(span, method, reached, Math.round(this.req.now() - started));
    call.spanId = undefined;
    this.cp.budgetPending ??= { kind: 'budget', which: reached.which, spent: reached.spent, limit: reached.limit, requestId: `${this.req.runId}:budget:${this.cp.sessions}`, stepId: method.id };
    this.save(true);
  }

  private pause(method: FlowMethod, span: Span, call: ActiveCall, ask: FeedbackAsk): void {
    const requestId = `${this.req.runId}:feedback:${method.id}:${call.call}`;
    const human = requestFeedback(span, method, requestId, ask);
    this.cp.pending.push({ key: call.key, requestId, methodId: method.id, humanSpanId: human.id, ask, requestedAt: this.req.now() });
    this.save(true);
  }

  private complete(method: FlowMethod, span: Span, call: ActiveCall, outcome: Extract<BodyOutcome, { kind: 'done' }>, started: number, restoredFrom?: string): void {
    const route = chosenRoute(method, outcome);
    const ops = outcomeOps(outcome);
    const before = this.cp.state;
    const items = this.checkpoint.checkpointing ? itemsRef(call, outcome) : undefined;
    const next = this.state.apply(ops, `the state after "${method.name}"`, items ? withItemsRef(ops, outcome.itemsInto, items) : ops);
    const changed = fieldsTouched(ops).filter((k) => !jsonEqual(before[k], next[k]));
    emitMethodCompleted(span, method, { outcome, route, state: next, changed, durationMs: () => Math.round(this.req.now() - started), restoredFrom });
    this.cp.lastOutput = outcome.output;
    this.checkpoint.setOutput(items ?? outcome.output);
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
