import { create } from 'zustand';
import type { EventOf, RuntimeEvent } from '../../shared/events';
import { isRunEnd } from '../../shared/events';
import type { HostRunSummary } from '../../shared/host-api';
import type { Budget } from '../../shared/model/budget';
import { host } from '../host/hostContext';
import { fetchRunEvents } from './fetchRunEvents';

/** The feedback a paused flow waits for (from its `human.requested` event of kind `flow_feedback`). */
export interface FlowFeedbackRequest {
  runId: string;
  requestId: string;
  /** The run's (flow's) name, when the run list knows it. */
  runName?: string;
  documentPath?: string;
  methodId?: string;
  /** The feedback method's name. */
  methodName: string;
  prompt: string;
  output?: string;
  outcomes?: string[];
  defaultOutcome?: string;
  requestedAt: number;
  /** Asked while the app was open: pops up like a task review does. */
  live: boolean;
  /** A run (crew or flow) paused at its budget: it waits for a higher cap, not for feedback. */
  budget?: { which: 'maxTokens' | 'maxCostUsd'; spent: number; limit: number };
}

/**
 * The inbox of paused flows ("Waiting for you"). Paused flows are answered with `runs.resume` (the
 * process that asked may be gone), never `human.answer`. Seeded from `runs.list` (status paused) and
 * each paused run's events (its last `human.requested`), so it survives a restart; kept current by
 * live events (runStore routes them here).
 */
export interface FlowInboxState {
  requests: FlowFeedbackRequest[];
  /** The request whose dialog was opened from the inbox or the runs list. */
  openId?: string;
  /** The request being answered right now. */
  answering?: string;
  error?: string;
  /** Brings the inbox in line with the run list: fetches the request of each paused run it does not know. */
  sync(runs: readonly HostRunSummary[]): Promise<void>;
  receive(event: RuntimeEvent): void;
  open(requestId: string | undefined): void;
  /** Answers a request (`runs.resume`: feedback, or a higher cap for a run at its budget); resolves true when the run continued. */
  resume(request: Pick<FlowFeedbackRequest, 'runId' | 'requestId'>, feedback: string | undefined, budget?: Budget): Promise<boolean>;
}

const byTime = (a: FlowFeedbackRequest, b: FlowFeedbackRequest) => a.requestedAt - b.requestedAt;
/** Runs whose request is being fetched (one fetch per run at a time). */
const fetching = new Set<string>();

export function requestFromEvent(e: EventOf<'human.requested'>, live: boolean, run?: HostRunSummary): FlowFeedbackRequest {
  return {
    runId: e.runId,
    requestId: e.requestId,
    runName: run?.name,
    documentPath: run?.documentPath,
    methodId: e.methodId,
    methodName: e.agentRole,
    prompt: e.prompt,
    output: e.output,
    outcomes: e.outcomes,
    defaultOutcome: e.defaultOutcome,
    requestedAt: e.ts,
    live,
  };
}

/** A run paused at its budget, from its `run.paused` (reason budget) and the `budget.reached` before it. */
export function requestFromBudget(paused: EventOf<'run.paused'>, reached: EventOf<'budget.reached'> | undefined, live: boolean, run?: HostRunSummary): FlowFeedbackRequest {
  const which = reached?.which ?? 'maxTokens';
  return {
    runId: paused.runId,
    requestId: paused.requestId,
    runName: run?.name,
    documentPath: run?.documentPath,
    methodId: paused.methodId || undefined,
    methodName: paused.methodId || 'the run',
    prompt: `The run's budget is reached (${which === 'maxTokens' ? `${reached?.spent ?? '?'} tokens of ${reached?.limit ?? '?'}` : `$${reached?.spent.toFixed(4) ?? '?'} of $${reached?.limit ?? '?'}`}).`,
    requestedAt: paused.ts,
    live,
    budget: { which, spent: reached?.spent ?? 0, limit: reached?.limit ?? 0 },
  };
}

/** The budget pause a paused run waits in: its last `run.paused` with reason budget, not resumed since. */
export function pendingBudgetRequest(events: readonly RuntimeEvent[], run?: HostRunSummary): FlowFeedbackRequest | undefined {
  let paused: EventOf<'run.paused'> | undefined;
  let reached: EventOf<'budget.reached'> | undefined;
  for (const e of events) {
    if (e.type === 'run.paused') paused = e;
    else if (e.type === 'run.resumed') paused = undefined;
    else if (e.type === 'budget.reached') reached = e;
  }
  return paused?.reason === 'budget' ? requestFromBudget(paused, reached, false, run) : undefined;
}

/** The last `budget.reached` of each run seen live (the `run.paused` after it makes the inbox item). */
const lastReached = new Map<string, EventOf<'budget.reached'>>();

/** The feedback request a paused run waits for: the one its last `run.paused` names, unanswered. */
export function pendingFlowRequest(events: readonly RuntimeEvent[]): EventOf<'human.requested'> | undefined {
  let paused: EventOf<'run.paused'> | undefined;
  const answered = new Set<string>();
  for (const e of events) {
    if (e.type === 'run.paused') paused = e;
    else if (e.type === 'run.resumed') paused = undefined;
    else if (e.type === 'human.answered') answered.add(e.requestId);
  }
  if (!paused || answered.has(paused.requestId)) return undefined;
  const requestId = paused.requestId;
  return events.find((e): e is EventOf<'human.requested'> => e.type === 'human.requested' && e.kind === 'flow_feedback' && e.requestId === requestId);
}

export const useFlowInboxStore = create<FlowInboxState>()((set, get) => ({
  requests: [],

  async sync(runs) {
    const status = new Map(runs.map((r) => [r.id, r]));
    // Ended runs wait for nobody, nor runs resumed elsewhere (a request that just arrived live may
    // still meet a list saying "running": the pause follows the request). A known request takes
    // the run's name and path from the list.
    const waits = (r: FlowFeedbackRequest) => {
      const listed = status.get(r.runId)?.status;
      return listed === undefined || listed === 'paused' || (listed === 'running' && r.live);
    };
    const kept = get()
      .requests.filter(waits)
      .map((r) => {
        const run = status.get(r.runId);
        return run && (r.runName !== run.name || r.documentPath !== run.documentPath) ? { ...r, runName: run.name, documentPath: run.documentPath } : r;
      });
    if (kept.length !== get().requests.length || kept.some((r, i) => r !== get().requests[i])) set({ requests: kept });
    const known = new Set(kept.map((r) => r.runId));
    const missing = runs.filter((r) => r.status === 'paused' && !known.has(r.id) && !fetching.has(r.id));
    await Promise.all(
      missing.map(async (run) => {
        fetching.add(run.id);
        try {
          const events = await fetchRunEvents(host(), run.id, 0);
          const request = pendingFlowRequest(events);
          const item = request ? requestFromEvent(request, false, run) : pendingBudgetRequest(events, run);
          if (item && !get().requests.some((r) => r.requestId === item.requestId && r.runId === run.id)) {
            set({ requests: [...get().requests, item].sort(byTime) });
          }
        } catch (error) {
          set({ error: `Could not read paused run ${run.id}: ${error instanceof Error ? error.message : String(error)}` });
        } finally {
          fetching.delete(run.id);
        }
      }),
    );
  },

  receive(e) {
    const { requests } = get();
    if (e.type === 'budget.reached') lastReached.set(e.runId, e);
    else if (e.type === 'run.paused' && e.reason === 'budget') {
      if (requests.some((r) => r.runId === e.runId && r.requestId === e.requestId)) return;
      set({ requests: [...requests, requestFromBudget(e, lastReached.get(e.runId), true)].sort(byTime) });
    } else if (e.type === 'human.requested' && e.kind === 'flow_feedback') {
      if (requests.some((r) => r.runId === e.runId && r.requestId === e.requestId)) return;
      set({ requests: [...requests, requestFromEvent(e, true)].sort(byTime) });
    } else if (e.type === 'human.answered' || e.type === 'run.resumed') {
      const left = requests.filter((r) => !(r.runId === e.runId && r.requestId === e.requestId));
      if (left.length !== requests.length) set({ requests: left, openId: left.some((r) => r.requestId === get().openId) ? get().openId : undefined });
    } else if (isRunEnd(e)) {
      const left = requests.filter((r) => r.runId !== e.runId);
      if (left.length !== requests.length) set({ requests: left });
    }
  },

  open(requestId) {
    set({ openId: requestId, error: undefined });
  },

  async resume({ runId, requestId }, feedback, budget) {
    // One answer per request: a second (a double click) would only meet a conflict.
    if (get().answering === requestId) return false;
    set({ answering: requestId, error: undefined });
    try {
      await host().invoke('runs.resume', { runId, ...(feedback !== undefined ? { feedback } : {}), ...(budget ? { budget } : {}) });
      const left = get().requests.filter((r) => !(r.runId === runId && r.requestId === requestId));
      set({ requests: left, answering: undefined, openId: get().openId === requestId ? undefined : get().openId });
      return true;
    } catch (error) {
      set({ answering: undefined, error: error instanceof Error ? error.message : String(error) });
      return false;
    }
  },
}));
