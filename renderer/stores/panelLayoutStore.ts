import { create } from 'zustand';

/** The resizable panels of the app frame. */
export type PanelId = 'sidebar' | 'inspector' | 'runPanel';

export interface PanelLimits {
  min: number;
  max: number;
  initial: number;
}

/** Sizes in CSS pixels: the sidebar and inspector widths, the run panel height. */
export const PANEL_LIMITS: Record<PanelId, PanelLimits> = {
  sidebar: { min: 180, max: 420, initial: 232 },
  inspector: { min: 280, max: 640, initial: 340 },
  runPanel: { min: 140, max: 900, initial: 300 },
};

export type PanelSizes = Record<PanelId, number>;

const DEFAULT_SIZES: PanelSizes = { sidebar: PANEL_LIMITS.sidebar.initial, inspector: PANEL_LIMITS.inspector.initial, runPanel: PANEL_LIMITS.runPanel.initial };

/**
 * Where the selected span's details show: `docked` beside the trace tree in the run panel, `side` in
 * the right-hand column from the toolbar down (in the inspector's place), `maximised` over the whole
 * main area. Remembered in localStorage (`crewdeck.spanDetail`) for every workspace.
 */
export type DetailMode = 'docked' | 'side' | 'maximised';
export const DETAIL_MODE_KEY = 'crewdeck.spanDetail';

/**
 * Panel sizes, remembered per workspace in localStorage (`crewdeck.panels:<workspace path>`), and
 * where the span details show. Not part of any document.
 */
export interface PanelLayoutState {
  workspace?: string;
  sizes: PanelSizes;
  detailMode: DetailMode;
  /** `detailMode === 'maximised'`: the details take the whole run panel, which takes the whole main area. */
  detailMaximised: boolean;
  /** Loads the sizes saved for this workspace (defaults for a workspace never seen). */
  forWorkspace(path: string): void;
  resize(panel: PanelId, size: number): void;
  setDetailMode(mode: DetailMode): void;
  /** Maximises, or (false) brings maximised details back to the run panel; the side panel stays where it is. */
  setDetailMaximised(maximised: boolean): void;
}

export function panelStorageKey(workspace: string): string {
  return `crewdeck.panels:${workspace}`;
}

export function clampPanel(panel: PanelId, size: number): number {
  const { min, max } = PANEL_LIMITS[panel];
  return Math.round(Math.max(min, Math.min(max, size)));
}

function loadSizes(workspace: string): PanelSizes {
  try {
    const raw = localStorage.getItem(panelStorageKey(workspace));
    const saved: unknown = raw ? JSON.parse(raw) : undefined;
    const sizes = { ...DEFAULT_SIZES };
    if (saved && typeof saved === 'object') {
      for (const panel of Object.keys(PANEL_LIMITS) as PanelId[]) {
        const value = (saved as Record<string, unknown>)[panel];
        if (typeof value === 'number' && Number.isFinite(value)) sizes[panel] = clampPanel(panel, value);
      }
    }
    return sizes;
  } catch {
    // Unreadable or unavailable storage: the defaults, and the session still resizes.
    return { ...DEFAULT_SIZES };
  }
}

function loadDetailMode(): DetailMode {
  try {
    const saved = localStorage.getItem(DETAIL_MODE_KEY);
    return saved === 'side' || saved === 'maximised' ? saved : 'docked';
  } catch {
    return 'docked';
  }
}

const initialMode = loadDetailMode();

export const usePanelLayoutStore = create<PanelLayoutState>()((set, get) => ({
  sizes: { ...DEFAULT_SIZES },
  detailMode: initialMode,
  detailMaximised: initialMode === 'maximised',

  forWorkspace(path) {
    if (get().workspace === path) return;
    set({ workspace: path, sizes: loadSizes(path) });
  },
  resize(panel, size) {
    const sizes = { ...get().sizes, [panel]: clampPanel(panel, size) };
    set({ sizes });
    const workspace = get().workspace;
    if (!workspace) return;
    try {
      localStorage.setItem(panelStorageKey(workspace), JSON.stringify(sizes));
    } catch {
      // Storage unavailable: the size holds for this session only.
    }
  },
  setDetailMode(detailMode) {
    set({ detailMode, detailMaximised: detailMode === 'maximised' });
    try {
      localStorage.setItem(DETAIL_MODE_KEY, detailMode);
    } catch {
      // Storage unavailable: the choice holds for this session only.
    }
  },
  setDetailMaximised(maximised) {
    if (maximised) get().setDetailMode('maximised');
    else if (get().detailMode === 'maximised') get().setDetailMode('docked');
  },
}));
