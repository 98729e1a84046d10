import type { Pool } from 'pg';
import { readTeamRun, type TeamRunRow } from '../store/postgresRunReads';

/**
 * Per-run leases in PostgreSQL (on top of BullMQ's job lock, which lives only in Redis): the worker that
 * holds run R's lease is the only one that advances it, and every commit it makes checks the lease
 * (postgresRunStore.ts). A lease runs out `leaseMs` after its last renewal, by PostgreSQL's clock.
 */
export class RunLeases {
  constructor(
    private readonly pool: Pool,
    readonly owner: string,
    readonly leaseMs: number,
  ) {}

  /**
   * Claims a run that has work to do (queued, or running with its lease run out): its row, or undefined
   * when it is held by a live lease or has nothing to do (ended, waiting, paused).
   */
  async claim(runId: string): Promise<TeamRunRow | undefined> {
    const result = await this.pool.query<{ id: string }>(
      `UPDATE runs SET lease_owner = $2, lease_until = now() + make_interval(secs => $3::double precision / 1000)
       WHERE id = $1 AND status IN ('queued', 'running') AND (lease_owner IS NULL OR lease_until < now() OR lease_owner = $2)
       RETURNING id`,
      [runId, this.owner, this.leaseMs],
    );
    if (result.rowCount === 0) return undefined;
    return readTeamRun(this.pool, runId);
  }

  /** Renews the lease: false when it was lost; `cancel` is the cancellation asked for meanwhile, if any. */
  async renew(runId: string): Promise<{ held: boolean; cancel?: string }> {
    const result = await this.pool.query<{ cancel_requested: string | null }>(
      `UPDATE runs SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
       WHERE id = $1 AND lease_owner = $2 RETURNING cancel_requested`,
      [runId, this.owner, this.leaseMs],
    );
    const row = result.rows[0];
    if (!row) return { held: false };
    return row.cancel_requested === null ? { held: true } : { held: true, cancel: row.cancel_requested };
  }

  /** Lets the run go (it stays as it is; the reconciler dispatches it again if it still has work). */
  async release(runId: string): Promise<void> {
    await this.pool.query('UPDATE runs SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [runId, this.owner]);
  }
}
