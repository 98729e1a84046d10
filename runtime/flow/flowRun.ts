import type { FlowDocument } from '../../shared/model/flow';
import { BudgetNotRaised, mergeBudget, reachedCap } from '../run/budgetGuard';
import { emptyUsage } from '../../shared/usage';
import { cancelStoppedRun, RunLifecycle, type RunLifecycleRequest } from '../run/runLifecycle';
import { closeOpenSpans, openSpans } from '../run/openSpans';
import type { RunStore } from '../store/types';
import { FlowNotResumable } from './flowErrors';
import { loadFlowCheckpoint, progressOf, type FlowCheckpoint } from './flowCheckpoint';
import { FlowRun } from './flowRunner';
import type { FlowRunRequest, FlowRunResult } from './flowRunTypes';

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
