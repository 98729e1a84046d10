import { checkHostRequest, type HostChannel, type HostResponse, type HostResult } from '../../shared/host-api';
import { toHostError } from './hostErrors';
import { hostHandlers } from './hostHandlers';
import { openHostParts } from './hostParts';
import type { HostService, HostServiceOptions } from './hostService';
import { redactKnownDeep } from '../redactSecrets';

/** The HostService over a workspace folder: documents on disk, runs in its SQLite store. */
export function createHostService(options: HostServiceOptions): HostService {
  const parts = openHostParts(options);
  const handlers = hostHandlers(parts);
  const { listeners, team, batches, runs, training, memory, store } = parts;
  return {
    async handle(channel, request) {
      const checked = checkHostRequest(channel, request);
      if (!checked.ok) return checked;
      try {
        const handler = handlers[checked.channel] as (request: unknown) => unknown;
        // Every reply leaves redacted, in every encoding (docs/SECURITY.md).
        return { ok: true, response: redactKnownDeep((await handler(checked.request)) as HostResponse<HostChannel>) } as HostResult<HostChannel>;
      } catch (error) {
        return { ok: false, error: redactKnownDeep(toHostError(error)) };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      team.close();
      batches.closeAll();
      await runs.closeAll();
      await training.closeAll();
      await memory.close();
      listeners.clear();
      store.close();
    },
  };
}
