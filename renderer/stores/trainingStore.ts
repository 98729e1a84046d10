import { create } from 'zustand';
import type { HostPush } from '../../shared/host-api';
import type { SuggestionDiff, SuggestionVersion, TrainingRecord, TrainingSession } from '../../shared/training';
import { host } from '../host/hostContext';

/** Which training session and iteration a run belongs to ("Training iteration 2 of 3"). */
export interface TrainingRunLabel {
  trainingId: string;
  iteration: number;
  iterations: number;
}

export interface TrainingStart {
  path: string;
  iterations: number;
  evalModel?: string;
  inputs: Record<string, string>;
}

/** A version picked in the panel: the role's key and its number. */
export interface VersionKey {
  role: string;
  version: number;
}

/**
 * The training panel's data (SPEC §6): a crew's training sessions and suggestion versions, the
 * version and comparison picked, the feedback records behind it. Also knows, for every run a training
 * started, its iteration — the review dialog names it. Refreshes on `training.changed`.
 */
export interface TrainingState {
  /** The crew whose versions are loaded. */
  crewId?: string;
  sessions: TrainingSession[];
  /** Every role's versions, newest first within a role. */
  versions: SuggestionVersion[];
  selected?: VersionKey;
  /** The version `selected` is compared with. */
  compareWith?: number;
  diff?: SuggestionDiff;
  records: TrainingRecord[];
  recordsFor?: VersionKey;
  loading: boolean;
  error?: string;
  /** The message of the last change the host refused (edit, activate…). */
  actionError?: string;
  /** Training runs by run id. */
  runLabels: Record<string, TrainingRunLabel>;
  dialogOpen: boolean;

  /** Subscribes to the host's pushes once; returns the unsubscribe function. */
  attach(): () => void;
  /** Loads a crew's sessions and versions (and forgets the selection when the crew changes). */
  load(crewId: string): Promise<void>;
  refresh(): Promise<void>;
  setDialogOpen(open: boolean): void;
  start(request: TrainingStart): Promise<{ trainingId: string; runId: string }>;
  cancel(trainingId: string): Promise<void>;
  select(key: VersionKey | undefined): void;
  compare(version: number | undefined): Promise<void>;
  loadRecords(version: SuggestionVersion): Promise<void>;
  setSuggestions(key: VersionKey, suggestions: string[]): Promise<boolean>;
  activate(key: VersionKey): Promise<boolean>;
  disable(key: VersionKey): Promise<boolean>;
  rollback(role: string): Promise<boolean>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

let detach: (() => void) | undefined;
/** Answers to older loads are dropped: the latest crew wins. */
let generation = 0;

/** Run labels from stored sessions: a session's runs are its iterations, in order. */
function labelsOf(sessions: TrainingSession[]): Record<string, TrainingRunLabel> {
  const labels: Record<string, TrainingRunLabel> = {};
  for (const s of sessions) s.runIds.forEach((runId, i) => (labels[runId] = { trainingId: s.id, iteration: i + 1, iterations: s.iterations }));
  return labels;
}

export const useTrainingStore = create<TrainingState>()((set, get) => {
  const onPush = (push: HostPush) => {
    if (push.kind === 'event' && push.event.type === 'run.started' && push.event.purpose?.kind === 'training') {
      const { runId, purpose } = push.event;
      set({ runLabels: { ...get().runLabels, [runId]: { trainingId: purpose.sessionId, iteration: purpose.iteration, iterations: purpose.iterations } } });
    } else if (push.kind === 'event' && push.event.type === 'training.iteration.started') {
      // The session's evaluation run announces each iteration's run: the review dialog names it.
      const { runId, sessionId, iteration, iterations } = push.event;
      set({ runLabels: { ...get().runLabels, [runId]: { trainingId: sessionId, iteration, iterations } } });
      void get().refresh();
    } else if (push.kind === 'event' && (push.event.type.startsWith('training.'))) {
      // A session's progress is its events: reload when one of this crew's sessions moved on.
      const e = push.event;
      const ours = e.type === 'training.started' ? e.crewId === get().crewId : 'sessionId' in e && get().sessions.some((s) => s.id === e.sessionId);
      if (ours) void get().refresh();
    } else if (push.kind === 'training.changed') {
      if (push.crewId === get().crewId) void get().refresh();
    }
  };

  // A change the host refused leaves its message for the panel; the lists are reloaded either way.
  const change = async (apply: () => Promise<unknown>): Promise<boolean> => {
    set({ actionError: undefined });
    try {
      await apply();
      await get().refresh();
      return true;
    } catch (error) {
      set({ actionError: message(error) });
      await get().refresh();
      return false;
    }
  };

  return {
    sessions: [],
    versions: [],
    records: [],
    loading: false,
    runLabels: {},
    dialogOpen: false,

    attach() {
      if (detach) return detach;
      const unsubscribe = host().subscribe(onPush);
      // Runs of sessions started before the app opened (a review still waiting) get their label too.
      void host()
        .invoke('training.sessions', {})
        .then(({ sessions }) => set({ runLabels: { ...labelsOf(sessions), ...get().runLabels } }))
        .catch(() => undefined);
      detach = () => {
        unsubscribe();
        detach = undefined;
      };
      return detach;
    },

    async load(crewId) {
      if (crewId !== get().crewId) set({ crewId, sessions: [], versions: [], selected: undefined, compareWith: undefined, diff: undefined, records: [], recordsFor: undefined, actionError: undefined });
      await get().refresh();
    },

    async refresh() {
      const crewId = get().crewId;
      if (!crewId) return;
      const mine = ++generation;
      set({ loading: true });
      try {
        const [{ sessions }, { versions }] = await Promise.all([host().invoke('training.sessions', { crewId }), host().invoke('training.versions', { crewId })]);
        if (mine !== generation) return;
        set({ sessions, versions, loading: false, error: undefined, runLabels: { ...get().runLabels, ...labelsOf(sessions) } });
        const { selected, compareWith, recordsFor } = get();
        const current = selected && versions.find((v) => v.role === selected.role && v.version === selected.version);
        if (selected && !current) set({ selected: undefined, compareWith: undefined, diff: undefined });
        else if (selected && compareWith !== undefined) await get().compare(compareWith);
        if (current && recordsFor && recordsFor.role === current.role && recordsFor.version === current.version) await get().loadRecords(current);
      } catch (error) {
        if (mine === generation) set({ loading: false, error: message(error) });
      }
    },

    setDialogOpen: (dialogOpen) => set({ dialogOpen }),

    async start({ path, iterations, evalModel, inputs }) {
      const started = await host().invoke('training.start', { path, iterations, inputs, ...(evalModel ? { evalModel } : {}) });
      set({ runLabels: { ...get().runLabels, [started.runId]: { trainingId: started.trainingId, iteration: 1, iterations } } });
      void get().refresh();
      return started;
    },

    async cancel(trainingId) {
      await change(() => host().invoke('training.cancel', { trainingId }));
    },

    select(key) {
      set({ selected: key, compareWith: undefined, diff: undefined, records: [], recordsFor: undefined, actionError: undefined });
    },

    async compare(version) {
      const { crewId, selected } = get();
      if (!crewId || !selected || version === undefined || version === selected.version) {
        set({ compareWith: undefined, diff: undefined });
        return;
      }
      set({ compareWith: version });
      try {
        // Older → newer reads as "what changed since".
        const [from, to] = version < selected.version ? [version, selected.version] : [selected.version, version];
        const { diff } = await host().invoke('training.diff', { crewId, role: selected.role, from, to });
        const now = get();
        if (now.selected === selected && now.compareWith === version) set({ diff });
      } catch (error) {
        set({ diff: undefined, actionError: message(error) });
      }
    },

    async loadRecords(version) {
      const key = { role: version.role, version: version.version };
      set({ recordsFor: key });
      try {
        const { records } = version.recordIds.length
          ? await host().invoke('training.records', { crewId: version.crewId, role: version.role, ids: version.recordIds })
          : { records: [] };
        const now = get().recordsFor;
        if (now?.role === key.role && now.version === key.version) set({ records });
      } catch (error) {
        set({ records: [], actionError: message(error) });
      }
    },

    setSuggestions: ({ role, version }, suggestions) =>
      change(() => host().invoke('training.setSuggestions', { crewId: get().crewId!, role, version, suggestions })),
    activate: ({ role, version }) => change(() => host().invoke('training.activate', { crewId: get().crewId!, role, version })),
    disable: ({ role, version }) => change(() => host().invoke('training.disable', { crewId: get().crewId!, role, version })),
    rollback: (role) => change(() => host().invoke('training.rollback', { crewId: get().crewId!, role })),
  };
});

/** "Training iteration 2 of 3" for a training run, undefined for any other run. */
export function trainingRunText(label: TrainingRunLabel | undefined): string | undefined {
  return label ? `Training iteration ${label.iteration} of ${label.iterations}` : undefined;
}
