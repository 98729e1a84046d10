import { create } from 'zustand';
import type { DocumentEntry, HostResponse } from '../../shared/host-api';
import { host } from '../host/hostContext';

/** The workspace as the sidebar shows it: its documents, refreshed on host notices. (Runs: runStore.) */
export interface WorkspaceState {
  info?: HostResponse<'workspace.info'>;
  documents: DocumentEntry[];
  error?: string;
  refreshDocuments(): Promise<void>;
  attach(): Promise<void>;
}

export const useWorkspaceStore = create<WorkspaceState>()((set, get) => ({
  documents: [],

  async refreshDocuments() {
    try {
      const { documents } = await host().invoke('documents.list', {});
      set({ documents, error: undefined });
    } catch (error) {
      set({ error: (error as Error).message });
    }
  },

  async attach() {
    host().subscribe((push) => {
      if (push.kind === 'documents.changed') void get().refreshDocuments();
    });
    const info = await host().invoke('workspace.info', {});
    set({ info });
    await get().refreshDocuments();
  },
}));
