import { create } from 'zustand';
import type { HostApi, HostBatch, HostPush } from '../../../shared/host-api';
import { host } from '../../host/hostContext';

/**
 * *Run for each row…*: whether its dialog is open, and the last batch started from it. The batch is
 * the host's (`runs.startBatch`); every `batch.changed` push for it fetches it again (`runs.batch`), so
 * the results table shows each row's status and usage as it goes.
 */
export interface BatchRunState {
  open: boolean;
  batch?: HostBatch;
  error?: string;
  setOpen(open: boolean): void;
  /** Starts one run per row; rejects with the host's error (its problems name the bad rows). */
  start(path: string, rows: Record<string, string>[], concurrency: number): Promise<HostBatch>;
  /** Stops the batch: no further row starts; its live runs are cancelled. */
  cancel(): Promise<void>;
  /** Back to the table (the batch's runs go on; they are in the Runs tab). */
  clear(): void;
}

/** The host this store listens to (subscribed on the first batch; again if the host is replaced). */
let subscribed: { host: HostApi; unsubscribe: () => void } | undefined;
let fetching = false;
let again = false;

export const useBatchRunStore = create<BatchRunState>()((set, get) => {
  const refresh = async () => {
    const batchId = get().batch?.batchId;
    if (!batchId) return;
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      const batch = await host().invoke('runs.batch', { batchId });
      if (get().batch?.batchId === batchId) set({ batch, error: undefined });
    } catch (error) {
      if (get().batch?.batchId === batchId) set({ error: error instanceof Error ? error.message : String(error) });
    } finally {
      fetching = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  };
  const onPush = (push: HostPush) => {
    const batchId = get().batch?.batchId;
    if (!batchId) return;
    if ((push.kind === 'batch.changed' && push.batchId === batchId) || push.kind === 'runs.changed') void refresh();
  };

  return {
    open: false,
    setOpen: (open) => set({ open }),
    async start(path, rows, concurrency) {
      if (subscribed?.host !== host()) {
        subscribed?.unsubscribe();
        subscribed = { host: host(), unsubscribe: host().subscribe(onPush) };
      }
      const batch = await host().invoke('runs.startBatch', { path, rows, concurrency });
      set({ batch, error: undefined });
      // A row may have moved before this answer arrived.
      void refresh();
      return batch;
    },
    async cancel() {
      const batchId = get().batch?.batchId;
      if (!batchId) return;
      try {
        await host().invoke('runs.cancelBatch', { batchId });
      } catch (error) {
        set({ error: error instanceof Error ? error.message : String(error) });
      }
      void refresh();
    },
    clear: () => set({ batch: undefined, error: undefined }),
  };
});
