import type { HostChannel, HostPush, HostResult } from '../../shared/host-api';

/**
 * What the main process and the runtime's utility process say to each other (structured-clone
 * messages over `process.parentPort`). Requests are already validated by main; the runtime validates
 * them again (HostService never trusts its caller).
 */
export type ToRuntime =
  | { type: 'request'; id: number; channel: HostChannel; request: unknown }
  /** API keys from the safeStorage store: `null` removes a variable. Values never travel the other way. */
  | { type: 'env'; values: Record<string, string | null> }
  /** Cancel runs, close the store, exit. */
  | { type: 'shutdown' };

export type FromRuntime =
  | { type: 'ready'; workspace: string }
  /** The HostService could not be created (the workspace is missing, the database cannot be opened…). */
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; result: HostResult<HostChannel> }
  | { type: 'push'; push: HostPush };

/** The runtime process's command line: the workspace folder it serves. */
export const WORKSPACE_ARG = '--workspace';
