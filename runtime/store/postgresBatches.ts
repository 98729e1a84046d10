import type { Pool, PoolClient } from 'pg';
import type { BatchRecord, BatchRowRecord, BatchRowStatus, BatchStatus, BatchSummary } from './types';
import type { TeamRunRequest, TeamRunStatus } from './postgresRunReads';

/**
 * Team batches, read in the shapes of the run store's BatchStore (BatchRecord, BatchSummary), so
 * `crewdeck batches list|show --server`, `GET /v1/batches` and the local commands print one thing.
 *
 * Why a team batch lives in the server's own tables (`batches`, `batch_rows`, written by
 * runtime/team/teamBatches.ts) and not behind BatchStore's write methods: BatchStore describes a batch one
 * process runs — that process records each row as it starts and ends, the batch is `interrupted` when the
 * process is gone, and `reopenBatch` hands it to a new process. A team batch has no such process: every
 * worker tops it up (under the batch row's lock, `concurrency` runs at a time), a row's status is its run's
 * (a join, never written twice), and it cannot be interrupted — a top-up lost with a worker or with Redis is
 * done again by the reconciler. And BatchStore is synchronous, for SQLite; a job's PostgresRunStore is a
 * working copy of the one run it advances. So the job store refuses the BatchStore methods
 * (TeamBatchesOnServer), and these readers map the server's tables onto the same shapes:
 * - a row not started is `queued`; a started row has its run's status (`waiting`/`paused` → `paused`);
 *   a row cancelled before it started is `cancelled`;
 * - the batch is `running` until every row ended, then `completed` / `failed` / `cancelled` as a local
 *   batch's outcome is computed (batchOutcome), `cancelled` when it was cancelled;
 * - `documentId` is the deployment, `documentPath` the path in the version it runs, `model` the profile.
 */

/** A team batch as a BatchRecord, with the server's own words beside it. */
export type TeamBatchRecord = BatchRecord & TeamBatchExtras & { counts: Partial<Record<BatchRowStatus, number>> };
export type TeamBatchSummary = BatchSummary & TeamBatchExtras;

interface TeamBatchExtras {
  /** The same as `id` (the API's first name for it). */
  batchId: string;
  deploymentId: string;
  version: number;
  team: { status: 'running' | 'completed' | 'cancelled' };
}

type Db = Pool | PoolClient;

interface BatchRow {
  id: string;
  deployment_id: string;
  version: number;
  concurrency: number;
  status: 'running' | 'completed' | 'cancelled';
  options: { name: string; request: TeamRunRequest };
  created_at: number;
  ended_at: number | null;
  document_path: string | null;
}

const BATCH_COLUMNS = `b.id, b.deployment_id, b.version, b.concurrency, b.status, b.options, b.created_at, b.ended_at, v.document_path
  FROM batches b LEFT JOIN deployment_versions v ON v.deployment_id = b.deployment_id AND v.version = b.version`;

/** A row's status from its own and its run's. */
export function teamRowStatus(row: 'pending' | 'started' | 'cancelled', run: TeamRunStatus | null): BatchRowStatus {
  if (row === 'pending') return 'queued';
  if (row === 'cancelled' || run === null) return 'cancelled';
  if (run === 'waiting' || run === 'paused') return 'paused';
  return run;
}

/** The batch's status in BatchStore's words. */
export function teamBatchStatus(status: BatchRow['status'], rows: readonly BatchRowStatus[]): BatchStatus {
  if (status === 'running') return 'running';
  if (status === 'cancelled') return 'cancelled';
  // As a local batch's outcome (runtime/batch/storedBatch.ts batchOutcome): all completed, one failed, else stopped.
  if (rows.some((s) => s === 'queued' || s === 'running' || s === 'paused')) return 'running';
  if (rows.every((s) => s === 'completed')) return 'completed';
  return rows.some((s) => s === 'failed') ? 'failed' : 'cancelled';
}

function base(b: BatchRow, status: BatchStatus): Omit<BatchSummary, 'rows'> & TeamBatchExtras {
  const profile = b.options.request.kind === 'start' ? b.options.request.profile : undefined;
  return {
    id: b.id,
    batchId: b.id,
    documentId: b.deployment_id,
    name: b.options.name,
    documentPath: b.document_path ?? '',
    status,
    concurrency: b.concurrency,
    ...(profile ? { model: profile } : {}),
    createdAt: b.created_at,
    ...(b.ended_at !== null ? { endedAt: b.ended_at } : {}),
    deploymentId: b.deployment_id,
    version: b.version,
    team: { status: b.status },
  };
}

export async function readTeamBatch(db: Db, batchId: string): Promise<TeamBatchRecord | undefined> {
  const batch = (await db.query<BatchRow>(`SELECT ${BATCH_COLUMNS} WHERE b.id = $1`, [batchId])).rows[0];
  if (!batch) return undefined;
  const found = await db.query<{ idx: number; status: 'pending' | 'started' | 'cancelled'; run_id: string | null; inputs: Record<string, string>; run_status: TeamRunStatus | null; run_error: string | null }>(
    'SELECT r.idx, r.status, r.run_id, r.inputs, runs.status AS run_status, runs.error AS run_error FROM batch_rows r LEFT JOIN runs ON runs.id = r.run_id WHERE r.batch_id = $1 ORDER BY r.idx',
    [batchId],
  );
  const rows: BatchRowRecord[] = found.rows.map((r) => {
    const status = teamRowStatus(r.status, r.status === 'started' ? r.run_status : null);
    const error = status === 'failed' || status === 'cancelled' ? (r.run_error ?? (r.status === 'cancelled' ? 'the batch was cancelled before this row started' : undefined)) : undefined;
    return { index: r.idx, inputs: r.inputs, status, runId: r.run_id ?? '', ...(error ? { error } : {}) };
  });
  const counts: Partial<Record<BatchRowStatus, number>> = {};
  for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + 1;
  return { ...base(batch, teamBatchStatus(batch.status, rows.map((r) => r.status))), inputs: {}, rows, counts };
}

/** Newest first, each with its rows counted by status (as BatchStore.listBatches). */
export async function listTeamBatches(db: Db, options: { limit?: number; offset?: number } = {}): Promise<TeamBatchSummary[]> {
  const batches = (await db.query<BatchRow>(`SELECT ${BATCH_COLUMNS} ORDER BY b.created_at DESC, b.id DESC LIMIT $1 OFFSET $2`, [options.limit ?? 50, options.offset ?? 0])).rows;
  if (batches.length === 0) return [];
  const counted = await db.query<{ batch_id: string; status: 'pending' | 'started' | 'cancelled'; run_status: TeamRunStatus | null; n: number }>(
    `SELECT r.batch_id, r.status, runs.status AS run_status, count(*)::int AS n FROM batch_rows r LEFT JOIN runs ON runs.id = r.run_id
     WHERE r.batch_id = ANY($1) GROUP BY r.batch_id, r.status, runs.status`,
    [batches.map((b) => b.id)],
  );
  return batches.map((b) => {
    const rows: BatchSummary['rows'] = { total: 0, queued: 0, running: 0, paused: 0, completed: 0, failed: 0, cancelled: 0 };
    for (const c of counted.rows.filter((x) => x.batch_id === b.id)) {
      rows[teamRowStatus(c.status, c.status === 'started' ? c.run_status : null)] += c.n;
      rows.total += c.n;
    }
    const statuses = (Object.keys(rows) as (keyof typeof rows)[]).filter((k): k is BatchRowStatus => k !== 'total' && rows[k] > 0);
    return { ...base(b, teamBatchStatus(b.status, statuses)), rows };
  });
}

/** A team job's store was asked to keep a batch: team batches are the server's (see above). */
export class TeamBatchesOnServer extends Error {
  override name = 'TeamBatchesOnServer';
  constructor(method: string) {
    super(`${method}: a team job's run store holds the one run it advances; team batches are kept by the server (POST /v1/deployments/{id}/batches, GET /v1/batches/{id}, crewdeck batches --server)`);
  }
}
