import { BrowserWindow, screen } from 'electron';
import { loadWindowState, MIN_WINDOW_SIZE, saveWindowState, type WindowState } from './windowBounds';

export interface MainWindowOptions {
  preload: string;
  indexHtml: string;
  /** userData JSON with the last bounds. */
  stateFile: string;
  title: string;
  backgroundColor: string;
}

/**
 * The one app window: sandboxed renderer with context isolation and no Node, the preload bridge,
 * the renderer build loaded from disk, and its bounds saved and restored (off-screen bounds dropped).
 */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const state = loadWindowState(
    options.stateFile,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const window = new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : { center: true }),
    width: state.width,
    height: state.height,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: options.title,
    backgroundColor: options.backgroundColor,
    show: false,
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  });
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  trackBounds(window, options.stateFile);
  void window.loadFile(options.indexHtml);
  return window;
}

function trackBounds(window: BrowserWindow, file: string): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return;
    const bounds = window.getNormalBounds();
    const state: WindowState = { ...bounds, maximized: window.isMaximized() };
    try {
      saveWindowState(file, state);
    } catch {
      // Losing the window position is not worth an error dialog.
    }
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  window.on('resize', later);
  window.on('move', later);
  window.on('maximize', later);
  window.on('unmaximize', later);
  window.on('close', save);
}
