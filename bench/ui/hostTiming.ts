import WebSocket from 'ws';

/** The renderer's page sizes when it loads a stored run (renderer/stores/runSessions.ts: FIRST_PAGE, NEXT_PAGE). */
const FIRST_PAGE = 1500;
const NEXT_PAGE = 2500;

export interface HostLoadTiming {
  /** `runs.get` + the paged `runs.events` calls, as the renderer makes them, end to end (responses parsed). */
  pagedMs: number[];
  /** Calls in one paged load. */
  calls: number;
  /** The same events in one `runs.events` call (limit 20,000), for comparison. */
  oneCallMs: number[];
}

/**
 * Times what loading the run costs the host alone: the same API calls the renderer makes to open a
 * run, from Node over the same WebSocket (`crewdeck serve`'s /api), with no browser work in the way.
 * Each response is JSON-parsed, as the page does.
 */
export async function timeHostLoad(appUrl: string, runId: string, reps: number): Promise<HostLoadTiming> {
  const url = new URL(appUrl);
  const ws = new WebSocket(`ws://${url.host}/api?token=${encodeURIComponent(url.searchParams.get('token') ?? '')}`);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, (response: unknown) => void>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: { ok: boolean; response?: unknown; error?: { message: string } } };
    if (message.id === undefined) return;
    const done = pending.get(message.id);
    pending.delete(message.id);
    if (!message.result?.ok) throw new Error(`host call failed: ${message.result?.error?.message}`);
    done?.(message.result.response);
  });
  const call = <T>(channel: string, request: unknown) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, (r) => resolve(r as T));
      ws.send(JSON.stringify({ id, channel, request }));
    });
  type Page = { events: { seq: number }[]; more: boolean };

  const pagedMs: number[] = [];
  const oneCallMs: number[] = [];
  let calls = 0;
  try {
    for (let rep = 0; rep < reps; rep++) {
      const t0 = performance.now();
      const [, first] = await Promise.all([call('runs.get', { runId }), call<Page>('runs.events', { runId, afterSeq: 0, limit: FIRST_PAGE })]);
      calls = 2;
      let page = first;
      while (page.more && page.events.length > 0) {
        page = await call<Page>('runs.events', { runId, afterSeq: page.events[page.events.length - 1]!.seq, limit: NEXT_PAGE });
        calls++;
      }
      pagedMs.push(performance.now() - t0);

      const t1 = performance.now();
      await call<Page>('runs.events', { runId, afterSeq: 0, limit: 20_000 });
      oneCallMs.push(performance.now() - t1);
    }
  } finally {
    ws.close();
  }
  return { pagedMs, calls, oneCallMs };
}
