import type { RuntimeEvent } from '../events';
import type { HostChannel, HostRequest, HostResponse } from './hostChannels';
import type { HostErrorData } from './hostErrors';

export type HostResult<C extends HostChannel> = { ok: true; response: HostResponse<C> } | { ok: false; error: HostErrorData };

/** Messages the host pushes without being asked: every live event of every run, and change notices. */
export type HostPush =
  | { kind: 'event'; event: RuntimeEvent }
  | { kind: 'documents.changed' }
  | { kind: 'runs.changed' }
  /** Memories were added, changed or removed (through the host, or by a run that just ended). */
  | { kind: 'memory.changed' }
  /** A row of a batch (`runs.startBatch`) changed status or usage: ask `runs.batch`. */
  | { kind: 'batch.changed'; batchId: string }
  /**
   * A crew's suggestion versions were changed by hand (activated, edited, disabled, rolled back). How a
   * training session or a test moves on is told by its events (`training.*`, `test.*`), pushed as `event`.
   */
  | { kind: 'training.changed'; crewId: string };

/**
 * WebSocket framing (browser mode). Electron IPC carries the same request/result shapes. Pushes made
 * in the same turn of the host's event loop travel together (`pushes`, in order; a lone one as `push`),
 * so a fast run's events cost the renderer one message per batch, not one per event.
 */
export type WireRequest = { id: number; channel: string; request: unknown };
export type WireMessage = { id: number; result: HostResult<HostChannel> } | { push: HostPush } | { pushes: HostPush[] };

/** The renderer's view of the host: one function per channel family, whatever the transport. */
export interface HostApi {
  invoke<C extends HostChannel>(channel: C, request: HostRequest<C>): Promise<HostResponse<C>>;
  /** Returns an unsubscribe function. */
  subscribe(listener: (push: HostPush) => void): () => void;
}
