import type { Database, Statement } from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { isLiveOnly, type EventPayloads, type RuntimeEvent, type StubReached } from '../../shared/events';
import { addStubReached } from '../../shared/stubsReached';
import { emptyUsage, type TokenUsage } from '../../shared/usage';
import { BatchNotFound, BatchNotResumable, RunNotFound, RunNotReopenable } from '../errors';
import { BatchTable, type RowChange, type StoredBatchRow } from './batchTable';
import { openDatabase, workspaceDatabasePath } from './database';
import { redactKnown, redactKnownDeep } from '../redactSecrets';
import { LongTexts } from './longTexts';
import { closeKeepingWal } from './walKeeper';
import type { BatchRecord, BatchStatus, BatchSummary, NewBatch, NewRun, RunEnd, RunRecord, RunStatus, RunStore, RunSummary, StoredTaskOutput } from './types';

interface RunRow {
  id: string;
  kind: 'crew' | 'flow';
  document_id: string;
  name: string;
  status: RunStatus;
  document: string;
  document_path: string | null;
  inputs: string;
  replay_of_run_id: string | null;
  replay_from_task_id: string | null;
  started_at: number;
  ended_at: number | null;
  output: string | null;
  error: string | null;
  token_usage: string | null;
  pid: number | null;
  host: string | null;
  offline_from: string | null;
}

type EventRow = [seq: number, type: string, ts: number, spanId: string, parentSpanId: string | null, payload: string];

interface TaskOutputRow {
  run_id: string;
  task_id: string;
  idx: number;
  agent_role: string;
  raw: string;
  json: string | null;
  skipped: number;
  token_usage: string | null;
}

const DEFAULT_LIST_LIMIT = 50;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

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
 * A write other than an event, queued in order with the events (see `appendEvent`): a run's row, a
 * task output, a whole checkpoint or an entry appended to one, a run's end, a batch row that moved.
 */
type Write =
  | { kind: 'run'; values: unknown[] }
  | { kind: 'output'; output: StoredTaskOutput }
  | { kind: 'checkpoint'; runId: string; json: string; at: number }
  | { kind: 'entry'; runId: string; entry: unknown }
  | { kind: 'end'; runId: string; values: unknown[] }
  | { kind: 'row'; batchId: string; index: number; change: RowChange };

/** A queued write (an event is queued as itself). */
class Queued {
  constructor(readonly write: Write) {}
}

/**
 * The run store on better-sqlite3. What a run writes is group-committed (see `appendEvent`): its row,
 * events, task outputs, checkpoints and end, in the order written, durable at the end of the event-loop
 * turn that wrote them, before any read here, and at process exit — one commit per turn. Batches
 * (created, finished, reopened) and reopened runs are their own commits.
 */
export class SqliteRunStore implements RunStore {
  private readonly host = hostname();
  private readonly insertRun: Statement<unknown[], void>;
  private readonly insertEvent: Statement<unknown[], void>;
  private readonly upsertTaskOutput: Statement<unknown[], void>;
  private readonly updateRunEnd: Statement<unknown[], void>;
  private readonly selectRun: Statement<[string], RunRow>;
  private readonly selectRuns: Statement<[number, number], RunRow>;
  private readonly selectRunsOfDocument: Statement<[string, number, number], RunRow>;
  private readonly selectEvents: Statement<[string, number, number], EventRow>;
  private readonly selectStubEvents: Statement<[string], { payload: string }>;
  private readonly selectTaskOutputs: Statement<[string], TaskOutputRow>;
  private readonly markInterrupted: Statement<[string, string], { ended_at: number }>;
  private readonly upsertCheckpoint: Statement<unknown[], void>;
  private readonly selectCheckpoint: Statement<[string], { checkpoint: string }>;
  private readonly deleteEntries: Statement<[string], void>;
  private readonly insertEntry: Statement<[string, string, string], void>;
  private readonly selectEntries: Statement<[string], { entry: string }>;
  private readonly updateReopen: Statement<unknown[], void>;
  private readonly selectLastSeq: Statement<[string], { seq: number | null }>;

  /** What this turn wrote, in order: committed in one transaction at its end (or before any read). */
  private pending: (RuntimeEvent | Queued)[] = [];
  /** Runs this store created or reopened: their end is recorded without looking them up first. */
  private readonly ownRuns = new Set<string>();
  private readonly batches: BatchTable;
  /** Documents are not changed once loaded: a document object's stored reference is kept with it. */
  private readonly documentRefs = new WeakMap<object, string>();
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
  private readonly insertBatch: (items: (RuntimeEvent | Queued)[]) => void;
  /** One write in a savepoint of its own (inside `insertBatch` after a failure: the others are kept). */
  private readonly insertOne: (item: RuntimeEvent | Queued) => void;
  private readonly selectRunExists: Statement<[string], { one: number }>;
  private readonly texts: LongTexts;

  /** Takes ownership of `db`: `close()` closes it. The schema must be migrated (see `openDatabase`). */
  constructor(private readonly db: Database) {
    this.texts = new LongTexts(db);
    this.batches = new BatchTable(db);
    this.insertRun = db.prepare(`
      INSERT INTO runs (id, kind, document_id, name, status, document, document_path, inputs,
                        replay_of_run_id, replay_from_task_id, started_at, pid, host)
      VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.insertEvent = db.prepare(
      'INSERT INTO events (run_id, seq, type, ts, span_id, parent_span_id, payload) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.upsertTaskOutput = db.prepare(`
      INSERT INTO task_outputs (run_id, task_id, idx, agent_role, raw, json, skipped, token_usage)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (run_id, task_id) DO UPDATE SET
        idx = excluded.idx, agent_role = excluded.agent_role, raw = excluded.raw, json = excluded.json,
        skipped = excluded.skipped, token_usage = excluded.token_usage`);
    this.updateRunEnd = db.prepare(
      'UPDATE runs SET status = ?, output = ?, error = ?, token_usage = ?, ended_at = ? WHERE id = ?',
    );
    // An offline re-run is marked in its run.started event (its first).
    const offlineFrom = "(SELECT json_extract(payload, '$.offlineFrom') FROM events WHERE run_id = runs.id AND seq = 1) AS offline_from";
    this.selectRun = db.prepare(`SELECT *, ${offlineFrom} FROM runs WHERE id = ?`);
    this.selectRuns = db.prepare(`SELECT *, ${offlineFrom} FROM runs ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`);
    // Served by the runs_document index (migration 6): a document's runs cost their page, not the whole table.
    this.selectRunsOfDocument = db.prepare(`SELECT *, ${offlineFrom} FROM runs WHERE document_id = ? ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`);
    this.selectEvents = db
      .prepare<[string, number, number], EventRow>(
        'SELECT seq, type, ts, span_id, parent_span_id, payload FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      )
      .raw(true);
    this.selectTaskOutputs = db.prepare('SELECT * FROM task_outputs WHERE run_id = ? ORDER BY idx, task_id');
    this.selectStubEvents = db.prepare("SELECT payload FROM events WHERE run_id = ? AND type = 'flow.stub.reached' ORDER BY seq");
    this.insertBatch = db.transaction((items: (RuntimeEvent | Queued)[]) => {
      for (const item of items) this.insert(item);
    });
    this.insertOne = db.transaction((item: RuntimeEvent | Queued) => this.insert(item));
    this.selectRunExists = db.prepare('SELECT 1 AS one FROM runs WHERE id = ?');
    this.upsertCheckpoint = db.prepare(`
      INSERT INTO flow_checkpoints (run_id, checkpoint, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (run_id) DO UPDATE SET checkpoint = excluded.checkpoint, updated_at = excluded.updated_at`);
    this.selectCheckpoint = db.prepare('SELECT checkpoint FROM flow_checkpoints WHERE run_id = ?');
    this.deleteEntries = db.prepare('DELETE FROM checkpoint_entries WHERE run_id = ?');
    this.insertEntry = db.prepare('INSERT INTO checkpoint_entries (run_id, seq, entry) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM checkpoint_entries WHERE run_id = ?), ?)');
    this.selectEntries = db.prepare('SELECT entry FROM checkpoint_entries WHERE run_id = ? ORDER BY seq');
    this.updateReopen = db.prepare(
      "UPDATE runs SET status = 'running', ended_at = NULL, error = NULL, output = NULL, pid = ?, host = ? WHERE id = ? AND status IN ('paused', 'interrupted')",
    );
    this.selectLastSeq = db.prepare('SELECT MAX(seq) AS seq FROM events WHERE run_id = ?');
    openStores.add(this);
    // A dead run ends at its last event (or its start, if it emitted none); its token usage is what
    // its completed model calls reported.
    const usageSum = (field: string) => `'${field}', COALESCE(SUM(json_extract(payload, '$.usage.${field}')), 0)`;
    this.markInterrupted = db.prepare(`
      UPDATE runs SET status = 'interrupted', error = ?,
        ended_at = COALESCE((SELECT MAX(ts) FROM events WHERE run_id = runs.id), started_at),
        token_usage = (SELECT json_object(${['promptTokens', 'completionTokens', 'cachedPromptTokens', 'totalTokens', 'requests'].map(usageSum).join(', ')})
                       FROM events WHERE run_id = runs.id AND type = 'llm.completed')
      WHERE id = ? AND status = 'running'
      RETURNING ended_at`);
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
    this.throwFailure();
    this.ownRuns.add(run.id);
    this.queue({
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

  private queue(write: Write): void {
    this.pending.push(new Queued(write));
    this.scheduleFlush();
  }

  /** One queued item, inside the commit's transaction. */
  private insert(item: RuntimeEvent | Queued): void {
    if (!(item instanceof Queued)) {
      const { type, runId, seq, ts, spanId, parentSpanId, ...payload } = item;
      this.insertEvent.run(runId, seq, type, ts, spanId, parentSpanId ?? null, this.texts.packJson(payload));
      return;
    }
    const write = item.write;
    switch (write.kind) {
      case 'run':
        this.insertRun.run(...write.values);
        return;
      case 'output':
        return this.insertOutput(write.output);
      case 'checkpoint':
        // A new checkpoint replaces the last one and the entries appended to it.
        this.upsertCheckpoint.run(write.runId, write.json, write.at);
        this.deleteEntries.run(write.runId);
        return;
      case 'entry':
        this.insertEntry.run(write.runId, write.runId, this.texts.packJson(write.entry));
        return;
      case 'end':
        if (this.updateRunEnd.run(...write.values).changes === 0) throw new RunNotFound(write.runId);
        return;
      case 'row':
        this.batches.change(write.batchId, write.index, write.change);
        return;
    }
  }

  private insertOutput(output: StoredTaskOutput): void {
    this.upsertTaskOutput.run(
      output.runId,
      output.taskId,
      output.index,
      output.agentRole,
      this.texts.packText(redactKnown(output.raw)),
      output.json === undefined ? null : this.texts.packJson(redactKnownDeep(output.json)),
      output.skipped ? 1 : 0,
      JSON.stringify(output.tokenUsage),
    );
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
  private insertApart(items: (RuntimeEvent | Queued)[]): void {
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
  private throwFailure(): void {
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

  /**
   * Grouped like an event: a task's output goes in the commit of its `task.completed` (and of the next
   * task's first events), not in two commits of its own — one commit per task instead of three.
   */
  saveTaskOutput(output: StoredTaskOutput): void {
    this.throwFailure();
    this.queue({ kind: 'output', output });
  }

  /**
   * Queued like an event: a run's end goes in the commit of its last events (a run that ends and the
   * next that starts in the same turn — a batch's rows — share one). A run this store neither created
   * nor reopened is looked up first, so an unknown run is refused here, not at the commit.
   */
  finishRun(runId: string, end: RunEnd): void {
    this.throwFailure();
    if (!this.ownRuns.has(runId) && !this.selectRunExists.get(runId)) {
      this.flush();
      if (!this.selectRunExists.get(runId)) throw new RunNotFound(runId);
    }
    this.queue({
      kind: 'end',
      runId,
      values: [end.status, this.texts.packText(end.output == null ? null : redactKnown(end.output)), end.error == null ? null : redactKnown(end.error), JSON.stringify(end.tokenUsage), end.endedAt, runId],
    });
    this.ownRuns.delete(runId);
  }

  getRun(runId: string): RunRecord | undefined {
    this.flush();
    const row = this.selectRun.get(runId);
    if (!row) return undefined;
    const current = this.checkAlive(row);
    const record: RunRecord = {
      ...toSummary(current),
      document: JSON.parse(this.texts.unpackText(current.document)),
      inputs: JSON.parse(current.inputs) as Record<string, string>,
    };
    if (current.output !== null) record.output = this.texts.unpackText(current.output);
    if (current.kind === 'flow') {
      let stubs: StubReached[] = [];
      for (const { payload } of this.selectStubEvents.all(runId)) stubs = addStubReached(stubs, this.texts.parseJson(payload) as EventPayloads['flow.stub.reached']);
      if (stubs.length > 0) record.stubsReached = stubs;
    }
    return record;
  }

  listRuns(options: { limit?: number; offset?: number; documentId?: string } = {}): RunSummary[] {
    this.flush();
    const limit = Math.max(0, Math.floor(options.limit ?? DEFAULT_LIST_LIMIT));
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    const rows = options.documentId === undefined ? this.selectRuns.all(limit, offset) : this.selectRunsOfDocument.all(options.documentId, limit, offset);
    return rows.map((row) => toSummary(this.checkAlive(row)));
  }

  events(runId: string, afterSeq = 0, limit = -1): RuntimeEvent[] {
    this.flush();
    return this.selectEvents.all(runId, afterSeq, limit).map(([seq, type, ts, spanId, parentSpanId, payload]) => {
      // Same key order as the event log builds them: type, payload, envelope.
      const event = { type, ...(this.texts.parseJson(payload) as object), runId, seq, ts, spanId } as RuntimeEvent;
      if (parentSpanId !== null) event.parentSpanId = parentSpanId;
      return event;
    });
  }

  taskOutputs(runId: string): StoredTaskOutput[] {
    this.flush();
    return this.selectTaskOutputs.all(runId).map((row) => {
      const output: StoredTaskOutput = {
        runId: row.run_id,
        taskId: row.task_id,
        index: row.idx,
        agentRole: row.agent_role,
        raw: this.texts.unpackText(row.raw),
        skipped: row.skipped !== 0,
        tokenUsage: parseUsage(row.token_usage),
      };
      if (row.json !== null) output.json = this.texts.parseJson(row.json);
      return output;
    });
  }

  lastSeq(runId: string): number {
    this.flush();
    return this.selectLastSeq.get(runId)?.seq ?? 0;
  }

  /** Queued (serialised now: the caller may go on changing the object), in order with the entries. */
  saveCheckpoint(runId: string, checkpoint: unknown): void {
    this.throwFailure();
    this.queue({ kind: 'checkpoint', runId, json: JSON.stringify(redactKnownDeep(checkpoint)), at: Date.now() });
  }

  loadCheckpoint(runId: string): unknown {
    this.flush();
    const row = this.selectCheckpoint.get(runId);
    return row ? JSON.parse(row.checkpoint) : undefined;
  }

  appendCheckpointEntry(runId: string, entry: unknown): void {
    this.throwFailure();
    this.queue({ kind: 'entry', runId, entry: redactKnownDeep(entry) });
  }

  checkpointEntries(runId: string): unknown[] {
    this.flush();
    return this.selectEntries.all(runId).map((row) => this.texts.parseJson(row.entry));
  }

  createBatch(batch: NewBatch): void {
    this.flush();
    this.batches.insert(batch, process.pid, this.host);
  }

  updateBatchRow(batchId: string, index: number, change: RowChange): void {
    this.throwFailure();
    this.queue({ kind: 'row', batchId, index, change });
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
    const result = this.updateReopen.run(process.pid, this.host, runId);
    if (result.changes > 0) this.ownRuns.add(runId);
    if (result.changes === 0) {
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

  /**
   * A run still marked running whose process on this host has died (killed, crashed) will never
   * finish: record it as interrupted, keeping its events.
   */
  private checkAlive(row: RunRow): RunRow {
    if (row.status !== 'running' || row.pid === null || row.host !== this.host || row.pid === process.pid) return row;
    if (!processGone(row.pid)) return row;
    const error = `process ${row.pid} on ${row.host} exited before the run finished`;
    const updated = this.markInterrupted.get(error, row.id);
    // Another process may have marked it first; read back what is stored.
    if (!updated) return this.selectRun.get(row.id) ?? row;
    return { ...row, status: 'interrupted', error, ended_at: updated.ended_at };
  }
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function toSummary(row: RunRow): RunSummary {
  const summary: RunSummary = {
    id: row.id,
    kind: row.kind,
    documentId: row.document_id,
    name: row.name,
    status: row.status,
    startedAt: row.started_at,
    tokenUsage: parseUsage(row.token_usage),
  };
  if (row.ended_at !== null) {
    summary.endedAt = row.ended_at;
    summary.durationMs = row.ended_at - row.started_at;
  }
  if (row.replay_of_run_id !== null && row.replay_from_task_id !== null) {
    summary.replayOf = row.kind === 'flow' ? { runId: row.replay_of_run_id, fromMethodId: row.replay_from_task_id } : { runId: row.replay_of_run_id, fromTaskId: row.replay_from_task_id };
  }
  if (row.error !== null) summary.error = row.error;
  if (row.document_path !== null) summary.documentPath = row.document_path;
  if (row.offline_from !== null) summary.offlineFrom = row.offline_from;
  return summary;
}

function parseUsage(text: string | null): TokenUsage {
  return text === null ? emptyUsage() : { ...emptyUsage(), ...(JSON.parse(text) as Partial<TokenUsage>) };
}
