import type { Database } from 'better-sqlite3';
import type { TestSession, TrainingSession } from '../../shared/training';

type CrewSession = TrainingSession | TestSession;

interface SessionRow {
  id: string;
  crew_id: string;
  name: string;
  document_path: string | null;
  iterations: number;
  eval_model: string | null;
  status: string;
  run_ids: string;
  evaluation_run_id: string | null;
  started_at: number;
  ended_at: number | null;
  error: string | null;
}

/**
 * Training and test sessions (a crew run `iterations` times with an evaluator model): one table each in
 * the workspace database, with the same columns (migration 3).
 */
export class SessionTable<S extends CrewSession> {
  constructor(
    private readonly db: Database,
    private readonly table: 'training_sessions' | 'test_sessions',
    private readonly now: () => number,
  ) {}

  create(session: Pick<S, 'id' | 'crewId' | 'name' | 'documentPath' | 'iterations' | 'evalModel'>): void {
    this.db
      .prepare(
        `INSERT INTO ${this.table} (id, crew_id, name, document_path, iterations, eval_model, status, started_at)
         VALUES (?, ?, ?, ?, ?, ?, 'running', ?)`,
      )
      .run(session.id, session.crewId, session.name, session.documentPath ?? null, session.iterations, session.evalModel ?? null, this.now());
  }

  addRun(id: string, runId: string): void {
    const session = this.get(id);
    if (!session) return;
    this.db.prepare(`UPDATE ${this.table} SET run_ids = ? WHERE id = ?`).run(JSON.stringify([...session.runIds, runId]), id);
  }

  /** The session's own run (its events and the evaluator's calls). */
  setEvaluationRun(id: string, runId: string): void {
    this.db.prepare(`UPDATE ${this.table} SET evaluation_run_id = ? WHERE id = ?`).run(runId, id);
  }

  /** A completed or failed session gets its end time. */
  setStatus(id: string, status: S['status'], error?: string): void {
    const ended = status === 'completed' || status === 'failed' ? this.now() : null;
    this.db.prepare(`UPDATE ${this.table} SET status = ?, error = ?, ended_at = ? WHERE id = ?`).run(status, error ?? null, ended, id);
  }

  get(id: string): S | undefined {
    const row = this.db.prepare<[string], SessionRow>(`SELECT * FROM ${this.table} WHERE id = ?`).get(id);
    return row ? toSession<S>(row) : undefined;
  }

  /** Newest first; optionally one crew's, and at most `limit`. */
  list(options: { crewId?: string; limit?: number } = {}): S[] {
    const limit = options.limit ?? -1; // SQLite: no limit
    const rows = options.crewId
      ? this.db.prepare<[string, number], SessionRow>(`SELECT * FROM ${this.table} WHERE crew_id = ? ORDER BY started_at DESC, id DESC LIMIT ?`).all(options.crewId, limit)
      : this.db.prepare<[number], SessionRow>(`SELECT * FROM ${this.table} ORDER BY started_at DESC, id DESC LIMIT ?`).all(limit);
    return rows.map((row) => toSession<S>(row));
  }
}

function toSession<S extends CrewSession>(row: SessionRow): S {
  const runIds: unknown = JSON.parse(row.run_ids);
  if (!Array.isArray(runIds) || !runIds.every((id) => typeof id === 'string')) throw new Error(`stored run ids of session ${row.id} are not a list of strings`);
  return {
    id: row.id,
    crewId: row.crew_id,
    name: row.name,
    ...(row.document_path !== null ? { documentPath: row.document_path } : {}),
    iterations: row.iterations,
    ...(row.eval_model !== null ? { evalModel: row.eval_model } : {}),
    status: row.status,
    runIds,
    ...(row.evaluation_run_id !== null ? { evaluationRunId: row.evaluation_run_id } : {}),
    startedAt: row.started_at,
    ...(row.ended_at !== null ? { endedAt: row.ended_at } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
  } as S;
}
