import pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import type { RuntimeEvent } from '../../shared/events';
import { emptyUsage, type TokenUsage } from '../../shared/usage';
import type { StoredTaskOutput } from './types';
import type { TeamPending } from './postgresRunWrites';

// BIGINT columns (epoch milliseconds, sequence numbers) as numbers: they stay far below 2^53.
pg.types.setTypeParser(20, (value: string) => Number(value));

/** A team run's status, as the API reports it. */
export type TeamRunStatus = 'queued' | 'running' | 'waiting' | 'paused' | 'completed' | 'failed' | 'cancelled';

export const TEAM_RUN_STATUSES: readonly TeamRunStatus[] = ['queued', 'running', 'waiting', 'paused', 'completed', 'failed', 'cancelled'];

/** What a worker does with a queued run. */
export type TeamRunRequest =
  | { kind: 'start'; profile?: string; budget?: { maxTokens?: number; maxCostUsd?: number } }
  | { kind: 'replay'; sourceRunId: string; fromTaskId?: string; fromMethodId?: string; setOutput?: Record<string, string>; setState?: Record<string, unknown>; offline?: boolean }
  /** A run uploaded from a desktop (Share run): history only, never dispatched. */
  | { kind: 'shared' };

/** The answer accepted for a run's pending request. */
export interface TeamResumeRequest {
  requestId: string;
  feedback?: string;
  approve?: boolean;
  outcome?: string;
  budget?: { maxTokens?: number; maxCostUsd?: number };
}

export interface TeamWebhook {
  url: string;
  /** Event types (or prefixes ending in `*`) to send; all when absent. */
  events?: string[];
}

/** A row of `runs` as the API and the workers read it. */
export interface TeamRunRow {
  id: string;
  kind: 'crew' | 'flow';
  document_id: string;
  name: string;
  status: TeamRunStatus;
  document: unknown;
  document_path: string | null;
  inputs: Record<string, string>;
  replay_of_run_id: string | null;
  replay_from_step_id: string | null;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  output: string | null;
  error: string | null;
  token_usage: TokenUsage | null;
  pending: TeamPending | null;
  last_seq: number;
  deployment_id: string | null;
  version: number | null;
  key_id: string | null;
  request: TeamRunRequest;
  resume_request: TeamResumeRequest | null;
  cancel_requested: string | null;
  webhook: TeamWebhook | null;
  /** Why the run's webhook stopped (the address policy refused its URL at delivery). */
  webhook_error: string | null;
  batch_id: string | null;
  batch_row: number | null;
}

type Db = Pool | PoolClient;

export async function readTeamRun(db: Db, runId: string): Promise<TeamRunRow | undefined> {
  const result = await db.query<TeamRunRow>('SELECT * FROM runs WHERE id = $1', [runId]);
  return result.rows[0];
}

type EventRow = { seq: number; type: string; ts: number; span_id: string; parent_span_id: string | null; payload: string };

/** Events with seq > afterSeq in order, at most `limit` (all when undefined). */
export async function readTeamEvents(db: Db, runId: string, afterSeq = 0, limit?: number): Promise<RuntimeEvent[]> {
  const result = await db.query<EventRow>(
    `SELECT seq, type, ts, span_id, parent_span_id, payload FROM events WHERE run_id = $1 AND seq > $2 ORDER BY seq${limit === undefined ? '' : ' LIMIT $3'}`,
    limit === undefined ? [runId, afterSeq] : [runId, afterSeq, limit],
  );
  return result.rows.map((row) => eventFromRow(runId, row));
}

/** Same key order as the event log builds them (and the SQLite store returns them): type, payload, envelope. */
function eventFromRow(runId: string, row: EventRow): RuntimeEvent {
  const event = { type: row.type, ...(JSON.parse(row.payload) as object), runId, seq: row.seq, ts: row.ts, spanId: row.span_id } as RuntimeEvent;
  if (row.parent_span_id !== null) event.parentSpanId = row.parent_span_id;
  return event;
}

export async function readTeamOutputs(db: Db, runId: string): Promise<StoredTaskOutput[]> {
  const result = await db.query<{ task_id: string; idx: number; agent_role: string; raw: string; json: unknown; skipped: boolean; token_usage: TokenUsage | null }>(
    'SELECT task_id, idx, agent_role, raw, json, skipped, token_usage FROM task_outputs WHERE run_id = $1 ORDER BY idx, task_id',
    [runId],
  );
  return result.rows.map((row) => ({
    runId,
    taskId: row.task_id,
    index: row.idx,
    agentRole: row.agent_role,
    raw: row.raw,
    ...(row.json !== null ? { json: row.json } : {}),
    skipped: row.skipped,
    tokenUsage: { ...emptyUsage(), ...(row.token_usage ?? {}) },
  }));
}

export async function readTeamCheckpoint(db: Db, runId: string): Promise<unknown> {
  const result = await db.query<{ checkpoint: unknown }>('SELECT checkpoint FROM checkpoints WHERE run_id = $1', [runId]);
  return result.rows[0]?.checkpoint;
}

/** The entries appended to a run's checkpoint since it was saved, in order. */
export async function readTeamCheckpointEntries(db: Db, runId: string): Promise<unknown[]> {
  const result = await db.query<{ entry: unknown }>('SELECT entry FROM checkpoint_entries WHERE run_id = $1 ORDER BY seq', [runId]);
  return result.rows.map((r) => r.entry);
}
