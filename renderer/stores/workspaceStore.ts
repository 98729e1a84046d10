import { create } from 'zustand';
import type { DocumentEntry, HostResponse, HostRunSummary } from '../../shared/host-api';
import { host } from '../host/hostContext';

/** The workspace as the sidebar shows it: its documents and recent runs, refreshed on host notices. */
export interface WorkspaceState {
  info?: HostResponse<'workspace.info'>;
  documents: DocumentEntry[];
  recentRuns: HostRunSummary[];
  error?: string;
  refreshDocuments(): Promise<void>;
  refreshRuns(): Promise<void>;
  attach(): Promise<void>;
}

export const useWorkspaceStore = create<WorkspaceState>()((set, get) => ({
  documents: [],
  recentRuns: [],

  async refreshDocuments() {
    try {
      const { documents } = await host().invoke('documents.list', {});
      set({ documents, error: undefined });
    } catch (error) {
      set({ error: (error as Error).message });
    }
  },

  async refreshRuns() {
    try {
      const { runs } = await host().invoke('runs.list', { limit: 30 });
      set({ recentRuns: runs });
    } catch (error) {
      set({ error: (error as Error).message });
    }
  },

  async attach() {
    host().subscribe((push) => {
      if (push.kind === 'documents.changed') void get().refreshDocuments();
      if (push.kind === 'runs.changed') void get().refreshRuns();
    });
    const info = await host().invoke('workspace.info', {});
    set({ info });
    await Promise.all([get().refreshDocuments(), get().refreshRuns()]);
  },
}));
