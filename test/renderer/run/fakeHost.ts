import type { HostApi, HostChannel, HostPush, HostRequest, HostResponse } from '../../../shared/host-api';
import { HostCallError } from '../../../renderer/host/hostError';
import { checkedRequest, checkedResponse } from '../host/hostContract';

type Handler<C extends HostChannel> = (request: HostRequest<C>) => HostResponse<C> | Promise<HostResponse<C>>;
export type Handlers = { [C in HostChannel]?: Handler<C> };

/**
 * A HostApi for renderer tests: answers channels with the given handlers, records every call, and
 * lets the test push events as the host would. Unhandled channels fail like the host does. Requests
 * and responses are checked against the host API's schemas (test/renderer/host/hostContract.ts).
 */
export class FakeHost implements HostApi {
  readonly calls: { channel: HostChannel; request: unknown }[] = [];
  private readonly listeners = new Set<(push: HostPush) => void>();

  constructor(public handlers: Handlers = {}) {}

  async invoke<C extends HostChannel>(channel: C, request: HostRequest<C>): Promise<HostResponse<C>> {
    this.calls.push({ channel, request });
    checkedRequest(channel, request);
    const handler = this.handlers[channel] as Handler<C> | undefined;
    if (!handler) throw new HostCallError(channel, { code: 'unknown_channel', message: `no fake handler for ${channel}` });
    return checkedResponse(channel, await handler(request));
  }

  subscribe(listener: (push: HostPush) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  push(push: HostPush): void {
    for (const l of this.listeners) l(push);
  }

  callsTo(channel: HostChannel): unknown[] {
    return this.calls.filter((c) => c.channel === channel).map((c) => c.request);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
