import { create } from 'zustand';
import type { HostPush } from '../../shared/host-api';
import type { TestReport, TestSession } from '../../shared/training';
import { host } from '../host/hostContext';

export interface TestStart {
  path: string;
  iterations: number;
  evalModel?: string;
  inputs: Record<string, string>;
}

/**
 * The test panel's data (SPEC §6): a crew's tests, newest first, and the report of the one picked
 * (the newest unless the person picks another). Refreshes on `tests.changed`.
 */
export interface TestState {
  crewId?: string;
  tests: TestSession[];
  selectedId?: string;
  report?: TestReport;
  loading: boolean;
  error?: string;
  dialogOpen: boolean;

  attach(): () => void;
  load(crewId: string): Promise<void>;
  refresh(): Promise<void>;
  select(testId: string): Promise<void>;
  setDialogOpen(open: boolean): void;
  start(request: TestStart): Promise<{ testId: string; runId: string }>;
  cancel(testId: string): Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

let detach: (() => void) | undefined;
let generation = 0;

export const useTestStore = create<TestState>()((set, get) => {
  const onPush = (push: HostPush) => {
    // A test's progress is its events (`test.*`): reload when one of this crew's tests moved on.
    if (push.kind !== 'event' || !push.event.type.startsWith('test.')) return;
    const e = push.event;
    const ours = e.type === 'test.started' ? e.crewId === get().crewId : 'sessionId' in e && get().tests.some((t) => t.id === e.sessionId);
    if (ours) void get().refresh();
  };

  return {
    tests: [],
    loading: false,
    dialogOpen: false,

    attach() {
      if (detach) return detach;
      const unsubscribe = host().subscribe(onPush);
      detach = () => {
        unsubscribe();
        detach = undefined;
      };
      return detach;
    },

    async load(crewId) {
      if (crewId !== get().crewId) set({ crewId, tests: [], selectedId: undefined, report: undefined, error: undefined });
      await get().refresh();
    },

    async refresh() {
      const crewId = get().crewId;
      if (!crewId) return;
      const mine = ++generation;
      set({ loading: true });
      try {
        const { tests } = await host().invoke('tests.list', { crewId, limit: 100 });
        if (mine !== generation) return;
        const selectedId = tests.some((t) => t.id === get().selectedId) ? get().selectedId : tests[0]?.id;
        const report = selectedId ? await host().invoke('tests.get', { testId: selectedId }) : undefined;
        if (mine !== generation) return;
        set({ tests, selectedId, report, loading: false, error: undefined });
      } catch (error) {
        if (mine === generation) set({ loading: false, error: message(error) });
      }
    },

    async select(testId) {
      set({ selectedId: testId });
      await get().refresh();
    },

    setDialogOpen: (dialogOpen) => set({ dialogOpen }),

    async start({ path, iterations, evalModel, inputs }) {
      const started = await host().invoke('tests.start', { path, iterations, inputs, ...(evalModel ? { evalModel } : {}) });
      set({ selectedId: started.testId });
      await get().refresh();
      return started;
    },

    async cancel(testId) {
      try {
        await host().invoke('tests.cancel', { testId });
      } catch (error) {
        set({ error: message(error) });
      }
      await get().refresh();
    },
  };
});
