import { create } from 'zustand';

/** Whether File → Import CrewAI Project… has the import dialog open. */
export const useImportCrewAiStore = create<{ open: boolean; setOpen(open: boolean): void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));
