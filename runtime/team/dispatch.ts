import type { Pool } from 'pg';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { withTimeout } from './connections';

/** The BullMQ queue of "advance run R from its checkpoint" jobs. */
export const RUN_QUEUE = 'crewdeck-runs';

export interface AdvanceJob {
  runId: string;
}

/**
 * Puts runs on the queue: one job per run at a time (the job id is the run id, so a run already waiting
 * or active is not queued twice). Redis being down never holds the caller: after `timeoutMs` the run stays
 * queued in PostgreSQL and the reconciler puts it on the queue once Redis is back.
 */
export class RunDispatch {
  readonly queue: Queue<AdvanceJob>;

  constructor(connection: Redis, prefix?: string) {
    this.queue = new Queue<AdvanceJob>(RUN_QUEUE, { connection, ...(prefix ? { prefix } : {}) });
    // A Redis outage surfaces here as errors of calls we already handle.
    this.queue.on('error', () => undefined);
  }

  /** Queues the runs; false when Redis did not take them in time (they stay queued in PostgreSQL). */
  async dispatch(runIds: readonly string[], timeoutMs = 3_000): Promise<boolean> {
    if (runIds.length === 0) return true;
    try {
      await withTimeout(
        this.queue.addBulk(runIds.map((runId) => ({ name: 'advance', data: { runId }, opts: { jobId: runId, removeOnComplete: true, removeOnFail: true } }))),
        timeoutMs,
        'Redis did not take the jobs',
      );
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}

/**
 * Makes Redis agree with PostgreSQL (the source of truth): every run that has work to do and no live
 * lease gets a job. A run whose worker died (its lease ran out) is queued again at once; a run queued
 * normally is queued again (a no-op when its job is still there) once `staleMs` passed since it last
 * was, which rebuilds the queue after Redis lost it (a restart without persistence).
 */
export async function reconcileRuns(pool: Pool, dispatch: RunDispatch, staleMs: number): Promise<number> {
  const due = await pool.query<{ id: string }>(
    `UPDATE runs SET dispatched_at = now() WHERE id IN (
       SELECT id FROM runs
       WHERE status IN ('queued', 'running') AND (lease_owner IS NULL OR lease_until < now())
         AND (status = 'running' OR dispatched_at < now() - make_interval(secs => $1::double precision / 1000))
       ORDER BY created_at LIMIT 1000 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [staleMs],
  );
  const ids = due.rows.map((r) => r.id);
  await dispatch.dispatch(ids);
  return ids.length;
}
