import type { EventPayloads, StubReached } from '../../shared/events';
import type { Budget, BudgetPending } from '../../shared/model/budget';
import { addUsage, emptyUsage, type TokenUsage } from '../../shared/usage';
import type { RunContext } from '../agent/runContext';
import { UsageMeter } from '../agent/usageMeter';
import { errorMessage, errorName, RunCancelled } from '../errors';
import { RunEventLog, Span, type EventListener } from '../events/span';
import type { HumanChannel } from '../human/humanChannel';
import { ModelCallAborted } from '../llm/errors';
import type { NewRun, RunStore } from '../store/types';
import { PolicyGate, type AfterToolHook, type BeforeToolHook } from '../tools/policyGate';
import type { ToolServices } from '../tools/tool';
import { BudgetGuard } from './budgetGuard';

/** What opening (or continuing) any run needs: crews, flows, evaluation runs alike. */
export interface RunLifecycleRequest {
  runId: string;
  workspace: string;
  human: HumanChannel;
  hooks?: { before?: BeforeToolHook[]; after?: AfterToolHook[] };
  store?: RunStore;
  /** The caller's stop: aborting it cancels the run. */
  signal?: AbortSignal;
  onEvent?: EventListener;
  now: () => number;
  /** The run's caps: a model call the budget has no room for pauses the run instead. */
  budget?: Budget;
  /** Keys and the embedder lent to the run's tools (web search, file search). */
  toolServices?: ToolServices;
}

/** A run that goes on where an earlier session of it stopped (a resumed flow). */
export interface RunContinuation {
  /** Its root span, kept from the first session. */
  rootSpanId: string;
  /** 1-based number of this session; new span ids and request ids get a prefix per session. */
  session: number;
  startedAt: number;
  /** Tokens of the earlier sessions (a resumed run reports the whole run's usage). */
  earlierUsage?: TokenUsage;
}

/** How the process-specific part says its run ended. */
export type RunEnding =
  /** `stubsReached`: a flow's imported CrewAI stubs that ran (carried by `run.completed`). */
  | { kind: 'completed'; output: string; stubsReached?: StubReached[] }
  /** `budget`: paused at its budget cap (methodId: the task or method it stopped in); `human`: for a person's answer (humanPause.ts). */
  | { kind: 'paused'; requestId: string; methodId: string; budget?: BudgetPending; human?: true }
  /** Anything thrown: a cancellation when the run was stopped, a failure otherwise. */
  | { kind: 'error'; error: unknown };

/** What every run's result has, whatever its process. */
export interface RunEndResult {
  runId: string;
  status: 'completed' | 'failed' | 'cancelled' | 'paused';
  tokenUsage: TokenUsage;
  error?: { name: string; message: string };
}

/**
 * One run's life, the same for crews, flows and evaluation runs: the event log (to the store, whose
 * appends are group-committed, and to the caller), the abort chain from the caller's signal, the run's
 * one policy gate, its usage meter and ids, the end event and a guarded final store write. The crew
 * kickoff and the flow engine are the process-specific parts around it.
 */
export class RunLifecycle {
  readonly log: RunEventLog;
  readonly root: Span;
  readonly meter = new UsageMeter();
  readonly gate: PolicyGate;
  readonly budget: BudgetGuard;
  readonly startedAt: number;
  private readonly controller = new AbortController();
  private readonly earlierUsage: TokenUsage;
  private readonly onOuterAbort: () => void;
  private requestCounter = 0;

  private constructor(
    private readonly req: RunLifecycleRequest,
    private readonly continuation: RunContinuation | undefined,
  ) {
    const session = continuation?.session ?? 0;
    this.log = new RunEventLog(req.runId, req.now, continuation && req.store ? { seq: req.store.lastSeq(req.runId), spanPrefix: `r${session}s` } : undefined);
    if (req.store) {
      const store = req.store;
      this.log.listen(
        (e) => store.appendEvent(e),
        () => store.commitPending(),
      );
    }
    if (req.onEvent) this.log.listen(req.onEvent);
    this.root = continuation ? new Span(this.log, continuation.rootSpanId, undefined) : this.log.root();
    this.startedAt = continuation?.startedAt ?? req.now();
    this.earlierUsage = continuation?.earlierUsage ?? emptyUsage();
    this.onOuterAbort = () => this.controller.abort(req.signal?.reason ?? new RunCancelled());
    req.signal?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.budget = new BudgetGuard(req.budget, () => this.usage());
    this.gate = new PolicyGate({ workspace: req.workspace, human: req.human, before: req.hooks?.before, after: req.hooks?.after, newRequestId: () => this.newId('h'), services: req.toolServices });
  }

  /** Opens a new run: records it in the store and emits `run.started`. */
  static open(req: RunLifecycleRequest, record: Omit<NewRun, 'id' | 'startedAt'>, started: EventPayloads['run.started']): RunLifecycle {
    const run = new RunLifecycle(req, undefined);
    req.store?.createRun({ ...record, id: req.runId, startedAt: run.startedAt });
    run.root.emit({ type: 'run.started', ...started });
    return run;
  }

  /** Continues a run an earlier session left (the caller emits what continues it, e.g. `run.resumed`). */
  static continue(req: RunLifecycleRequest & { store: RunStore }, continuation: RunContinuation): RunLifecycle {
    req.store.reopenRun(req.runId);
    return new RunLifecycle(req, continuation);
  }

  get runId(): string {
    return this.req.runId;
  }

  /** Aborted when the caller stops the run, when `abort` is called, and when the run ends. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    this.controller.abort(reason);
  }

  /** Ids unique in the run (request and call ids), kept apart per session. */
  newId(prefix: string): string {
    const session = this.continuation?.session;
    return `${this.req.runId}:${session ? `r${session}` : ''}${prefix}${++this.requestCounter}`;
  }

  /** The whole run's usage: earlier sessions' and this one's. */
  usage(): TokenUsage {
    return addUsage(this.earlierUsage, this.meter.total);
  }

  /** What every part of the run shares (a crew adds its memory, knowledge and suggestions). */
  context(): RunContext {
    return { runId: this.req.runId, workspace: this.req.workspace, signal: this.signal, gate: this.gate, human: this.req.human, meter: this.meter, newId: (p) => this.newId(p), root: this.root, budget: this.budget };
  }

  /**
   * Ends the run: the end event on the root span, then `persist` (the process's own last writes, such
   * as a flow's checkpoint) and the store's record of the end. A store that fails here (disk full,
   * database locked for good) does not turn a finished run into an exception: the result says why it
   * was not recorded. Stops whatever still listens to the run's signal.
   */
  finish(ending: RunEnding, persist?: () => void): RunEndResult {
    const { req } = this;
    const durationMs = req.now() - this.startedAt;
    const tokenUsage = this.usage();
    let result: RunEndResult;
    let end: Parameters<RunStore['finishRun']>[1];
    if (ending.kind === 'completed') {
      const stubs = ending.stubsReached?.length ? { stubsReached: ending.stubsReached } : {};
      this.root.emit({ type: 'run.completed', output: ending.output, tokenUsage, durationMs, ...stubs });
      result = { runId: req.runId, status: 'completed', tokenUsage };
      end = { status: 'completed', output: ending.output, tokenUsage, endedAt: req.now() };
    } else if (ending.kind === 'paused') {
      const reason = ending.budget ? ('budget' as const) : ending.human ? ('human' as const) : undefined;
      this.root.emit({ type: 'run.paused', requestId: ending.requestId, methodId: ending.methodId, durationMs, ...(reason ? { reason } : {}) });
      result = { runId: req.runId, status: 'paused', tokenUsage };
      end = { status: 'paused', tokenUsage, endedAt: req.now() };
    } else {
      const caught = ending.error;
      const cancelled = this.signal.aborted && (caught instanceof RunCancelled || caught instanceof ModelCallAborted || req.signal?.aborted === true);
      const error = cancelled ? new RunCancelled(errorMessage(this.signal.reason ?? caught)) : caught;
      const message = errorMessage(error);
      if (cancelled) this.root.emit({ type: 'run.cancelled', reason: message, durationMs });
      else this.root.emit({ type: 'run.failed', error: message, errorName: errorName(error), tokenUsage, durationMs });
      result = { runId: req.runId, status: cancelled ? 'cancelled' : 'failed', tokenUsage, error: { name: errorName(error), message } };
      end = { status: cancelled ? 'cancelled' : 'failed', error: message, tokenUsage, endedAt: req.now() };
    }
    try {
      persist?.();
      req.store?.finishRun(req.runId, end);
    } catch (error) {
      const note = ` (but could not be recorded: ${errorMessage(error)})`;
      result.error = result.error
        ? { ...result.error, message: `${result.error.message}${note}` }
        : { name: 'RunNotRecorded', message: `the run ${result.status}${note}` };
    }
    return result;
  }

  /** After the end: stops what still runs on the run's signal and lets go of the caller's. */
  close(): void {
    this.controller.abort(new RunCancelled('run ended'));
    this.req.signal?.removeEventListener('abort', this.onOuterAbort);
  }
}

/** Where a stopped run (paused, or left by a dead process) is: enough to end it in another process. */
export interface StoppedRun {
  rootSpanId: string;
  sessions: number;
  startedAt: number;
  tokenUsage?: TokenUsage;
}

/**
 * Ends a stopped run for good, from any process: claims it first (so it cannot race a resume), then
 * `closeOpen` (what a dead process left open is ended on the run's log), `run.cancelled` under its own
 * root span, `persist` (the process's own last write), and the store's end.
 */
export function cancelStoppedRun(
  store: RunStore,
  runId: string,
  at: StoppedRun,
  reason: string,
  now: () => number,
  options: { persist?: () => void; closeOpen?: (log: RunEventLog) => void } = {},
): void {
  store.reopenRun(runId);
  const log = new RunEventLog(runId, now, { seq: store.lastSeq(runId), spanPrefix: `r${at.sessions + 1}s` });
  log.listen((e) => store.appendEvent(e));
  options.closeOpen?.(log);
  new Span(log, at.rootSpanId, undefined).emit({ type: 'run.cancelled', reason, durationMs: now() - at.startedAt });
  options.persist?.();
  store.finishRun(runId, { status: 'cancelled', error: reason, tokenUsage: at.tokenUsage ?? emptyUsage(), endedAt: now() });
}
