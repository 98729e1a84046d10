import type { ServerResponse } from 'node:http';
import type { Pool } from 'pg';
import type { RuntimeEvent } from '../../shared/events';
import { readTeamEvents, readTeamRun, type TeamRunStatus } from '../store/postgresRunReads';

const ENDED: ReadonlySet<TeamRunStatus> = new Set(['completed', 'failed', 'cancelled']);
const PAGE = 500;

/** One open SSE stream: its own cursor (the last seq it sent). */
interface Subscriber {
  res: ServerResponse;
  cursor: number;
  pumping: boolean;
  again: boolean;
}

/** The subscribers of one run, and the reads they share (one query per cursor, however many streams wait on it). */
class RunTail {
  readonly subscribers = new Set<Subscriber>();
  private readonly reads = new Map<number, Promise<RuntimeEvent[]>>();
  private status: Promise<TeamRunStatus | undefined> | undefined;

  constructor(
    private readonly pool: Pool,
    readonly runId: string,
  ) {}

  read(after: number): Promise<RuntimeEvent[]> {
    let read = this.reads.get(after);
    if (!read) {
      read = readTeamEvents(this.pool, this.runId, after, PAGE).finally(() => this.reads.delete(after));
      this.reads.set(after, read);
    }
    return read;
  }

  readStatus(): Promise<TeamRunStatus | undefined> {
    this.status ??= readTeamRun(this.pool, this.runId)
      .then((row) => row?.status)
      .finally(() => {
        this.status = undefined;
      });
    return this.status;
  }
}

/**
 * Server-Sent Events of runs: `id:` is the event's seq, so a client that reconnects with
 * `Last-Event-ID` gets every later event exactly once, in order. Each stream reads PostgreSQL after its
 * own cursor whenever a commit is announced (NOTIFY on `crewdeck_events`, sent by the committing
 * transaction), and every few seconds in case an announcement was lost (a reconnect); a run that has
 * ended gets its remaining events and the stream closes.
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
    const tail = this.tails.get(runId);
    if (tail) for (const sub of tail.subscribers) this.pump(tail, sub);
  }

  pokeAll(): void {
    for (const tail of this.tails.values()) for (const sub of tail.subscribers) this.pump(tail, sub);
  }

  open(runId: string, res: ServerResponse, after: number): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(': crewdeck run stream\n\n');
    let tail = this.tails.get(runId);
    if (!tail) {
      tail = new RunTail(this.pool, runId);
      this.tails.set(runId, tail);
    }
    const sub: Subscriber = { res, cursor: after, pumping: false, again: false };
    tail.subscribers.add(sub);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    keepAlive.unref();
    const owner = tail;
    res.on('close', () => {
      clearInterval(keepAlive);
      owner.subscribers.delete(sub);
      if (owner.subscribers.size === 0) this.tails.delete(runId);
    });
    this.pump(tail, sub);
  }

  private pump(tail: RunTail, sub: Subscriber): void {
    if (sub.pumping) {
      sub.again = true;
      return;
    }
    sub.pumping = true;
    this.drain(tail, sub)
      .catch(() => undefined) // PostgreSQL away: the next announcement or tick tries again
      .finally(() => {
        sub.pumping = false;
        if (sub.again && !sub.res.writableEnded) {
          sub.again = false;
          this.pump(tail, sub);
        }
      });
  }

  /** Sends everything after the cursor; closes the stream when the run has ended and nothing is left. */
  private async drain(tail: RunTail, sub: Subscriber): Promise<void> {
    for (;;) {
      if (sub.res.writableEnded || sub.res.destroyed) return;
      // The status first: an end read before the last page means nothing was committed after that page.
      const status = await tail.readStatus();
      const events = await tail.read(sub.cursor);
      for (const event of events) {
        if (event.seq <= sub.cursor) continue;
        sub.res.write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
        sub.cursor = event.seq;
      }
      if (events.length === PAGE) continue;
      if (status === undefined || ENDED.has(status)) {
        sub.res.write(`event: end\ndata: ${JSON.stringify({ runId: tail.runId, status: status ?? 'unknown', lastSeq: sub.cursor })}\n\n`);
        sub.res.end();
      }
      return;
    }
  }

  close(): void {
    clearInterval(this.timer);
    for (const tail of this.tails.values()) for (const sub of tail.subscribers) sub.res.end();
    this.tails.clear();
  }
}
