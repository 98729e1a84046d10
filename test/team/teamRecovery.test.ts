import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import type { TeamClient } from '../../runtime/team/teamClient';
import type { TeamBatchRecord } from '../../runtime/store/postgresBatches';
import type { TeamRunView } from '../../runtime/team/teamRuns';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../support/teamServices';
import { publish, slowCrew, startInProcessTeam, waitFor, type InProcessTeam } from './teamHarness';

/**
 * Batches, and restarts of PostgreSQL and Redis under a running team (servers of this file's own, so
 * restarting them disturbs no other test).
 */
let postgres: PostgresServer;
let redis: RedisServer;
let team: InProcessTeam;
let client: TeamClient;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  team = await startInProcessTeam({ workers: 2, concurrency: 6, leaseMs: 3_000, services: { adminUrl: postgres.url(), redisUrl: redis.url } });
  client = await team.client('deploy');
  await publish(client, slowCrew('quick', 1, 20));
  await publish(client, slowCrew('slow', 1, 300));
  await publish(client, slowCrew('long', 5, 300));
}, 60_000);

afterAll(async () => {
  await team?.stop();
  await Promise.all([postgres?.stop(), redis?.stop()]);
}, 60_000);

const batch = (id: string) => client.request<TeamBatchRecord>('GET', `/v1/batches/${id}`);
const view = (id: string) => client.request<TeamRunView>('GET', `/v1/runs/${id}`);
const ended = (b: TeamBatchRecord) => b.status !== 'running';

/** The most runs of a batch that were between their start and end at one moment (from PostgreSQL's times). */
async function maxOverlap(batchId: string): Promise<number> {
  const rows = (await team.pool.query<{ started_at: number; ended_at: number }>('SELECT started_at, ended_at FROM runs WHERE batch_id = $1 AND started_at IS NOT NULL', [batchId])).rows;
  const edges = rows.flatMap((r) => [[r.started_at, 1] as const, [r.ended_at, -1] as const]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let max = 0;
  for (const [, d] of edges) max = Math.max(max, (now += d));
  return max;
}

describe('batches', () => {
  it('100 rows at concurrency 10 complete with a status per row; cancelling a second batch stops its queued rows', async () => {
    const { batchId } = await client.request<{ batchId: string }>('POST', '/v1/deployments/quick/batches', { rows: Array.from({ length: 100 }, (_, i) => ({ topic: `row ${i}` })), concurrency: 10 });
    const second = await client.request<{ batchId: string }>('POST', '/v1/deployments/slow/batches', { csv: `topic\n${Array.from({ length: 40 }, (_, i) => `t${i}`).join('\n')}\n`, concurrency: 2 });
    await waitFor(() => batch(second.batchId), (b) => (b.counts.completed ?? 0) >= 1, 'the second batch to get going');
    const cancelled = await client.request<{ status: string }>('POST', `/v1/batches/${second.batchId}/cancel`, {});
    expect(cancelled.status).toBe('cancelled');

    const done = await waitFor(() => batch(batchId), (b) => ended(b) && (b.counts.completed ?? 0) === 100, 'the first batch to complete', 120_000);
    expect(done.rows).toHaveLength(100);
    expect(done.rows.every((r) => r.status === 'completed' && r.runId.startsWith('run_'))).toBe(true);
    expect(done.rows[42]!.inputs).toEqual({ topic: 'row 42' });
    expect(await maxOverlap(batchId)).toBeLessThanOrEqual(10);

    const stopped = await waitFor(() => batch(second.batchId), (b) => b.rows.every((r) => ['completed', 'cancelled', 'failed'].includes(r.status)), 'the second batch to stop');
    expect(stopped.status).toBe('cancelled');
    const started = new Set((await team.pool.query<{ id: string }>('SELECT id FROM runs WHERE batch_id = $1', [second.batchId])).rows.map((r) => r.id));
    const neverStarted = stopped.rows.filter((r) => !started.has(r.runId));
    expect(neverStarted.length).toBeGreaterThan(30);
    expect(neverStarted.every((r) => r.status === 'cancelled')).toBe(true);
  }, 180_000);
});

describe('restarts', () => {
  it('PostgreSQL restarted during a run: the run completes, every task once', async () => {
    const { runId } = await client.request<{ runId: string }>('POST', '/v1/deployments/long/runs', {});
    await waitFor(async () => (await view(runId)).lastSeq, (n) => n >= 8, 'the run to be under way');
    await postgres.restart();
    const done = await waitFor(() => view(runId).catch(() => undefined), (v) => v !== undefined && ['completed', 'failed', 'cancelled'].includes(v.status), 'the run to end', 90_000);
    expect(done!.status).toBe('completed');
    const { events } = await client.request<{ events: RuntimeEvent[] }>('GET', `/v1/runs/${runId}/events`);
    expect(events.filter((e) => e.type === 'task.completed').map((e) => (e as { taskId: string }).taskId).sort()).toEqual(['step1', 'step2', 'step3', 'step4', 'step5']);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  }, 180_000);

  it('Redis restarted (empty) during a batch: every row completes', async () => {
    const { batchId } = await client.request<{ batchId: string }>('POST', '/v1/deployments/slow/batches', { rows: Array.from({ length: 16 }, (_, i) => ({ topic: `r${i}` })), concurrency: 4 });
    await waitFor(() => batch(batchId), (b) => (b.counts.completed ?? 0) >= 2, 'the batch to be under way');
    await redis.restart();
    const done = await waitFor(() => batch(batchId), (b) => ended(b) && (b.counts.completed ?? 0) === 16, 'the batch to complete', 120_000);
    expect(done.rows.every((r) => r.status === 'completed')).toBe(true);
  }, 180_000);
});
