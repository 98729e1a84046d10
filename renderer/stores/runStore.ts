import { create } from 'zustand';
import { isRunEnd } from '../../shared/events';
import type { HostPush, HostRunSummary } from '../../shared/host-api';
import { host } from '../host/hostContext';
import { useDocumentStore } from './documentStore';
import { useHumanRequestStore } from './humanRequestStore';
import { RunSessions } from './runSessions';
import type { ActiveDelegation, FlowTrigger, MethodResult, NodeCounters, NodeRunStatus, RunView, RunViewStatus } from './runView';
import { useUiStore } from './uiStore';

export type { ActiveDelegation, FlowTrigger, MethodResult, NodeCounters, NodeRunStatus, RunView, RunViewStatus } from './runView';

/**
 * Live state of the run shown in the run panel and overlaid on the canvas, and the run history.
 * `runId` is the one owner of "which run is shown": set it with `show`. What the run did is its
 * `view` only; the canvas overlay is derived from it by selectors (`selectOverlay`, `selectRunStatus`),
 * never copied. Node ids are canvas ids (renderer/model/nodeIds.ts). Components select narrowly:
 * `useRunStore(s => selectOverlay(s).nodeStatus[id])`.
 */
export interface RunState {
  /** The shown run. */
  runId?: string;
  /** The shown run, folded from its events (stores/reduceRunEvent.ts). */
  view?: RunView;
  loading: boolean;
  error?: string;

  /** Run history, newest first (`runs.list`). */
  runs: HostRunSummary[];
  runsLoaded: boolean;
  /** What went wrong last in the Runs list: listing, or an action on one of its rows (said in full). */
  runsError?: string;

  /** Subscribes to the host's pushes once; returns the unsubscribe function. */
  attach(): () => void;
  /** Shows a run: stored events first, then live ones. `undefined` clears the run panel. */
  show(runId: string | undefined): Promise<void>;
  /**
   * Shows a past run, then opens its crew on the canvas — in that order, so laying out a large crew
   * does not hold the run's events up.
   */
  openRun(runId: string, documentPath?: string): Promise<void>;
  /** Runs the document on the workspace's team server and shows it (its events stream in like a local run's). */
  startTeam(path: string, inputs: Record<string, string>): Promise<string>;
  /** Uploads a local run to the team server (*Share run*). */
  share(runId: string): Promise<void>;
  /** Starts a run of a workspace document and shows it. Rejects with the host's error (problems included). */
  start(path: string, inputs: Record<string, string>, model?: string): Promise<string>;
  cancel(runId?: string): Promise<void>;
  /**
   * Continues a run whose process died (`runs.resume`): the task or method it died in is closed as
   * Interrupted and the run goes on from there, under the same id; shows it.
   */
  resumeInterrupted(runId: string): Promise<void>;
  /** Replays the shown (or given) run from a task and shows the new run. */
  replay(fromTaskId: string, runId?: string, edits?: Record<string, string>): Promise<string>;
  /** Runs the run's document as it is now on that run's recorded model replies (no model is called); shows the new run. */
  rerunOffline(runId: string): Promise<string>;
  refreshRuns(): Promise<void>;
}

/**
 * What the canvas overlays of the shown run: node statuses and counters, live delegations, and for
 * flows the calls per method (selectors in renderer/canvas/nodes/useMethodRun.ts), the route each
 * router chose last and the condition that started each listener's latest call.
 */
export type RunOverlay = Pick<RunView, 'nodeStatus' | 'nodeCounters' | 'activeDelegations' | 'methods' | 'routes' | 'triggers'>;

const NO_OVERLAY: RunOverlay = {
  nodeStatus: {} as Record<string, NodeRunStatus>,
  nodeCounters: {} as Record<string, NodeCounters>,
  activeDelegations: [] as ActiveDelegation[],
  methods: {} as Record<string, MethodResult>,
  routes: {},
  triggers: {} as Record<string, FlowTrigger>,
};

/** The shown run's overlay: its view's own maps (stable while the view is), or empty ones without a run. */
export const selectOverlay = (s: Pick<RunState, 'view'>): RunOverlay => s.view ?? NO_OVERLAY;
/** Status of the shown run. */
export const selectRunStatus = (s: Pick<RunState, 'view'>): RunViewStatus | undefined => s.view?.status;
/** The shown run's listed summary (status, error as stored), once the list has it. */
export const selectShownSummary = (s: Pick<RunState, 'view' | 'runs'>): HostRunSummary | undefined => (s.view ? s.runs.find((r) => r.id === s.view!.runId) : undefined);
/**
 * The shown run's status as a person should read it: a run whose process died is `interrupted` (its
 * events just stop, so its view alone still reads running).
 */
export const selectShownStatus = (s: Pick<RunState, 'view' | 'runs'>): RunViewStatus | 'interrupted' | undefined =>
  s.view?.status === 'running' && selectShownSummary(s)?.status === 'interrupted' ? 'interrupted' : s.view?.status;

let detach: (() => void) | undefined;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

export const useRunStore = create<RunState>()((set, get) => {
  const sessions = new RunSessions(
    () => host(),
    (runId, view, error, partial) => {
      if (get().runId !== runId) return;
      set({ view, loading: partial === true, error });
    },
    () => get().runId,
  );

  const refreshSoon = () => {
    if (refreshTimer !== undefined) return;
    refreshTimer = setTimeout(() => {
      refreshTimer = undefined;
      void get().refreshRuns();
    }, 150);
  };

  const onPush = (push: HostPush) => {
    if (push.kind === 'event') {
      const e = push.event;
      sessions.receive(e);
      useHumanRequestStore.getState().receive(e);
      if (e.type === 'run.started' || e.type === 'run.paused' || e.type === 'run.resumed' || isRunEnd(e)) refreshSoon();
    } else if (push.kind === 'runs.changed') {
      refreshSoon();
      // Also sent after a reconnect: fetch what was missed.
      sessions.catchUp();
      void useHumanRequestStore.getState().load();
    }
  };

  return {
    loading: false,
    runs: [],
    runsLoaded: false,

    attach() {
      if (detach) return detach;
      const unsubscribeHost = host().subscribe(onPush);
      void get().refreshRuns();
      void useHumanRequestStore.getState().load();
      detach = () => {
        unsubscribeHost();
        detach = undefined;
      };
      return detach;
    },

    async show(runId) {
      // A span belongs to the run it was selected in.
      if (get().runId !== runId && useUiStore.getState().spanId !== undefined) useUiStore.getState().selectSpan(undefined);
      if (!runId) {
        set({ runId: undefined, view: undefined, loading: false, error: undefined });
        return;
      }
      const cached = sessions.view(runId);
      set({ runId, view: cached, loading: !cached || sessions.isLoading(runId), error: undefined });
      await sessions.open(runId);
      if (get().runId !== runId) return;
      const view = sessions.view(runId);
      if (view) set({ view, loading: false });
    },

    async openRun(runId, documentPath) {
      await get().show(runId);
      const documents = useDocumentStore.getState();
      if (documentPath && get().runId === runId && documents.path !== documentPath) await documents.open(documentPath);
    },

    async start(path, inputs, model) {
      const { runId } = await host().invoke('runs.start', { path, inputs, ...(model ? { model } : {}) });
      refreshSoon();
      await get().show(runId);
      return runId;
    },

    async startTeam(path, inputs) {
      const { runId } = await host().invoke('runs.startTeam', { path, inputs });
      refreshSoon();
      await get().show(runId);
      return runId;
    },

    async share(runId) {
      await host().invoke('runs.share', { runId });
      refreshSoon();
    },

    async cancel(runId) {
      const id = runId ?? get().runId;
      if (!id) return;
      await host().invoke('runs.cancel', { runId: id });
    },

    async resumeInterrupted(runId) {
      await host().invoke('runs.resume', { runId });
      refreshSoon();
      await get().show(runId);
    },

    async replay(fromTaskId, runId, edits) {
      const id = runId ?? get().runId;
      if (!id) throw new Error('no run to replay');
      const { runId: newRunId } = await host().invoke('runs.replay', { runId: id, fromTaskId, ...(edits && Object.keys(edits).length > 0 ? { edits } : {}) });
      refreshSoon();
      await get().show(newRunId);
      return newRunId;
    },

    async rerunOffline(runId) {
      const { runId: newRunId } = await host().invoke('runs.rerunOffline', { runId });
      refreshSoon();
      await get().show(newRunId);
      return newRunId;
    },

    async refreshRuns() {
      try {
        const { runs } = await host().invoke('runs.list', {});
        set({ runs, runsLoaded: true, runsError: undefined });
        // Paused flows wait in the inbox; after a restart this is where they come back from.
        void useHumanRequestStore.getState().sync(runs);
      } catch (error) {
        set({ runsLoaded: true, runsError: `Could not list runs: ${error instanceof Error ? error.message : String(error)}` });
      }
    },
  };
});
