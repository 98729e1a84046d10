import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { isLiveOnly, type RuntimeEvent } from '../../shared/events';
import { errorMessage } from '../errors';
import { isTransactionCollision, isTransientPostgresError, LeaseLost } from './postgresErrors';
import { applyWrites, type StoreWrite, type TeamPending } from './postgresRunWrites';
import { pendingOfCheckpoint } from './postgresPending';
import { TeamBatchesOnServer } from './postgresBatches';
import type { SqliteRunStore } from './sqliteRunStore';
import type { BatchRecord, BatchRowStatus, BatchStatus, BatchSummary, NewBatch, NewRun, RunEnd, RunRecord, RunStore, RunSummary, StoredTaskOutput } from './types';

/*
 * The run store of team mode, on PostgreSQL.
 *
 * The RunStore interface is synchronous (the runtime appends an event and goes on; better-sqlite3 answers
 * at once) and PostgreSQL is not. The interface stays as it is; PostgreSQL fits behind it like this:
 *
 * - A worker that advances run R holds R's lease (a row lease in PostgreSQL, renewed while it works, on
 *   top of BullMQ's job lock) and loads R's record, events, task outputs and checkpoint from PostgreSQL
 *   into a per-job working store: a SqliteRunStore on an in-memory database. Every read the runtime makes
 *   (getRun, events, lastSeq, taskOutputs, loadCheckpoint) is answered by that working copy, synchronously.
 * - Every write (createRun, appendEvent, saveTaskOutput, saveCheckpoint, finishRun, reopenRun) goes to the
 *   working copy and, in the same order, onto an ordered write-behind queue (`PostgresWriter`). The queue
 *   commits what is waiting in one transaction per turn of the event loop (as the SQLite store groups its
 *   commits), at `commitPending` (before a tool or script runs), and at the job's end, which awaits the
 *   queue before it acknowledges the job. Each transaction first checks that this worker still holds R's
 *   lease (fencing): a worker that lost it (paused past its lease, cut off from the database) writes nothing
 *   more, and its run is stopped.
 * - So PostgreSQL always holds a prefix of the run's history, in order: a task's output and its
 *   `task.completed` event, and a flow's checkpoint after a method, are committed together or not at all.
 *   A job that picks the run up again (after a crash, a lost lease, a restart) loads that prefix, and the
 *   runtime's own resume continues from it: a task, item or method whose completion PostgreSQL holds is
 *   never run again; one in flight when the worker died runs again from its start.
 * - A commit that fails because PostgreSQL is restarting is tried again (writes are idempotent by their
 *   keys) until it succeeds or the lease is found lost; so is one PostgreSQL rolled back for colliding with
 *   another transaction (a deadlock). The runtime does not wait meanwhile.
 *
 * The SQLite store stays as it was, for the desktop app and the CLI.
 */

/** What the writer reports to its job: its lease is gone, or a write failed for good. */
export interface WriterEvents {
  onLeaseLost(error: LeaseLost): void;
  onFailure(error: unknown): void;
}

/** The ordered write-behind queue of one run's job (see the comment above). */
export class PostgresWriter {
  /** Unique per writer: keys of appended checkpoint entries (idempotent when a commit is sent again). */
  readonly id = randomBytes(6).toString('hex');
  private queue: StoreWrite[] = [];
  private running: Promise<void> | undefined;
  private scheduled = false;
  private stopped: unknown;
  private readonly stop = new AbortController();

  constructor(
    private readonly pool: Pool,
    /** The run whose lease fences every commit. */
    private readonly leasedRunId: string,
    private readonly owner: string,
    private readonly leaseMs: number,
    private readonly events: WriterEvents,
  ) {}

  push(write: StoreWrite): void {
    if (this.stopped !== undefined) return;
    const last = this.queue.at(-1);
    if (write.kind === 'events' && last?.kind === 'events' && last.runId === write.runId) last.events.push(...write.events);
    else this.queue.push(write);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.kick());
    }
  }

  /** Starts committing what is queued (does not wait). */
  kick(): void {
    this.scheduled = false;
    if (this.running || this.queue.length === 0 || this.stopped !== undefined) return;
    this.running = this.drainLoop().finally(() => {
      this.running = undefined;
      if (this.queue.length > 0 && this.stopped === undefined) this.kick();
    });
  }

  /** Resolves once everything queued so far is committed; rejects if the lease was lost or a write failed. */
  async drain(): Promise<void> {
    for (;;) {
      if (this.stopped !== undefined) throw this.stopped;
      if (this.queue.length === 0 && !this.running) return;
      this.kick();
      await this.running;
    }
  }

  /** Gives up (the job ends): nothing queued is written any more. */
  abandon(reason: unknown): void {
    this.stopped ??= reason;
    this.queue = [];
    this.stop.abort(reason);
  }

  private async drainLoop(): Promise<void> {
    while (this.queue.length > 0 && this.stopped === undefined) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.commitWithRetry(batch);
      } catch (error) {
        this.abandon(error);
        if (error instanceof LeaseLost) this.events.onLeaseLost(error);
        else this.events.onFailure(error);
      }
    }
  }

  private async commitWithRetry(batch: StoreWrite[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.commit(batch);
      } catch (error) {
        if (!(isTransientPostgresError(error) || isTransactionCollision(error)) || this.stop.signal.aborted) throw error;
        // PostgreSQL is restarting, or rolled this commit back for colliding with another transaction (the
        // API cancelling the run's batch, say): wait and send the same batch again (it is idempotent).
        await pause(Math.min(100 * 2 ** attempt, 2_000), this.stop.signal);
      }
    }
  }

  private async commit(batch: StoreWrite[]): Promise<void> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const fence = await client.query(
        `UPDATE runs SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
         WHERE id = $1 AND lease_owner = $2 RETURNING id`,
        [this.leasedRunId, this.owner, this.leaseMs],
      );
      if (fence.rowCount === 0) {
        await client.query('ROLLBACK');
        throw new LeaseLost(this.leasedRunId);
      }
      await applyWrites(client, batch);
      await client.query('COMMIT');
    } catch (error) {
      broken = isTransientPostgresError(error);
      if (!broken && !(error instanceof LeaseLost)) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

/**
 * A RunStore for one job: reads from the working copy, writes to it and through the ordered queue to
 * PostgreSQL. `close` closes the working copy only; the job drains the writer itself.
 */
export class PostgresRunStore implements RunStore {
  private entries = 0;

  constructor(
    private readonly local: SqliteRunStore,
    readonly writer: PostgresWriter,
  ) {}

  createRun(run: NewRun): void {
    this.local.createRun(run);
    this.writer.push({ kind: 'create', run });
  }

  appendEvent(event: RuntimeEvent): void {
    this.local.appendEvent(event);
    if (!isLiveOnly(event)) this.writer.push({ kind: 'events', runId: event.runId, events: [event] });
  }

  commitPending(): void {
    this.local.commitPending();
    this.writer.kick();
  }

  saveTaskOutput(output: StoredTaskOutput): void {
    this.local.saveTaskOutput(output);
    this.writer.push({ kind: 'output', output });
  }

  finishRun(runId: string, end: RunEnd): void {
    this.local.finishRun(runId, end);
    const pending: TeamPending | undefined = end.status === 'paused' ? pendingOfCheckpoint(this.local.loadCheckpoint(runId)) : undefined;
    this.writer.push({ kind: 'finish', runId, end, pending });
  }

  getRun(runId: string): RunRecord | undefined {
    return this.local.getRun(runId);
  }

  listRuns(options?: { limit?: number; offset?: number; documentId?: string }): RunSummary[] {
    return this.local.listRuns(options);
  }

  events(runId: string, afterSeq?: number, limit?: number): RuntimeEvent[] {
    return this.local.events(runId, afterSeq, limit);
  }

  taskOutputs(runId: string): StoredTaskOutput[] {
    return this.local.taskOutputs(runId);
  }

  lastSeq(runId: string): number {
    return this.local.lastSeq(runId);
  }

  saveCheckpoint(runId: string, checkpoint: unknown): void {
    this.local.saveCheckpoint(runId, checkpoint);
    // A copy: the runtime goes on changing its checkpoint object after saving it.
    this.writer.push({ kind: 'checkpoint', runId, checkpoint: structuredClone(checkpoint), at: Date.now() });
  }

  loadCheckpoint(runId: string): unknown {
    return this.local.loadCheckpoint(runId);
  }

  appendCheckpointEntry(runId: string, entry: unknown): void {
    this.local.appendCheckpointEntry(runId, entry);
    this.writer.push({ kind: 'entry', runId, entry: structuredClone(entry), key: `${this.writer.id}:${++this.entries}` });
  }

  checkpointEntries(runId: string): unknown[] {
    return this.local.checkpointEntries(runId);
  }

  reopenRun(runId: string): void {
    this.local.reopenRun(runId);
    this.writer.push({ kind: 'reopen', runId });
  }

  // Batches (BatchStore): a team batch is the server's, topped up by every worker — not one process's,
  // which is what BatchStore describes — and a job's store holds the one run it advances. So these refuse
  // (TeamBatchesOnServer) rather than keep a batch in a working copy that dies with the job; team batches
  // are read in BatchStore's shapes by runtime/store/postgresBatches.ts, which says why at length.
  createBatch(_batch: NewBatch): void {
    throw new TeamBatchesOnServer('createBatch');
  }

  updateBatchRow(_batchId: string, _index: number, _change: { status: BatchRowStatus; runId?: string; error?: string }): void {
    throw new TeamBatchesOnServer('updateBatchRow');
  }

  finishBatch(_batchId: string, _status: Exclude<BatchStatus, 'running' | 'interrupted'>, _endedAt: number): void {
    throw new TeamBatchesOnServer('finishBatch');
  }

  reopenBatch(_batchId: string): void {
    throw new TeamBatchesOnServer('reopenBatch');
  }

  getBatch(_batchId: string): BatchRecord | undefined {
    throw new TeamBatchesOnServer('getBatch');
  }

  listBatches(_options?: { limit?: number; offset?: number }): BatchSummary[] {
    throw new TeamBatchesOnServer('listBatches');
  }

  close(): void {
    this.local.close();
  }
}

/** For messages: why a job's writes stopped. */
export function describeWriterStop(error: unknown): string {
  return error instanceof LeaseLost ? error.message : `writing to PostgreSQL failed: ${errorMessage(error)}`;
}

/** Waits `ms` (less if `signal` aborts first). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
