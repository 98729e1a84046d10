import type { Pool, PoolClient } from 'pg';
import { newRunId } from '../runId';
import { inTransaction } from '../store/postgresTransaction';
import type { TeamRunRequest, TeamWebhook } from '../store/postgresRunReads';
import type { RunDispatch } from './dispatch';
import { TeamNotFound } from './teamErrors';

export interface NewBatch {
  deploymentId: string;
  version: number;
  kind: 'crew' | 'flow';
  name: string;
  rows: Record<string, string>[];
  concurrency: number;
  keyId?: string;
  webhook?: TeamWebhook;
  request: TeamRunRequest;
}

/**
 * A batch: one run of a deployment per row, at most `concurrency` of them queued or running at once (a run
 * waiting for a person holds no slot). Kept in the server's tables; read as BatchStore's shapes by
 * runtime/store/postgresBatches.ts (which says why it lives here). Each row gets its run's id when the batch
 * is made, as a local batch's rows do.
 */
export async function createBatch(pool: Pool, dispatch: RunDispatch, batch: NewBatch): Promise<string> {
  const now = Date.now();
  const batchId = `batch_${newRunId(now).slice(4)}`;
  const runIds = batch.rows.map(() => newRunId(now));
  await inTransaction(pool, async (client) => {
    const options = { kind: batch.kind, name: batch.name, keyId: batch.keyId ?? null, webhook: batch.webhook ?? null, request: batch.request };
    await client.query(
      "INSERT INTO batches (id, deployment_id, version, concurrency, status, options, created_at) VALUES ($1, $2, $3, $4, 'running', $5, $6)",
      [batchId, batch.deploymentId, batch.version, batch.concurrency, JSON.stringify(options), now],
    );
    await client.query(
      "INSERT INTO batch_rows (batch_id, idx, inputs, run_id, status) SELECT $1, i - 1, r, id, 'pending' FROM unnest($2::jsonb[], $3::text[]) WITH ORDINALITY AS t(r, id, i)",
      [batchId, batch.rows.map((r) => JSON.stringify(r)), runIds],
    );
  });
  await topUpBatch(pool, dispatch, batchId);
  return batchId;
}

/**
 * Starts the batch's next rows while fewer than `concurrency` of its runs are queued or running (under
 * the batch row's lock, so workers topping it up at once never exceed it), and marks it completed when
 * every row has ended. Called when a batch run stops, and by the reconciler.
 */
export async function topUpBatch(pool: Pool, dispatch: RunDispatch, batchId: string): Promise<void> {
  const started = await inTransaction(pool, async (client) => {
    const batch = (await client.query<{ deployment_id: string; version: number; concurrency: number; status: string; options: { kind: 'crew' | 'flow'; name: string; keyId: string | null; webhook: TeamWebhook | null; request: TeamRunRequest } }>(
      'SELECT deployment_id, version, concurrency, status, options FROM batches WHERE id = $1 FOR UPDATE',
      [batchId],
    )).rows[0];
    if (!batch || batch.status !== 'running') return [];
    const active = (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM runs WHERE batch_id = $1 AND status IN ('queued', 'running')", [batchId])).rows[0]?.n ?? 0;
    const room = Math.max(0, batch.concurrency - active);
    const rows = await startRows(client, batchId, batch, room);
    if (rows.length === 0 && active === 0) await completeIfDone(client, batchId);
    return rows;
  });
  await dispatch.dispatch(started);
}

async function startRows(
  client: PoolClient,
  batchId: string,
  batch: { deployment_id: string; version: number; options: { kind: 'crew' | 'flow'; name: string; keyId: string | null; webhook: TeamWebhook | null; request: TeamRunRequest } },
  room: number,
): Promise<string[]> {
  if (room === 0) return [];
  const rows = await client.query<{ idx: number; inputs: Record<string, string>; run_id: string | null }>(
    "SELECT idx, inputs, run_id FROM batch_rows WHERE batch_id = $1 AND status = 'pending' ORDER BY idx LIMIT $2",
    [batchId, room],
  );
  const ids: string[] = [];
  const now = Date.now();
  for (const row of rows.rows) {
    const runId = row.run_id ?? newRunId(now);
    await client.query(
      `INSERT INTO runs (id, kind, document_id, name, status, inputs, created_at, deployment_id, version, key_id, request, webhook, batch_id, batch_row)
       VALUES ($1, $2, $3, $4, 'queued', $5, $6, $3, $7, $8, $9, $10, $11, $12)`,
      [runId, batch.options.kind, batch.deployment_id, batch.options.name, JSON.stringify(row.inputs), now, batch.version, batch.options.keyId, JSON.stringify(batch.options.request), batch.options.webhook ? JSON.stringify(batch.options.webhook) : null, batchId, row.idx],
    );
    await client.query("UPDATE batch_rows SET status = 'started', run_id = $3 WHERE batch_id = $1 AND idx = $2", [batchId, row.idx, runId]);
    ids.push(runId);
  }
  return ids;
}

/** Ends the batch once no row waits to start and none of its runs is unfinished (one waiting for a person included). */
async function completeIfDone(client: PoolClient, batchId: string): Promise<void> {
  const left = (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM batch_rows WHERE batch_id = $1 AND status = 'pending'", [batchId])).rows[0]?.n ?? 0;
  const unfinished = (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM runs WHERE batch_id = $1 AND status NOT IN ('completed', 'failed', 'cancelled')", [batchId])).rows[0]?.n ?? 0;
  if (left === 0 && unfinished === 0) await client.query("UPDATE batches SET status = 'completed', ended_at = $2 WHERE id = $1 AND status = 'running'", [batchId, Date.now()]);
}

/** Batches still running, for the reconciler (a top-up lost with a worker, or with Redis, is done again). */
export async function runningBatches(pool: Pool): Promise<string[]> {
  return (await pool.query<{ id: string }>("SELECT id FROM batches WHERE status = 'running' ORDER BY created_at")).rows.map((r) => r.id);
}

/**
 * Cancels a batch: rows not started never start, its queued runs end cancelled, and its running runs are
 * asked to stop (their workers hear it). Returns false when the batch had already ended.
 */
export async function cancelBatch(pool: Pool, batchId: string, reason: string): Promise<{ cancelled: boolean; running: string[] }> {
  return inTransaction(pool, async (client) => {
    const batch = (await client.query<{ status: string }>('SELECT status FROM batches WHERE id = $1 FOR UPDATE', [batchId])).rows[0];
    if (!batch) throw new TeamNotFound(`no batch "${batchId}"`);
    if (batch.status !== 'running') return { cancelled: false, running: [] };
    await client.query("UPDATE batches SET status = 'cancelled', ended_at = $2 WHERE id = $1", [batchId, Date.now()]);
    await client.query("UPDATE batch_rows SET status = 'cancelled' WHERE batch_id = $1 AND status = 'pending'", [batchId]);
    await client.query(
      `UPDATE runs SET status = 'cancelled', error = $2, cancel_requested = $2, ended_at = $3
       WHERE batch_id = $1 AND status = 'queued' AND last_seq = 0 AND (lease_owner IS NULL OR lease_until < now())`,
      [batchId, reason, Date.now()],
    );
    const running = await client.query<{ id: string }>(
      "UPDATE runs SET cancel_requested = $2 WHERE batch_id = $1 AND status IN ('queued', 'running', 'waiting', 'paused') RETURNING id",
      [batchId, reason],
    );
    for (const row of running.rows) await client.query("SELECT pg_notify('crewdeck_cancel', $1)", [`${row.id}:${reason}`]);
    return { cancelled: true, running: running.rows.map((r) => r.id) };
  });
}
