import type { TrustConfirmer } from '../trust/trustConfirmation';
// Electron's runtime process confirms grants that main's native dialog sent (electron/ imports runtime/host only).
export { mainProcessConfirmer } from '../trust/trustConfirmation';
import type { HostPush, HostResult, HostChannel } from '../../shared/host-api';

/**
 * Implements shared/host-api.ts over the runtime. Transports (the WebSocket server of browser mode,
 * Electron's utility process) hand it raw requests; it validates them with the contract's zod schemas.
 */
export interface HostService {
  /** Never throws: failures come back as `{ ok: false, error }`. `request` is untrusted. */
  handle(channel: string, request: unknown): Promise<HostResult<HostChannel>>;
  /** Live events and change notices. Returns an unsubscribe function. */
  subscribe(listener: (push: HostPush) => void): () => void;
  /** Cancels running runs (they keep their events), closes the store. */
  close(): Promise<void>;
}

export interface HostServiceOptions {
  workspace: string;
  transport: 'electron' | 'websocket';
  /**
   * Read for API keys. Defaults to process.env. In Electron the main process answers `secrets.*` itself
   * (safeStorage) and copies the keys into the runtime process's environment.
   */
  env?: NodeJS.ProcessEnv;
  /**
   * Confirms `trust.grant` requests with a person, outside the renderer: the serving terminal's code
   * (browser mode) or Electron's native dialog. Without one, the app cannot grant trust at all.
   */
  confirmTrust?: TrustConfirmer;
}
