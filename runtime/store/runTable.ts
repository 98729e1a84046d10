import type { Database, Statement } from 'better-sqlite3';
import type { LongTexts } from './longTexts';
import { processGone } from './processGone';
import { parseUsage } from './storedUsage';
import type { RunRecord, RunStatus, RunSummary } from './types';

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

/** The workspace database's `runs`, for SqliteRunStore. */
export class RunTable {
  private readonly insertRun: Statement<unknown[], void>;
  private readonly updateRunEnd: Statement<unknown[], void>;
  private readonly selectRun: Statement<[string], RunRow>;
  private readonly selectRuns: Statement<[number, number], RunRow>;
  private readonly selectRunsOfDocument: Statement<[string, number, number], RunRow>;
  private readonly markInterrupted: Statement<[string, string], { ended_at: number }>;
  private readonly updateReopen: Statement<unknown[], void>;
  private readonly selectRunExists: Statement<[string], { one: number }>;

  constructor(
    db: Database,
    private readonly texts: LongTexts,
    private readonly host: string,
  ) {
    this.insertRun = db.prepare(`
      INSERT INTO runs (id, kind, document_id, name, status, document, document_path, inputs,
                        replay_of_run_id, replay_from_task_id, started_at, pid, host)
      VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.updateRunEnd = db.prepare(
      'UPDATE runs SET status = ?, output = ?, error = ?, token_usage = ?, ended_at = ? WHERE id = ?',
    );
    // An offline re-run is marked in its run.started event (its first).
    const offlineFrom = "(SELECT json_extract(payload, '$.offlineFrom') FROM events WHERE run_id = runs.id AND seq = 1) AS offline_from";
    this.selectRun = db.prepare(`SELECT *, ${offlineFrom} FROM runs WHERE id = ?`);
    this.selectRuns = db.prepare(`SELECT *, ${offlineFrom} FROM runs ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`);
    // Served by the runs_document index (migration 6): a document's runs cost their page, not the whole table.
    this.selectRunsOfDocument = db.prepare(`SELECT *, ${offlineFrom} FROM runs WHERE document_id = ? ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`);
    this.selectRunExists = db.prepare('SELECT 1 AS one FROM runs WHERE id = ?');
    this.updateReopen = db.prepare(
      "UPDATE runs SET status = 'running', ended_at = NULL, error = NULL, output = NULL, pid = ?, host = ? WHERE id = ? AND status IN ('paused', 'interrupted')",
    );
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

  insert(values: unknown[]): void {
    this.insertRun.run(...values);
  }

  /** Returns whether the run exists. */
  end(values: unknown[]): boolean {
    return this.updateRunEnd.run(...values).changes > 0;
  }

  exists(runId: string): boolean {
    return this.selectRunExists.get(runId) !== undefined;
  }

  /** Only a paused or interrupted run reopens; returns whether it did. */
  reopen(runId: string, pid: number): boolean {
    return this.updateReopen.run(pid, this.host, runId).changes > 0;
  }

  /** The run's record (its liveness checked), or undefined for an unknown run. */
  record(runId: string): RunRecord | undefined {
    const row = this.selectRun.get(runId);
    if (!row) return undefined;
    const current = this.checkAlive(row);
    const record: RunRecord = {
      ...toSummary(current),
      document: JSON.parse(this.texts.unpackText(current.document)),
      inputs: JSON.parse(current.inputs) as Record<string, string>,
    };
    if (current.output !== null) record.output = this.texts.unpackText(current.output);
    return record;
  }

  list(limit: number, offset: number, documentId: string | undefined): RunSummary[] {
    const rows = documentId === undefined ? this.selectRuns.all(limit, offset) : this.selectRunsOfDocument.all(documentId, limit, offset);
    return rows.map((row) => toSummary(this.checkAlive(row)));
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
