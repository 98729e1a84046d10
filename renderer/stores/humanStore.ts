import { create } from 'zustand';
import type { RuntimeEvent, ToolApprovalDecision } from '../../shared/events';
import { isRunEnd } from '../../shared/events';
import type { PendingHumanRequest } from '../../shared/host-api';
import { host } from '../host/hostContext';

export type HumanAnswer = { feedback: string } | { decision: ToolApprovalDecision };

/**
 * Human requests waiting for an answer, of every run (not only the shown one), oldest first. Seeded
 * from `human.pending`, kept current by `human.requested` / `human.answered` events (runStore routes them).
 */
export interface HumanState {
  pending: PendingHumanRequest[];
  /** The request being answered right now. */
  answering?: string;
  error?: string;
  load(): Promise<void>;
  receive(event: RuntimeEvent): void;
  answer(request: Pick<PendingHumanRequest, 'runId' | 'requestId'>, answer: HumanAnswer): Promise<void>;
}

const byTime = (a: PendingHumanRequest, b: PendingHumanRequest) => a.requestedAt - b.requestedAt;

export const useHumanStore = create<HumanState>()((set, get) => ({
  pending: [],

  async load() {
    const before = new Set(get().pending.map((r) => r.requestId));
    try {
      // Paused flows are answered with runs.resume, from the flow inbox (flowInboxStore), not here.
      const requests = (await host().invoke('human.pending', {})).requests.filter((r) => r.kind !== 'flow_feedback');
      // The host's list wins, except for requests that arrived as events while it was on its way.
      const known = new Set(requests.map((r) => r.requestId));
      const extra = get().pending.filter((r) => !known.has(r.requestId) && !before.has(r.requestId));
      set({ pending: [...requests, ...extra].sort(byTime) });
    } catch (error) {
      set({ error: error instanceof Error ? error.message : String(error) });
    }
  },

  receive(e) {
    if (e.type === 'human.requested') {
      if (e.kind === 'flow_feedback' || get().pending.some((r) => r.requestId === e.requestId)) return;
      const request: PendingHumanRequest = {
        requestId: e.requestId,
        runId: e.runId,
        kind: e.kind,
        taskId: e.taskId,
        agentRole: e.agentRole,
        prompt: e.prompt,
        output: e.output,
        tool: e.tool,
        args: e.args,
        outcomes: e.outcomes,
        defaultOutcome: e.defaultOutcome,
        requestedAt: e.ts,
      };
      set({ pending: [...get().pending, request].sort(byTime) });
    } else if (e.type === 'human.answered') {
      if (get().pending.some((r) => r.requestId === e.requestId)) set({ pending: get().pending.filter((r) => r.requestId !== e.requestId) });
    } else if (isRunEnd(e)) {
      // A run that ends (cancelled, failed) no longer waits for anyone.
      if (get().pending.some((r) => r.runId === e.runId)) set({ pending: get().pending.filter((r) => r.runId !== e.runId) });
    }
  },

  async answer({ runId, requestId }, answer) {
    // One answer per request: a second (a double click, Ctrl+Enter twice) would only meet a conflict.
    if (get().answering === requestId) return;
    set({ answering: requestId, error: undefined });
    try {
      await host().invoke('human.answer', { runId, requestId, ...answer });
      set({ pending: get().pending.filter((r) => r.requestId !== requestId), answering: undefined });
    } catch (error) {
      set({ answering: undefined, error: error instanceof Error ? error.message : String(error) });
      // The request may have been answered elsewhere or its run ended: refresh the list.
      await get().load();
    }
  },
}));
