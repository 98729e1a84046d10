import { create } from 'zustand';
import type { EventOf, RuntimeEvent, ToolApprovalDecision } from '../../shared/events';
import { isRunEnd } from '../../shared/events';
import type { HostRunSummary } from '../../shared/host-api';
import type { Budget } from '../../shared/model/budget';
import { host } from '../host/hostContext';
import { fetchRunEvents } from './fetchRunEvents';
import {
  byRequestTime,
  isPausedRun,
  isRunQuestion,
  pausedRunRequest,
  questionFromEvent,
  requestFromBudget,
  requestFromEvent,
  requestKey,
  sameRequest,
  type HumanRequest,
  type PausedQuestionRequest,
  type PausedRunRequest,
  type RunQuestion,
} from './humanRequests';

/** A live run's question is answered with feedback (task review) or a decision (tool approval). */
export type QuestionAnswer = { feedback: string } | { decision: ToolApprovalDecision };
/** A paused run continues with feedback (a flow's feedback step) or a higher cap (at its budget). */
export type ResumeAnswer = { feedback: string } | { budget: Budget };

type RequestRef = Pick<HumanRequest, 'runId' | 'requestId'>;

/**
 * Everything that waits for the person, of every run (not only the shown one), oldest first: live
 * runs' questions and paused runs (see `HumanRequest`). The one owner of "what is waiting for you":
 * the dialogs, the sidebar inbox, the runs list and the canvas's paused marker read it through the
 * selectors below.
 *
 * Seeded from `human.pending` (live questions) and from `runs.list` plus each paused run's events
 * (paused runs, so they survive a restart); kept current by live events (runStore routes them here).
 */
export interface HumanRequestState {
  requests: HumanRequest[];
  /** The paused run whose dialog was opened from the inbox or the runs list (`requestKey`). */
  opened?: string;
  /** The request being answered right now (`requestKey`). */
  answering?: string;
  /** Requests whose dialog was put off with "Later" (`requestKey`): they wait behind the toolbar's pill. */
  later: ReadonlySet<string>;
  error?: string;
  /** Reads the live questions again (`human.pending`); paused runs are kept. */
  load(): Promise<void>;
  /** Brings the paused runs in line with the run list: fetches the request of each paused run it does not know. */
  sync(runs: readonly HostRunSummary[]): Promise<void>;
  receive(event: RuntimeEvent): void;
  open(request: RequestRef | undefined): void;
  /** "Later": the dialog closes, the request keeps waiting (and the run with it). */
  putOff(key: string): void;
  /** The pill: every put-off request pops up again, oldest first. */
  bringBack(): void;
  /** Answers a request the way its kind needs (`human.answer` or `runs.resume`); resolves true when it was taken. */
  answer(request: RunQuestion, answer: QuestionAnswer): Promise<boolean>;
  answer(request: PausedRunRequest, answer: ResumeAnswer): Promise<boolean>;
  answer(request: RunQuestion | PausedQuestionRequest, answer: QuestionAnswer): Promise<boolean>;
}

export const selectRunQuestions = (s: HumanRequestState): RunQuestion[] => s.requests.filter(isRunQuestion);
/** The inbox: paused runs, oldest first. Use with `useShallow` (a new array each call). */
export const selectPausedRuns = (s: HumanRequestState): PausedRunRequest[] => s.requests.filter(isPausedRun);
export const selectPausedRunOf =
  (runId: string) =>
  (s: HumanRequestState): PausedRunRequest | undefined =>
    s.requests.find((r): r is PausedRunRequest => isPausedRun(r) && r.runId === runId);
export const selectOpened = (s: HumanRequestState): PausedRunRequest | undefined =>
  s.opened === undefined ? undefined : s.requests.find((r): r is PausedRunRequest => isPausedRun(r) && requestKey(r) === s.opened);
/** What pops up by itself: live questions and runs that paused while the app was open. */
export const selectPoppingUp = (s: HumanRequestState): HumanRequest[] => s.requests.filter((r) => isRunQuestion(r) || r.live);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const useHumanRequestStore = create<HumanRequestState>()((set, get) => {
  /** Paused runs whose request is being fetched (one fetch per run at a time). */
  const fetching = new Set<string>();
  /** The last `budget.reached` of each run seen live (the `run.paused` after it makes the request). */
  const lastReached = new Map<string, EventOf<'budget.reached'>>();

  const add = (request: HumanRequest) => {
    if (get().requests.some((r) => sameRequest(r, request))) return;
    set({ requests: [...get().requests, request].sort(byRequestTime) });
  };
  const removeWhere = (gone: (r: HumanRequest) => boolean) => {
    const { requests, opened } = get();
    const left = requests.filter((r) => !gone(r));
    if (left.length === requests.length) return;
    set({ requests: left, opened: left.some((r) => requestKey(r) === opened) ? opened : undefined });
  };

  const answer = async (request: HumanRequest, reply: QuestionAnswer | ResumeAnswer): Promise<boolean> => {
    const key = requestKey(request);
    // One answer per request: a second (a double click, Ctrl+Enter twice) would only meet a conflict.
    if (get().answering === key) return false;
    set({ answering: key, error: undefined });
    try {
      if (isPausedRun(request)) {
        await host().invoke('runs.resume', {
          runId: request.runId,
          ...('feedback' in reply ? { feedback: reply.feedback } : {}),
          ...('decision' in reply ? { decision: reply.decision } : {}),
          ...('budget' in reply ? { budget: reply.budget } : {}),
        });
      } else if ('decision' in reply) {
        await host().invoke('human.answer', { runId: request.runId, requestId: request.requestId, decision: reply.decision });
      } else if ('feedback' in reply) {
        await host().invoke('human.answer', { runId: request.runId, requestId: request.requestId, feedback: reply.feedback });
      } else {
        throw new Error(`request ${request.requestId} is a ${request.kind}: it takes feedback or a decision, not a budget`);
      }
      set({ answering: undefined });
      removeWhere((r) => sameRequest(r, request));
      return true;
    } catch (error) {
      set({ answering: undefined, error: message(error) });
      // A question may have been answered elsewhere or its run ended: refresh the list.
      if (!isPausedRun(request)) await get().load();
      return false;
    }
  };

  return {
    requests: [],
    later: new Set(),

    async load() {
      const before = new Set(get().requests.filter(isRunQuestion).map(requestKey));
      try {
        // Paused flows are answered with runs.resume and come from the run list (sync), not from here.
        const listed = (await host().invoke('human.pending', {})).requests.filter((r): r is RunQuestion => r.kind !== 'flow_feedback');
        // The host's list wins, except for questions that arrived as events while it was on its way.
        const known = new Set(listed.map(requestKey));
        const kept = get().requests.filter((r) => isPausedRun(r) || (!known.has(requestKey(r)) && !before.has(requestKey(r))));
        set({ requests: [...kept, ...listed].sort(byRequestTime) });
      } catch (error) {
        set({ error: message(error) });
      }
    },

    async sync(runs) {
      const listed = new Map(runs.map((r) => [r.id, r]));
      // Ended runs wait for nobody, nor runs resumed elsewhere (a request that just arrived live may
      // still meet a list saying "running": the pause follows the request). A known request takes
      // the run's name and path from the list.
      const waits = (r: PausedRunRequest) => {
        const status = listed.get(r.runId)?.status;
        return status === undefined || status === 'paused' || (status === 'running' && r.live);
      };
      const { requests } = get();
      const kept = requests.flatMap((r): HumanRequest[] => {
        if (!isPausedRun(r)) return [r];
        if (!waits(r)) return [];
        const run = listed.get(r.runId);
        return [run && (r.runName !== run.name || r.documentPath !== run.documentPath) ? { ...r, runName: run.name, documentPath: run.documentPath } : r];
      });
      if (kept.length !== requests.length || kept.some((r, i) => r !== requests[i])) {
        set({ requests: kept, opened: kept.some((r) => requestKey(r) === get().opened) ? get().opened : undefined });
      }
      const known = new Set(kept.filter(isPausedRun).map((r) => r.runId));
      const missing = runs.filter((r) => r.status === 'paused' && !known.has(r.id) && !fetching.has(r.id));
      await Promise.all(
        missing.map(async (run) => {
          fetching.add(run.id);
          try {
            const item = pausedRunRequest(await fetchRunEvents(host(), run.id, 0), run);
            if (item) add(item);
          } catch (error) {
            set({ error: `Could not read paused run ${run.id}: ${message(error)}` });
          } finally {
            fetching.delete(run.id);
          }
        }),
      );
    },

    receive(e) {
      if (e.type === 'budget.reached') lastReached.set(e.runId, e);
      else if (e.type === 'run.paused' && e.reason === 'budget') add(requestFromBudget(e, lastReached.get(e.runId), true));
      else if (e.type === 'run.paused' && e.reason === 'human') {
        // The question asked live turns out to pause the run (a team run): it is answered with runs.resume now.
        const asked = get().requests.find((r): r is RunQuestion => isRunQuestion(r) && sameRequest(r, e));
        if (asked) {
          removeWhere((r) => r === asked);
          add({ ...asked, kind: asked.kind, paused: true, methodId: asked.taskId, methodName: asked.kind === 'tool_approval' ? `${asked.agentRole} · ${asked.tool ?? 'a tool'}` : `${asked.agentRole} · task ${asked.taskId ?? ''}`, live: true });
        }
      }
      else if (e.type === 'human.requested') add(questionFromEvent(e) ?? requestFromEvent(e, true));
      else if (e.type === 'human.answered' || e.type === 'run.resumed') removeWhere((r) => sameRequest(r, e));
      else if (isRunEnd(e)) {
        // A run that ends (cancelled, failed) no longer waits for anyone.
        lastReached.delete(e.runId);
        removeWhere((r) => r.runId === e.runId);
      }
    },

    open(request) {
      set({ opened: request && requestKey(request), error: undefined });
    },

    putOff(key) {
      const { later, opened } = get();
      set({ later: new Set([...later, key]), opened: opened === key ? undefined : opened });
    },

    bringBack() {
      set({ later: new Set() });
    },

    answer,
  };
});
