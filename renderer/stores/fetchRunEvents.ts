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
    const last = got.at(-1);
    if (!page.more || last === undefined) return events;
    after = last.seq;
  }
}
