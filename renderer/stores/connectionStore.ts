import { create } from 'zustand';

export type ConnectionStatus = 'connected' | 'reconnecting' | 'lost';

/** After this many failed reconnects in a row the connection counts as lost (and the banner says why it may be). */
export const LOST_AFTER_FAILED_ATTEMPTS = 10;

/**
 * The link to the host as the renderer sees it. Only browser mode can lose it (the WebSocket to
 * `crewdeck serve`); host/hostClient.ts keeps it current, the app shows a banner from it.
 */
export interface ConnectionState {
  status: ConnectionStatus;
  /** Reconnects that failed since the connection dropped. */
  failedAttempts: number;
  connected(): void;
  /** The connection dropped, or another reconnect failed (`failedAttempts` so far). */
  reconnecting(failedAttempts: number): void;
}

export const useConnectionStore = create<ConnectionState>()((set) => ({
  status: 'connected',
  failedAttempts: 0,
  connected: () => set({ status: 'connected', failedAttempts: 0 }),
  reconnecting: (failedAttempts) => set({ status: failedAttempts >= LOST_AFTER_FAILED_ATTEMPTS ? 'lost' : 'reconnecting', failedAttempts }),
}));
