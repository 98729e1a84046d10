import type { Database } from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { isLiveOnly, type RuntimeEvent } from '../../shared/events';
import { BatchNotFound, BatchNotResumable, RunNotFound, RunNotReopenable } from '../errors';
import { BatchTable, type RowChange, type StoredBatchRow } from './batchTable';
import { CheckpointTable } from './checkpointTable';
import { openDatabase, workspaceDatabasePath } from './database';
import { EventTable } from './eventTable';
import { GroupCommit, Queued, type PendingItem } from './groupCommit';
import { redactKnown, redactKnownDeep } from '../redactSecrets';
import { LongTexts } from './longTexts';
import { processGone } from './processGone';
import { RunTable } from './runTable';
import { TaskOutputTable } from './taskOutputTable';
import { closeKeepingWal } from './walKeeper';
import type { BatchRecord, BatchStatus, BatchSummary, NewBatch, NewRun, RunEnd, RunRecord, RunStore, RunSummary, StoredTaskOutput } from './types';

const DEFAULT_LIST_LIMIT = 50;

/** Stores with events not yet committed are flushed when the process exits (crash included). */
const openStores = new Set<SqliteRunStore>();
process.on('exit', () => {
  for (const store of openStores) {
    try {
      store.flush();
    } catch {
      // Nothing can be reported any more at exit.
    }
  }
});

/**
 * The run store on better-sqlite3. What a run writes is group-committed (see `appendEvent`): its row,
 * events, task outputs, checkpoints and end, in the order written, durable at the end of the event-loop
 * turn that wrote them, before any read here, and at process exit — one commit per turn. Batches
 * (created, finished, reopened) and reopened runs are their own commits.
 */
export class SqliteRunStore implements RunStore {
  private readonly host = hostname();
  /** Runs this store created or reopened: their end is recorded without looking them up first. */
  private readonly ownRuns = new Set<string>();
  private readonly batches: BatchTable;
  /** Documents are not changed once loaded: a document object's stored reference is kept with it. */
  private readonly documentRefs = new WeakMap<object, string>();
  private readonly texts: LongTexts;
  private readonly runs: RunTable;
  private readonly eventRows: EventTable;
  private readonly outputs: TaskOutputTable;
  private readonly checkpoints: CheckpointTable;
  private readonly commits: GroupCommit;

  /** Takes ownership of `db`: `close()` closes it. The schema must be migrated (see `openDatabase`). */
  constructor(private readonly db: Database) {
    this.texts = new LongTexts(db);
    this.batches = new BatchTable(db);
    this.runs = new RunTable(db, this.texts, this.host);
    this.eventRows = new EventTable(db, this.texts);
    this.outputs = new TaskOutputTable(db, this.texts);
    this.checkpoints = new CheckpointTable(db, this.texts);
    this.commits = new GroupCommit(db, (item) => this.insert(item));
    openStores.add(this);
  }

  static open(workspace: string): SqliteRunStore {
    return new SqliteRunStore(openDatabase(workspaceDatabasePath(workspace)));
  }

  /** The workspace's store if it has one; never creates `.crewdeck/` (for read-only commands). */
  static openExisting(workspace: string): SqliteRunStore | undefined {
    const file = workspaceDatabasePath(workspace);
    return existsSync(file) ? new SqliteRunStore(openDatabase(file)) : undefined;
  }

  /** Queued: the run's row goes in its first turn's commit, with its first events. */
  createRun(run: NewRun): void {
    this.commits.throwFailure();
    this.ownRuns.add(run.id);
    this.commits.queue({
      kind: 'run',
      values: [
        run.id,
        run.kind,
        run.documentId,
        run.name,
        // Stored once per version (by content hash): a run holds a reference to its document's text.
        this.documentRef(run.document),
        run.documentPath ?? null,
        JSON.stringify(run.inputs),
        run.replayOf?.runId ?? null,
        // One column for the step replayed from: a crew's task, a flow's method (the run's kind says which).
        run.replayOf ? ('fromTaskId' in run.replayOf ? run.replayOf.fromTaskId : run.replayOf.fromMethodId) : null,
        run.startedAt,
        process.pid,
        this.host,
      ],
    });
  }

  /** One queued item, inside the commit's transaction. */
  private insert(item: PendingItem): void {
    if (!(item instanceof Queued)) {
      this.eventRows.insert(item);
      return;
    }
    const write = item.write;
    switch (write.kind) {
      case 'run':
        this.runs.insert(write.values);
        return;
      case 'output':
        return this.outputs.save(write.output);
      case 'checkpoint':
        // A new checkpoint replaces the last one and the entries appended to it.
        this.checkpoints.save(write.runId, write.json, write.at);
        return;
      case 'entry':
        this.checkpoints.appendEntry(write.runId, write.entry);
        return;
      case 'end':
        if (!this.runs.end(write.values)) throw new RunNotFound(write.runId);
        return;
      case 'row':
        this.batches.change(write.batchId, write.index, write.change);
        return;
    }
  }

  /** The stored reference of a document; the same document object (a batch's rows) is serialised once. */
  private documentRef(document: unknown): string {
    if (document === null || typeof document !== 'object') return this.texts.packAlways(JSON.stringify(document));
    let ref = this.documentRefs.get(document);
    if (!ref) {
      ref = this.texts.packAlways(JSON.stringify(document));
      this.documentRefs.set(document, ref);
    }
    return ref;
  }

  /**
   * Events are committed in groups: everything emitted during one turn of the event loop goes in one
   * transaction at the end of that turn (before the runtime can wait on a model or a tool), and every
   * other call here — and process exit — commits pending events first. One commit per event cost
   * ~45 µs and dominated the runtime's overhead (docs/PERFORMANCE.md); grouping keeps the events of a
   * killed run up to its last completed turn.
   */
  appendEvent(event: RuntimeEvent): void {
    // Stream deltas reach live listeners only: `llm.completed` stores the whole reply once.
    if (isLiveOnly(event)) return;
    this.commits.append(event);
  }

  commitPending(): void {
    this.commits.commitPending();
  }

  /** Commits what was written so far; throws if this or an earlier scheduled commit failed. */
  flush(): void {
    this.commits.flush();
  }

  /**
   * Grouped like an event: a task's output goes in the commit of its `task.completed` (and of the next
   * task's first events), not in two commits of its own — one commit per task instead of three.
   */
  saveTaskOutput(output: StoredTaskOutput): void {
    this.commits.throwFailure();
    this.commits.queue({ kind: 'output', output });
  }

  /**
   * Queued like an event: a run's end goes in the commit of its last events (a run that ends and the
   * next that starts in the same turn — a batch's rows — share one). A run this store neither created
   * nor reopened is looked up first, so an unknown run is refused here, not at the commit.
   */
  finishRun(runId: string, end: RunEnd): void {
    this.commits.throwFailure();
    if (!this.ownRuns.has(runId) && !this.runs.exists(runId)) {
      this.flush();
      if (!this.runs.exists(runId)) throw new RunNotFound(runId);
    }
    this.commits.queue({
      kind: 'end',
      runId,
      values: [end.status, this.texts.packText(end.output == null ? null : redactKnown(end.output)), end.error == null ? null : redactKnown(end.error), JSON.stringify(end.tokenUsage), end.endedAt, runId],
    });
    this.ownRuns.delete(runId);
  }

  getRun(runId: string): RunRecord | undefined {
    this.flush();
    const record = this.runs.record(runId);
    if (!record) return undefined;
    if (record.kind === 'flow') {
      const stubs = this.eventRows.stubsReached(runId);
      if (stubs.length > 0) record.stubsReached = stubs;
    }
    return record;
  }

  listRuns(options: { limit?: number; offset?: number; documentId?: string } = {}): RunSummary[] {
    this.flush();
    const limit = Math.max(0, Math.floor(options.limit ?? DEFAULT_LIST_LIMIT));
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    return this.runs.list(limit, offset, options.documentId);
  }

  events(runId: string, afterSeq = 0, limit = -1): RuntimeEvent[] {
    this.flush();
    return this.eventRows.list(runId, afterSeq, limit);
  }

  taskOutputs(runId: string): StoredTaskOutput[] {
    this.flush();
    return this.outputs.list(runId);
  }

  lastSeq(runId: string): number {
    this.flush();
    return this.eventRows.lastSeq(runId);
  }

  /** Queued (serialised now: the caller may go on changing the object), in order with the entries. */
  saveCheckpoint(runId: string, checkpoint: unknown): void {
    this.commits.throwFailure();
    this.commits.queue({ kind: 'checkpoint', runId, json: JSON.stringify(redactKnownDeep(checkpoint)), at: Date.now() });
  }

  loadCheckpoint(runId: string): unknown {
    this.flush();
    return this.checkpoints.load(runId);
  }

  appendCheckpointEntry(runId: string, entry: unknown): void {
    this.commits.throwFailure();
    this.commits.queue({ kind: 'entry', runId, entry: redactKnownDeep(entry) });
  }

  checkpointEntries(runId: string): unknown[] {
    this.flush();
    return this.checkpoints.entries(runId);
  }

  createBatch(batch: NewBatch): void {
    this.flush();
    this.batches.insert(batch, process.pid, this.host);
  }

  updateBatchRow(batchId: string, index: number, change: RowChange): void {
    this.commits.throwFailure();
    this.commits.queue({ kind: 'row', batchId, index, change });
  }

  finishBatch(batchId: string, status: Exclude<BatchStatus, 'running' | 'interrupted'>, endedAt: number): void {
    this.flush();
    if (!this.batches.finish(batchId, status, endedAt)) throw new BatchNotFound(batchId);
  }

  reopenBatch(batchId: string): void {
    this.flush();
    const row = this.batches.row(batchId);
    if (!row) throw new BatchNotFound(batchId);
    if (row.status === 'running' && this.batchAlive(row)) {
      throw new BatchNotResumable(`batch ${batchId} is still running in process ${row.pid ?? '?'} on ${row.host ?? '?'}; stop it there (or wait for it) first`);
    }
    this.batches.reopen(batchId, process.pid, this.host);
  }

  getBatch(batchId: string): BatchRecord | undefined {
    this.flush();
    return this.batches.get(batchId, this.batchAlive);
  }

  listBatches(options: { limit?: number; offset?: number } = {}): BatchSummary[] {
    this.flush();
    const limit = Math.max(0, Math.floor(options.limit ?? DEFAULT_LIST_LIMIT));
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    return this.batches.list(limit, offset, this.batchAlive);
  }

  /** Whether the process that runs a batch is alive (this one, or one on another host we cannot check). */
  private readonly batchAlive = (row: StoredBatchRow): boolean =>
    row.pid === null || row.host !== this.host || row.pid === process.pid || !processGone(row.pid);

  reopenRun(runId: string): void {
    this.flush();
    const reopened = this.runs.reopen(runId, process.pid);
    if (reopened) this.ownRuns.add(runId);
    if (!reopened) {
      // Only a paused or interrupted run reopens: of two resumes racing (two windows, the app and the CLI), one wins.
      const run = this.getRun(runId);
      if (!run) throw new RunNotFound(runId);
      throw new RunNotReopenable(`run ${runId} is ${run.status}; only paused or interrupted flows can be resumed`);
    }
  }

  close(): void {
    this.flush();
    openStores.delete(this);
    closeKeepingWal(this.db);
  }
}
