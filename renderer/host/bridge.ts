import type { HostChannel, HostPush, HostResult } from '../../shared/host-api';

/** What Electron's preload exposes on `window.crewdeck` (electron/preload). */
export interface ElectronBridge {
  invoke(channel: HostChannel, request: unknown): Promise<HostResult<HostChannel>>;
  onPush(listener: (push: HostPush) => void): () => void;
  /** Native menus send commands (undo, save, open workspace…) to the renderer. */
  onMenu(listener: (command: string) => void): () => void;
}

declare global {
  interface Window {
    crewdeck?: ElectronBridge;
  }
}
