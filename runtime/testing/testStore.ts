import type { Database } from 'better-sqlite3';
import type { CheckResult, TestReport, TestResult, TestSession } from '../../shared/training';
import { emptyUsage, type TokenUsage } from '../../shared/usage';
import { openDatabase, workspaceDatabasePath } from '../store/database';
import { summariseTest } from './testReport';

interface SessionRow {
  id: string;
  crew_id: string;
  name: string;
  document_path: string | null;
  iterations: number;
  eval_model: string | null;
  status: TestSession['status'];
  run_ids: string;
  started_at: number;
  ended_at: number | null;
  error: string | null;
}

interface ResultRow {
  session_id: string;
  iteration: number;
  run_id: string;
  task_id: string;
  idx: number;
  agent_role: string;
  status: TestResult['status'];
  score: number | null;
  reason: string;
  check_score: number | null;
  check_details: string;
  duration_ms: number;
  token_usage: string;
}

/** Crew tests and their per-task, per-iteration results in the workspace database (plain JSON/text). */
export class TestStore {
  /** Takes ownership of `db` (close() closes it). The schema must be migrated. */
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  static open(workspace: string, now?: () => number): TestStore {
    return new TestStore(openDatabase(workspaceDatabasePath(workspace)), now);
  }

  close(): void {
    this.db.close();
  }

  createSession(session: Pick<TestSession, 'id' | 'crewId' | 'name' | 'documentPath' | 'iterations' | 'evalModel'>): void {
    this.db
      .prepare(
        `INSERT INTO test_sessions (id, crew_id, name, document_path, iterations, eval_model, status, started_at)
         VALUES (?, ?, ?, ?, ?, ?, 'running', ?)`,
      )
      .run(session.id, session.crewId, session.name, session.documentPath ?? null, session.iterations, session.evalModel ?? null, this.now());
  }

  addSessionRun(id: string, runId: string): void {
    const session = this.session(id);
    if (!session) return;
    this.db.prepare('UPDATE test_sessions SET run_ids = ? WHERE id = ?').run(JSON.stringify([...session.runIds, runId]), id);
  }

  setStatus(id: string, status: TestSession['status'], error?: string): void {
    this.db.prepare('UPDATE test_sessions SET status = ?, error = ?, ended_at = ? WHERE id = ?').run(status, error ?? null, status === 'running' ? null : this.now(), id);
  }

  addResult(sessionId: string, result: TestResult): void {
    this.db
      .prepare(
        `INSERT INTO test_results (session_id, iteration, run_id, task_id, idx, agent_role, status, score, reason, check_score, check_details, duration_ms, token_usage)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        sessionId,
        result.iteration,
        result.runId,
        result.taskId,
        result.index,
        result.role,
        result.status,
        result.score ?? null,
        result.reason,
        result.checkScore ?? null,
        JSON.stringify(result.checks),
        result.durationMs,
        JSON.stringify(result.tokenUsage),
      );
  }

  session(id: string): TestSession | undefined {
    const row = this.db.prepare<[string], SessionRow>('SELECT * FROM test_sessions WHERE id = ?').get(id);
    return row ? toSession(row) : undefined;
  }

  /** Newest first; optionally one crew's. */
  sessions(options: { crewId?: string; limit?: number } = {}): TestSession[] {
    const limit = options.limit ?? 100;
    const rows = options.crewId
      ? this.db.prepare<[string, number], SessionRow>('SELECT * FROM test_sessions WHERE crew_id = ? ORDER BY started_at DESC, id DESC LIMIT ?').all(options.crewId, limit)
      : this.db.prepare<[number], SessionRow>('SELECT * FROM test_sessions ORDER BY started_at DESC, id DESC LIMIT ?').all(limit);
    return rows.map(toSession);
  }

  results(sessionId: string): TestResult[] {
    return this.db
      .prepare<[string], ResultRow>('SELECT * FROM test_results WHERE session_id = ? ORDER BY iteration, idx, task_id')
      .all(sessionId)
      .map(toResult);
  }

  report(sessionId: string): TestReport | undefined {
    const session = this.session(sessionId);
    return session ? summariseTest(session, this.results(sessionId)) : undefined;
  }
}

function toSession(row: SessionRow): TestSession {
  const runIds: unknown = JSON.parse(row.run_ids);
  return {
    id: row.id,
    crewId: row.crew_id,
    name: row.name,
    ...(row.document_path !== null ? { documentPath: row.document_path } : {}),
    iterations: row.iterations,
    ...(row.eval_model !== null ? { evalModel: row.eval_model } : {}),
    status: row.status,
    runIds: Array.isArray(runIds) ? runIds.map(String) : [],
    startedAt: row.started_at,
    ...(row.ended_at !== null ? { endedAt: row.ended_at } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
  };
}

function toResult(row: ResultRow): TestResult {
  const checks: unknown = JSON.parse(row.check_details);
  return {
    iteration: row.iteration,
    runId: row.run_id,
    taskId: row.task_id,
    index: row.idx,
    role: row.agent_role,
    status: row.status,
    ...(row.score !== null ? { score: row.score } : {}),
    reason: row.reason,
    ...(row.check_score !== null ? { checkScore: row.check_score } : {}),
    checks: Array.isArray(checks)
      ? checks.map((c: Partial<CheckResult>) => ({ type: String(c.type), pass: c.pass === true, ...(typeof c.reason === 'string' ? { reason: c.reason } : {}) }))
      : [],
    durationMs: row.duration_ms,
    tokenUsage: usage(row.token_usage),
  };
}

function usage(text: string): TokenUsage {
  const value: unknown = JSON.parse(text);
  return { ...emptyUsage(), ...(value && typeof value === 'object' ? (value as Partial<TokenUsage>) : {}) };
}
