import { redactKnownDeep } from '../redactSecrets';
import type { Database } from 'better-sqlite3';
import type { CheckResult, TestReport, TestResult, TestSession } from '../../shared/training';
import { emptyUsage, type TokenUsage } from '../../shared/usage';
import { openDatabase, workspaceDatabasePath } from '../store/database';
import { SessionTable } from '../store/sessionTable';
import { summariseTest } from './testReport';

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
  private readonly table: SessionTable<TestSession>;

  constructor(
    private readonly db: Database,
    now: () => number = Date.now,
  ) {
    this.table = new SessionTable(db, 'test_sessions', now);
  }

  static open(workspace: string, now?: () => number): TestStore {
    return new TestStore(openDatabase(workspaceDatabasePath(workspace)), now);
  }

  close(): void {
    this.db.close();
  }

  createSession(session: Pick<TestSession, 'id' | 'crewId' | 'name' | 'documentPath' | 'iterations' | 'evalModel'>): void {
    this.table.create(session);
  }

  addSessionRun(id: string, runId: string): void {
    this.table.addRun(id, runId);
  }

  /** The session's own run (`run.started.purpose.kind: "evaluation"`). */
  setEvaluationRun(id: string, runId: string): void {
    this.table.setEvaluationRun(id, runId);
  }

  setStatus(id: string, status: TestSession['status'], error?: string): void {
    this.table.setStatus(id, status, error);
  }

  addResult(sessionId: string, given: TestResult): void {
    const result = redactKnownDeep(given);
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
    return this.table.get(id);
  }

  /** Newest first (at most 100 unless told); optionally one crew's. */
  sessions(options: { crewId?: string; limit?: number } = {}): TestSession[] {
    return this.table.list({ crewId: options.crewId, limit: options.limit ?? 100 });
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
