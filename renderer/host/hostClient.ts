import type { HostApi, HostChannel, HostPush, HostResult, WireMessage } from '../../shared/host-api';
import { useConnectionStore } from '../stores/connectionStore';
import { HostCallError } from './hostError';
import './bridge';

/**
 * The only code that knows how the host is reached: Electron's preload bridge, or a WebSocket to
 * `crewdeck serve` (browser mode) authenticated with the token from the page URL.
 */
export async function connectHost(): Promise<HostApi> {
  if (window.crewdeck) return fromBridge(window.crewdeck.invoke, window.crewdeck.onPush);
  return connectWebSocket();
}

function fromBridge(
  invoke: (channel: HostChannel, request: unknown) => Promise<HostResult<HostChannel>>,
  onPush: (listener: (push: HostPush) => void) => () => void,
): HostApi {
  return {
    async invoke(channel, request) {
      const result = await invoke(channel, request);
      if (!result.ok) throw new HostCallError(channel, result.error);
      return result.response as never;
    },
    subscribe: onPush,
  };
}

async function connectWebSocket(): Promise<HostApi> {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api?token=${encodeURIComponent(token)}`;
  const listeners = new Set<(push: HostPush) => void>();
  const pending = new Map<number, (result: HostResult<HostChannel>) => void>();
  let nextId = 1;
  let socket = await open(url);

  const reconnect = (failed: number) => {
    useConnectionStore.getState().reconnecting(failed);
    setTimeout(async () => {
      try {
        socket = await open(url);
      } catch {
        reconnect(failed + 1);
        return;
      }
      attach(socket);
      useConnectionStore.getState().connected();
      // Whatever changed meanwhile: subscribers read it again.
      listeners.forEach((l) => l({ kind: 'runs.changed' }));
      listeners.forEach((l) => l({ kind: 'documents.changed' }));
    }, reconnectDelay(failed + 1));
  };

  const attach = (ws: WebSocket) => {
    ws.onmessage = (message) => {
      const data = JSON.parse(String(message.data)) as WireMessage;
      if ('push' in data) listeners.forEach((l) => l(data.push));
      else if ('pushes' in data) for (const push of data.pushes) listeners.forEach((l) => l(push));
      else pending.get(data.id)?.(data.result);
      if ('id' in data) pending.delete(data.id);
    };
    ws.onclose = () => {
      for (const [id, settle] of pending) {
        settle({ ok: false, error: { code: 'internal', message: 'lost the connection to crewdeck serve' } });
        pending.delete(id);
      }
      // The host may restart (or the laptop sleep): reconnect with a growing delay.
      reconnect(0);
    };
  };
  attach(socket);

  return {
    invoke(channel, request) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, (result) => (result.ok ? resolve(result.response as never) : reject(new HostCallError(channel, result.error))));
        if (socket.readyState !== WebSocket.OPEN) {
          pending.delete(id);
          reject(new HostCallError(channel, { code: 'internal', message: 'not connected to crewdeck serve' }));
          return;
        }
        socket.send(JSON.stringify({ id, channel, request }));
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const MAX_RECONNECT_DELAY_MS = 10_000;

/** How long to wait before reconnect attempt `attempt` (1, 2, …): 1 s, 2 s, 4 s, 8 s, then every 10 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(1000 * 2 ** (attempt - 1), MAX_RECONNECT_DELAY_MS);
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(`cannot connect to ${url.replace(/token=[^&]+/, 'token=…')}`));
  });
}
