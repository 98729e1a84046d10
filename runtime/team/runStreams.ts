import type { ServerResponse } from 'node:http';
import type { Pool } from 'pg';
import { readTeamEvents, readTeamRun, type TeamRunStatus } from '../store/postgresRunReads';

const ENDED: ReadonlySet<TeamRunStatus> = new Set(['completed', 'failed', 'cancelled']);
const PAGE = 500;

/** One open SSE stream: its own cursor (the last seq it sent). */
interface Subscriber {
  res: ServerResponse;
  cursor: number;
}

/**
 * The subscribers of one run and their one reader: a commit announced reads PostgreSQL once (after the
 * cursor of the stream furthest behind), and every stream is written what it has not had — however many
 * streams are open on the run.
 */
class RunTail {
  readonly subscribers = new Set<Subscriber>();
  private reading = false;
  private again = false;

  constructor(
    private readonly pool: Pool,
    readonly runId: string,
  ) {}

  refresh(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    this.readAll()
      .catch(() => undefined) // PostgreSQL away: the next announcement or tick tries again
      .finally(() => {
        this.reading = false;
        if (this.again && this.subscribers.size > 0) {
          this.again = false;
          this.refresh();
        }
      });
  }

  /** Sends every stream what it lacks; ends the streams when the run has ended and nothing is left. */
  private async readAll(): Promise<void> {
    for (;;) {
      if (this.subscribers.size === 0) return;
      // The status first: an end read before the last page means nothing was committed after that page.
      const status = (await readTeamRun(this.pool, this.runId))?.status;
      const after = Math.min(...[...this.subscribers].map((s) => s.cursor));
      const events = await readTeamEvents(this.pool, this.runId, after, PAGE);
      for (const sub of this.subscribers) {
        let text = '';
        for (const event of events) {
          if (event.seq <= sub.cursor) continue;
          // Seqs have no gaps: a stream that joined after this read began (further behind) waits for the next one.
          if (event.seq !== sub.cursor + 1) {
            this.again = true;
            break;
          }
          text += `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`;
          sub.cursor = event.seq;
        }
        if (text) sub.res.write(text);
      }
      if (events.length === PAGE) continue;
      if ((status === undefined || ENDED.has(status)) && !this.again) {
        for (const sub of this.subscribers) {
          sub.res.write(`event: end\ndata: ${JSON.stringify({ runId: this.runId, status: status ?? 'unknown', lastSeq: sub.cursor })}\n\n`);
          sub.res.end();
        }
      }
      return;
    }
  }
}

/**
 * Server-Sent Events of runs: `id:` is the event's seq, so a client that reconnects with
 * `Last-Event-ID` gets every later event exactly once, in order. Whenever a commit is announced (NOTIFY on
 * `crewdeck_events`, sent by the committing transaction), and every few seconds in case an announcement
 * was lost (a reconnect), the run's one reader reads PostgreSQL and writes each stream what it lacks; a
 * run that has ended gets its remaining events and the stream closes.
 */
export class RunStreams {
  private readonly tails = new Map<string, RunTail>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pool: Pool) {
    this.timer = setInterval(() => this.pokeAll(), 3_000);
    this.timer.unref();
  }

  /** A commit of `runId`'s events (or a change of its status) was announced. */
  notify(runId: string): void {
    this.tails.get(runId)?.refresh();
  }

  pokeAll(): void {
    for (const tail of this.tails.values()) tail.refresh();
  }

  open(runId: string, res: ServerResponse, after: number): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(': crewdeck run stream\n\n');
    let tail = this.tails.get(runId);
    if (!tail) {
      tail = new RunTail(this.pool, runId);
      this.tails.set(runId, tail);
    }
    const sub: Subscriber = { res, cursor: after };
    tail.subscribers.add(sub);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    keepAlive.unref();
    const owner = tail;
    res.on('close', () => {
      clearInterval(keepAlive);
      owner.subscribers.delete(sub);
      if (owner.subscribers.size === 0) this.tails.delete(runId);
    });
    tail.refresh();
  }

  close(): void {
    clearInterval(this.timer);
    for (const tail of this.tails.values()) for (const sub of tail.subscribers) sub.res.end();
    this.tails.clear();
  }
}
