import { create } from 'zustand';

/** Which engine the crew canvas's Auto-layout uses (docs/LAYOUT.md compares them). */
export type LayoutEngine = 'dagre' | 'elk';
/** Which edges a large crew draws: only the selected nodes' (default), or all of them. */
export type LargeCrewEdges = 'selection' | 'all';

/**
 * How the crew canvas shows a document, not what it contains: agents folded over their tasks (per
 * document path), which edges a large crew draws, the Auto-layout engine. Not undoable, never saved
 * into documents.
 */
export interface CrewViewState {
  /** Document path → agent node ids whose tasks are folded into them. */
  collapsed: Record<string, string[]>;
  largeCrewEdges: LargeCrewEdges;
  engine: LayoutEngine;
  toggleCollapsed(path: string, agentNodeId: string): void;
  setCollapsed(path: string, agentNodeIds: string[]): void;
  setLargeCrewEdges(edges: LargeCrewEdges): void;
  setEngine(engine: LayoutEngine): void;
}

const NONE: string[] = [];

export const useCrewViewStore = create<CrewViewState>()((set) => ({
  collapsed: {},
  largeCrewEdges: 'selection',
  engine: 'dagre',
  toggleCollapsed: (path, id) =>
    set((s) => {
      const current = s.collapsed[path] ?? NONE;
      const next = current.includes(id) ? current.filter((x) => x !== id) : [...current, id];
      return { collapsed: { ...s.collapsed, [path]: next } };
    }),
  setCollapsed: (path, ids) => set((s) => ({ collapsed: { ...s.collapsed, [path]: ids } })),
  setLargeCrewEdges: (largeCrewEdges) => set({ largeCrewEdges }),
  setEngine: (engine) => set({ engine }),
}));

/** The collapsed agents of the document at `path` (a stable empty list when none). */
export const selectCollapsed = (path: string | undefined) => (s: CrewViewState) => (path ? (s.collapsed[path] ?? NONE) : NONE);
