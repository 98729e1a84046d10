import type { Database } from 'better-sqlite3';
import type { RuntimeEvent } from '../../shared/events';
import type { RowChange } from './batchTable';
import type { StoredTaskOutput } from './types';

/**
 * A write other than an event, queued in order with the events (see `appendEvent`): a run's row, a
 * task output, a whole checkpoint or an entry appended to one, a run's end, a batch row that moved.
 */
export type Write =
  | { kind: 'run'; values: unknown[] }
  | { kind: 'output'; output: StoredTaskOutput }
  | { kind: 'checkpoint'; runId: string; json: string; at: number }
  | { kind: 'entry'; runId: string; entry: unknown }
  | { kind: 'end'; runId: string; values: unknown[] }
  | { kind: 'row'; batchId: string; index: number; change: RowChange };

/** A queued write (an event is queued as itself). */
export class Queued {
  constructor(readonly write: Write) {}
}

export type PendingItem = RuntimeEvent | Queued;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/**
 * The SQLite store's group commit: what a turn of the event loop wrote, in order, committed in one
 * transaction at its end (or before any read); a commit that fails is reported by the next call.
 */
export class GroupCommit {
  /** What this turn wrote, in order: committed in one transaction at its end (or before any read). */
  private pending: PendingItem[] = [];
  private flushScheduled = false;
  /** A scheduled commit that failed; the next call on the store reports it. */
  private failure: unknown;
  private readonly flushPending = () => {
    try {
      this.flush();
    } catch (error) {
      if (isBusy(error)) this.retryLater();
      else this.failure = error;
    }
  };
  private readonly insertBatch: (items: PendingItem[]) => void;
  /** One write in a savepoint of its own (inside `insertBatch` after a failure: the others are kept). */
  private readonly insertOne: (item: PendingItem) => void;

  /** `insert` writes one queued item, inside the commit's transaction. */
  constructor(
    private readonly db: Database,
    insert: (item: PendingItem) => void,
  ) {
    this.insertBatch = db.transaction((items: PendingItem[]) => {
      for (const item of items) insert(item);
    });
    this.insertOne = db.transaction((item: PendingItem) => insert(item));
  }

  queue(write: Write): void {
    this.pending.push(new Queued(write));
    this.scheduleFlush();
  }

  append(event: RuntimeEvent): void {
    this.pending.push(event);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flushPending);
    }
  }

  commitPending(): void {
    if (this.pending.length > 0) this.flushPending();
  }

  /** Commits what was written so far; throws if this or an earlier scheduled commit failed. */
  flush(): void {
    this.throwFailure();
    this.flushScheduled = false;
    if (this.pending.length === 0 || !this.db.open) return;
    const items = this.pending;
    this.pending = [];
    try {
      this.insertBatch(items);
    } catch (error) {
      // Another process holding the write lock past busy_timeout: keep the writes for the next try.
      if (isBusy(error)) {
        this.pending = items.concat(this.pending);
        throw error;
      }
      // A write the database refused (a bug): the others are committed without it, and it is reported.
      this.insertApart(items);
      throw error;
    }
  }

  /** Commits `items` one savepoint each, leaving out those the database refuses. */
  private insertApart(items: PendingItem[]): void {
    this.db.transaction(() => {
      for (const item of items) {
        try {
          this.insertOne(item);
        } catch {
          // reported by the caller (the first failure)
        }
      }
    })();
  }

  /** Reports (once) a scheduled commit that failed. */
  throwFailure(): void {
    if (this.failure !== undefined) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }

  private retryLater(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setTimeout(this.flushPending, 100).unref();
  }
}
