import type { RuntimeEvent } from '../../shared/events';
import type { HostApi } from '../../shared/host-api';

/** Every stored event of a run after `afterSeq`, paging through `runs.events` until the host has no more. */
export async function fetchRunEvents(api: HostApi, runId: string, afterSeq: number): Promise<RuntimeEvent[]> {
  const events: RuntimeEvent[] = [];
  let after = afterSeq;
  for (;;) {
    const page = await api.invoke('runs.events', { runId, afterSeq: after });
    const got = page.events as RuntimeEvent[];
    for (const e of got) events.push(e);
    if (!page.more || got.length === 0) return events;
    after = got[got.length - 1].seq;
  }
}
