import { readJsonFile, writeJsonFileAtomic } from './jsonFile';

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** Absent when the saved position was on no display: the window is centred. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1440, height: 900, maximized: false };
export const MIN_WINDOW_SIZE = { width: 900, height: 600 };

/** How much of the title bar must be on a display for a saved position to be used. */
const VISIBLE_WIDTH = 120;
const VISIBLE_HEIGHT = 40;

/**
 * The window's saved bounds, fitted to today's displays (`workAreas`, from `screen.getAllDisplays()`):
 * a position that is off every display (a monitor was unplugged) is dropped so the window is centred,
 * and a size larger than the biggest display is shrunk to it. Missing or corrupt files give the defaults.
 */
export function loadWindowState(file: string, workAreas: Rectangle[]): WindowState {
  let saved: unknown;
  try {
    saved = readJsonFile(file);
  } catch {
    saved = undefined;
  }
  return fitToDisplays(parseWindowState(saved), workAreas);
}

export function saveWindowState(file: string, state: WindowState): void {
  writeJsonFileAtomic(file, state, 0o644);
}

export function fitToDisplays(state: WindowState, workAreas: Rectangle[]): WindowState {
  if (workAreas.length === 0) return state;
  const maxWidth = Math.max(...workAreas.map((a) => a.width));
  const maxHeight = Math.max(...workAreas.map((a) => a.height));
  const width = Math.min(Math.max(state.width, MIN_WINDOW_SIZE.width), maxWidth);
  const height = Math.min(Math.max(state.height, MIN_WINDOW_SIZE.height), maxHeight);
  const fitted: WindowState = { width, height, maximized: state.maximized };
  if (state.x !== undefined && state.y !== undefined) {
    const titleBar = { x: state.x, y: state.y, width, height: VISIBLE_HEIGHT };
    if (workAreas.some((area) => overlaps(titleBar, area))) {
      fitted.x = state.x;
      fitted.y = state.y;
    }
  }
  return fitted;
}

function overlaps(bar: Rectangle, area: Rectangle): boolean {
  const w = Math.min(bar.x + bar.width, area.x + area.width) - Math.max(bar.x, area.x);
  const h = Math.min(bar.y + bar.height, area.y + area.height) - Math.max(bar.y, area.y);
  return w >= Math.min(VISIBLE_WIDTH, bar.width) && h >= Math.min(VISIBLE_HEIGHT, bar.height);
}

function parseWindowState(value: unknown): WindowState {
  if (typeof value !== 'object' || value === null) return { ...DEFAULT_WINDOW_STATE };
  const v = value as Record<string, unknown>;
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  const state: WindowState = {
    width: finite(v.width) && v.width > 0 ? Math.round(v.width) : DEFAULT_WINDOW_STATE.width,
    height: finite(v.height) && v.height > 0 ? Math.round(v.height) : DEFAULT_WINDOW_STATE.height,
    maximized: v.maximized === true,
  };
  if (finite(v.x) && finite(v.y)) {
    state.x = Math.round(v.x);
    state.y = Math.round(v.y);
  }
  return state;
}
