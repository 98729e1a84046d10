import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ElectronBridge } from '../../renderer/host/bridge';
import type { HostPush } from '../../shared/host-api';

// Electron itself is the only stand-in: a contextBridge that records what is exposed and an
// ipcRenderer that records what is sent; the preload module under test is the real one.
const electron = vi.hoisted(() => {
  const listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>();
  return {
    exposed: {} as Record<string, unknown>,
    invoked: [] as unknown[][],
    listeners,
    emit: (channel: string, ...args: unknown[]) => listeners.get(channel)?.({}, ...args),
  };
});
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (electron.exposed[key] = api) },
  ipcRenderer: {
    on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => electron.listeners.set(channel, listener),
    invoke: async (...args: unknown[]) => {
      electron.invoked.push(args);
      return { ok: true, response: { echoed: args[1] } };
    },
  },
}));

let bridge: ElectronBridge;
beforeAll(async () => {
  await import('../../electron/preload/preload');
  bridge = electron.exposed.crewdeck as ElectronBridge;
});
beforeEach(() => {
  electron.invoked.length = 0;
});

describe('preload bridge (window.crewdeck)', () => {
  it('exposes exactly invoke, onPush and onMenu', () => {
    expect(Object.keys(electron.exposed)).toEqual(['crewdeck']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'onMenu', 'onPush']);
  });

  it('forwards contract channels and refuses others before sending anything', async () => {
    expect(await bridge.invoke('documents.list', {})).toEqual({ ok: true, response: { echoed: 'documents.list' } });
    expect(electron.invoked).toEqual([['crewdeck:invoke', 'documents.list', {}]]);
    const refused = await bridge.invoke('shell.exec' as never, { command: 'rm -rf /' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(electron.invoked).toHaveLength(1);
  });

  it('delivers pushes to every subscriber until it unsubscribes, even when one throws', () => {
    const a: HostPush[] = [];
    const b: HostPush[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const offThrowing = bridge.onPush(() => {
      throw new Error('broken subscriber');
    });
    const offA = bridge.onPush((p) => a.push(p));
    const offB = bridge.onPush((p) => b.push(p));
    electron.emit('crewdeck:push', { kind: 'runs.changed' });
    offA();
    electron.emit('crewdeck:push', { kind: 'documents.changed' });
    offB();
    offThrowing();
    expect(a).toEqual([{ kind: 'runs.changed' }]);
    expect(b).toEqual([{ kind: 'runs.changed' }, { kind: 'documents.changed' }]);
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });

  it('passes menu commands to every subscriber until it unsubscribes', () => {
    const first: string[] = [];
    const second: string[] = [];
    const offFirst = bridge.onMenu((c) => first.push(c));
    const offSecond = bridge.onMenu((c) => second.push(c));
    electron.emit('crewdeck:menu', 'undo');
    offFirst();
    electron.emit('crewdeck:menu', 'save');
    offSecond();
    electron.emit('crewdeck:menu', 'run');
    expect(first).toEqual(['undo']);
    expect(second).toEqual(['undo', 'save']);
  });
});
