import type { Database, Statement } from 'better-sqlite3';
import type { BatchRecord, BatchRowRecord, BatchRowStatus, BatchStatus, BatchSummary, NewBatch } from './types';

interface BatchRow {
  id: string;
  document_id: string;
  name: string;
  document_path: string;
  concurrency: number;
  source: string | null;
  model: string | null;
  inputs: string;
  status: Exclude<BatchStatus, 'interrupted'>;
  created_at: number;
  ended_at: number | null;
  pid: number | null;
  host: string | null;
}

interface RowRow {
  idx: number;
  inputs: string;
  status: BatchRowStatus;
  run_id: string;
  error: string | null;
}

const ROW_STATUSES: BatchRowStatus[] = ['queued', 'running', 'paused', 'completed', 'failed', 'cancelled'];

export type RowChange = { status: BatchRowStatus; runId?: string; error?: string };

/** The workspace database's `batches` and `batch_rows` (migration 7), for SqliteRunStore. */
export class BatchTable {
  private readonly insertBatch: Statement<unknown[], void>;
  private readonly insertRow: Statement<unknown[], void>;
  private readonly updateRow: Statement<unknown[], void>;
  private readonly updateEnd: Statement<unknown[], void>;
  private readonly updateReopen: Statement<unknown[], void>;
  private readonly selectBatch: Statement<[string], BatchRow>;
  private readonly selectRows: Statement<[string], RowRow>;
  private readonly selectBatches: Statement<[number, number], BatchRow & { counts: string }>;
  private readonly create: (batch: NewBatch, pid: number, host: string) => void;

  constructor(db: Database) {
    this.insertBatch = db.prepare(`
      INSERT INTO batches (id, document_id, name, document_path, concurrency, source, model, inputs, status, created_at, pid, host)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)`);
    this.insertRow = db.prepare("INSERT INTO batch_rows (batch_id, idx, inputs, status, run_id) VALUES (?, ?, ?, 'queued', ?)");
    this.updateRow = db.prepare('UPDATE batch_rows SET status = ?, run_id = COALESCE(?, run_id), error = ? WHERE batch_id = ? AND idx = ?');
    this.updateEnd = db.prepare('UPDATE batches SET status = ?, ended_at = ? WHERE id = ?');
    this.updateReopen = db.prepare("UPDATE batches SET status = 'running', ended_at = NULL, pid = ?, host = ? WHERE id = ?");
    this.selectBatch = db.prepare('SELECT * FROM batches WHERE id = ?');
    this.selectRows = db.prepare('SELECT idx, inputs, status, run_id, error FROM batch_rows WHERE batch_id = ? ORDER BY idx');
    // Row counts by status, one grouped read per page of batches.
    this.selectBatches = db.prepare(`
      SELECT b.*, (SELECT json_group_object(status, n) FROM (SELECT status, COUNT(*) AS n FROM batch_rows WHERE batch_id = b.id GROUP BY status)) AS counts
      FROM batches b ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`);
    this.create = db.transaction((batch: NewBatch, pid: number, host: string) => {
      this.insertBatch.run(
        batch.id,
        batch.documentId,
        batch.name,
        batch.documentPath,
        batch.concurrency,
        batch.source ?? null,
        batch.model ?? null,
        JSON.stringify(batch.inputs ?? {}),
        batch.createdAt,
        pid,
        host,
      );
      batch.rows.forEach((row, index) => this.insertRow.run(batch.id, index, JSON.stringify(row.inputs), row.runId));
    });
  }

  insert(batch: NewBatch, pid: number, host: string): void {
    this.create(batch, pid, host);
  }

  /** Returns whether the row exists. */
  change(batchId: string, index: number, change: RowChange): boolean {
    return this.updateRow.run(change.status, change.runId ?? null, change.error ?? null, batchId, index).changes > 0;
  }

  finish(batchId: string, status: Exclude<BatchStatus, 'running' | 'interrupted'>, endedAt: number): boolean {
    return this.updateEnd.run(status, endedAt, batchId).changes > 0;
  }

  reopen(batchId: string, pid: number, host: string): void {
    this.updateReopen.run(pid, host, batchId);
  }

  /** The stored row, for the store's liveness check (pid and host). */
  row(batchId: string): BatchRow | undefined {
    return this.selectBatch.get(batchId);
  }

  get(batchId: string, alive: (row: BatchRow) => boolean): BatchRecord | undefined {
    const row = this.selectBatch.get(batchId);
    if (!row) return undefined;
    const rows = this.selectRows.all(batchId).map(toRowRecord);
    return { ...base(row, alive), inputs: JSON.parse(row.inputs) as Record<string, string>, rows };
  }

  list(limit: number, offset: number, alive: (row: BatchRow) => boolean): BatchSummary[] {
    return this.selectBatches.all(limit, offset).map((row) => {
      const counts = (row.counts ? JSON.parse(row.counts) : {}) as Partial<Record<BatchRowStatus, number>>;
      const byStatus = Object.fromEntries(ROW_STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<BatchRowStatus, number>;
      return { ...base(row, alive), rows: { total: ROW_STATUSES.reduce((n, s) => n + byStatus[s], 0), ...byStatus } };
    });
  }
}

export type { BatchRow as StoredBatchRow };

function base(row: BatchRow, alive: (row: BatchRow) => boolean): Omit<BatchSummary, 'rows'> {
  const summary: Omit<BatchSummary, 'rows'> = {
    id: row.id,
    documentId: row.document_id,
    name: row.name,
    documentPath: row.document_path,
    // Running in a process that is gone: nothing will start its remaining rows until it is resumed.
    status: row.status === 'running' && !alive(row) ? 'interrupted' : row.status,
    concurrency: row.concurrency,
    createdAt: row.created_at,
  };
  if (row.source !== null) summary.source = row.source;
  if (row.model !== null) summary.model = row.model;
  if (row.ended_at !== null) summary.endedAt = row.ended_at;
  return summary;
}

function toRowRecord(row: RowRow): BatchRowRecord {
  const record: BatchRowRecord = { index: row.idx, inputs: JSON.parse(row.inputs) as Record<string, string>, status: row.status, runId: row.run_id };
  if (row.error !== null) record.error = row.error;
  return record;
}
