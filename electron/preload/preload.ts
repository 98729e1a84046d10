// The only bridge between the sandboxed renderer and main: `window.crewdeck` (renderer/host/bridge.ts).
// Built as CommonJS (sandboxed preloads cannot be ESM); imports nothing but electron and shared types.
import { contextBridge, ipcRenderer } from 'electron';
import type { HostChannel, HostPush, HostResult } from '../../shared/host-api';
import { IPC } from '../ipcChannels';
import { isAllowedChannel } from './allowedChannel';

const pushListeners = new Set<(push: HostPush) => void>();
const menuListeners = new Set<(command: string) => void>();

/** One listener's failure must not keep the others from hearing about it. */
function notify<T>(listeners: Set<(value: T) => void>, value: T): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch (error) {
      console.error(error);
    }
  }
}

ipcRenderer.on(IPC.push, (_event, push: HostPush) => notify(pushListeners, push));
ipcRenderer.on(IPC.menu, (_event, command: string) => notify(menuListeners, command));

contextBridge.exposeInMainWorld('crewdeck', {
  invoke(channel: HostChannel, request: unknown): Promise<HostResult<HostChannel>> {
    if (!isAllowedChannel(channel)) {
      return Promise.resolve({ ok: false, error: { code: 'unknown_channel', message: `unknown channel ${JSON.stringify(String(channel)).slice(0, 100)}` } });
    }
    return ipcRenderer.invoke(IPC.invoke, channel, request) as Promise<HostResult<HostChannel>>;
  },
  onPush(listener: (push: HostPush) => void): () => void {
    pushListeners.add(listener);
    return () => void pushListeners.delete(listener);
  },
  onMenu(listener: (command: string) => void): () => void {
    menuListeners.add(listener);
    return () => void menuListeners.delete(listener);
  },
});
