import { create } from 'zustand';

export type Theme = 'dark' | 'light';
export type BottomTab = 'trace' | 'output' | 'runs' | 'chat';
/** `training` and `tests`: the open crew's training panel and test panel. */
export type MainView = 'canvas' | 'settings' | 'memory' | 'training' | 'tests';

/**
 * What the person is looking at: view, selection, selected span, panels, theme. Not undoable and
 * never saved into documents. The open document is `documentStore.path` and the shown run is
 * `runStore.runId`: each fact has one owner.
 */
export interface UiState {
  theme: Theme;
  view: MainView;
  /** Canvas node ids (renderer/model/nodeIds.ts) currently selected. */
  selectedNodeIds: string[];
  /** The span selected in the trace panel (of the run `runStore.runId`). */
  spanId?: string;
  bottomTab: BottomTab;
  bottomOpen: boolean;
  runDialogOpen: boolean;
  /** Bumped to ask the canvas to fit its view (menu command). */
  fitViewRequest: number;
  /** The canvas minimap: 'auto' shows it for crews small enough to keep dragging smooth. */
  minimap: 'auto' | 'on' | 'off';

  setTheme(theme: Theme): void;
  setView(view: MainView): void;
  select(nodeIds: string[]): void;
  selectSpan(spanId: string | undefined): void;
  setBottomTab(tab: BottomTab): void;
  toggleBottom(open?: boolean): void;
  setRunDialogOpen(open: boolean): void;
  requestFitView(): void;
  setMinimap(minimap: 'on' | 'off'): void;
}

const THEME_KEY = 'crewdeck.theme';

function initialTheme(): Theme {
  const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(THEME_KEY) : null;
  if (saved === 'dark' || saved === 'light') return saved;
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

export const useUiStore = create<UiState>()((set) => ({
  theme: initialTheme(),
  view: 'canvas',
  selectedNodeIds: [],
  bottomTab: 'trace',
  bottomOpen: true,
  runDialogOpen: false,
  fitViewRequest: 0,
  minimap: 'auto',

  setTheme(theme) {
    try {
      localStorage.setItem(THEME_KEY, theme);
    } catch {
      // Storage can be unavailable (private windows); the theme still applies for this session.
    }
    set({ theme });
  },
  setView: (view) => set({ view }),
  select: (selectedNodeIds) => set({ selectedNodeIds }),
  selectSpan: (spanId) => set({ spanId }),
  setBottomTab: (bottomTab) => set({ bottomTab, bottomOpen: true }),
  toggleBottom: (open) => set((s) => ({ bottomOpen: open ?? !s.bottomOpen })),
  setRunDialogOpen: (runDialogOpen) => set({ runDialogOpen }),
  requestFitView: () => set((s) => ({ fitViewRequest: s.fitViewRequest + 1 })),
  setMinimap: (minimap) => set({ minimap }),
}));
