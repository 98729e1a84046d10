import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamClient } from '../../runtime/team/teamClient';
import { TeamBatchesOnServer, type TeamBatchRecord, type TeamBatchSummary } from '../../runtime/store/postgresBatches';
import { PostgresRunStore, PostgresWriter } from '../../runtime/store/postgresRunStore';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { openDatabase } from '../../runtime/store/database';
import { sharedServices } from '../support/teamServices';
import { publish, slowCrew, startInProcessTeam, waitFor, type InProcessTeam } from './teamHarness';

/**
 * Team batches and the run store's BatchStore are one thing to read: the server's tables come back as
 * BatchRecord / BatchSummary (runtime/store/postgresBatches.ts says why they live in those tables), and a
 * team job's store refuses to keep a batch of its own.
 */
let team: InProcessTeam;
let client: TeamClient;

beforeAll(async () => {
  team = await startInProcessTeam({ workers: 1, concurrency: 6 });
  client = await team.client('deploy');
}, 60_000);

afterAll(async () => {
  await team?.stop();
  await (await sharedServices()).stop();
}, 60_000);

const keys = (value: object) => Object.keys(value).sort();
const TEAM_EXTRAS = ['batchId', 'deploymentId', 'version', 'team'];

/** A stored local batch, for the shapes the team's must have. */
function localShapes() {
  const store = new SqliteRunStore(openDatabase(':memory:'));
  try {
    store.createBatch({ id: 'batch_local', documentId: 'c', name: 'C', documentPath: 'c.crew.json', concurrency: 2, model: 'fast', rows: [{ inputs: { topic: 'a' }, runId: 'run_a' }], createdAt: 1 });
    store.updateBatchRow('batch_local', 0, { status: 'failed', error: 'boom' });
    store.finishBatch('batch_local', 'failed', 2);
    return { record: store.getBatch('batch_local')!, summary: store.listBatches()[0]! };
  } finally {
    store.close();
  }
}

describe('team batches in the run store’s shapes', () => {
  it('GET /v1/batches/{id} is a BatchRecord and GET /v1/batches lists BatchSummaries (plus the server’s own fields)', async () => {
    await publish(client, slowCrew('shaped', 1, 0));
    const { batchId } = await client.request<{ batchId: string }>('POST', '/v1/deployments/shaped/batches', { rows: [{ topic: 'a' }, { topic: 'b' }, { topic: 'c' }], concurrency: 2 });
    const record = await waitFor(() => client.request<TeamBatchRecord>('GET', `/v1/batches/${batchId}`), (b) => b.status !== 'running', 'the batch to end');
    const local = localShapes();
    // The local record's fields (its `model` is the profile a batch runs under: this one names none), and the server's.
    const { model: _model, ...localFields } = local.record;
    expect(keys(record)).toEqual(keys({ ...localFields, ...Object.fromEntries(TEAM_EXTRAS.map((k) => [k, 1])), counts: 1 }));
    expect(record).toMatchObject({ id: batchId, batchId, documentId: 'shaped', name: 'Crew shaped', documentPath: 'shaped.crew.json', status: 'completed', concurrency: 2, inputs: {}, team: { status: 'completed' } });
    expect(record.rows.map((r) => [r.index, r.status, r.inputs.topic])).toEqual([[0, 'completed', 'a'], [1, 'completed', 'b'], [2, 'completed', 'c']]);
    expect(keys(record.rows[0]!)).toEqual(keys({ index: 0, inputs: {}, status: 'x', runId: 'x' }));
    const view = await client.request<{ batchId?: string }>('GET', `/v1/runs/${record.rows[1]!.runId}`);
    expect(view.batchId).toBe(batchId);

    const { batches } = await client.request<{ batches: TeamBatchSummary[] }>('GET', '/v1/batches?limit=5');
    const summary = batches.find((b) => b.id === batchId)!;
    expect(keys(summary.rows)).toEqual(keys(local.summary.rows));
    expect(summary.rows).toEqual({ total: 3, queued: 0, running: 0, paused: 0, completed: 3, failed: 0, cancelled: 0 });
    expect(keys(summary)).toEqual(keys(record).filter((k) => k !== 'inputs' && k !== 'counts'));
  }, 60_000);

  it('a batch whose rows wait for a person is running (rows paused, no slot held) until they are answered', async () => {
    const writer = { provider: 'scripted', model: 'writer', script: { default: 'A draft.' } };
    await publish(client, {
      kind: 'crew', version: 1, id: 'batch-reviewed', name: 'Reviewed', process: 'sequential',
      agents: [{ id: 'w', role: 'Writer', goal: 'g', backstory: 'b', llm: writer }],
      tasks: [{ id: 'write', description: 'Write about {topic}', expectedOutput: 'a text', agentId: 'w', humanInput: true }],
      inputs: [{ name: 'topic', description: 't' }],
    });
    const { batchId } = await client.request<{ batchId: string }>('POST', '/v1/deployments/batch-reviewed/batches', { rows: [{ topic: 'a' }, { topic: 'b' }, { topic: 'c' }], concurrency: 1 });
    // Concurrency 1, yet all three get to their review: a waiting run holds no slot.
    const waiting = await waitFor(() => client.request<TeamBatchRecord>('GET', `/v1/batches/${batchId}`), (b) => b.rows.every((r) => r.status === 'paused'), 'every row to wait');
    expect(waiting).toMatchObject({ status: 'running', team: { status: 'running' } });
    for (const row of waiting.rows) {
      const run = await client.request<{ pending: { requestId: string } }>('GET', `/v1/runs/${row.runId}`);
      await client.request('POST', `/v1/runs/${row.runId}/resume`, { requestId: run.pending.requestId, approve: true });
    }
    const done = await waitFor(() => client.request<TeamBatchRecord>('GET', `/v1/batches/${batchId}`), (b) => b.status !== 'running', 'the batch to end');
    expect(done).toMatchObject({ status: 'completed', team: { status: 'completed' }, counts: { completed: 3 } });
  }, 60_000);

  it("a team job's store refuses to keep a batch (it holds the one run it advances)", () => {
    const local = new SqliteRunStore(openDatabase(':memory:'));
    const store = new PostgresRunStore(local, new PostgresWriter(team.pool, 'none', 'nobody', 1_000, { onLeaseLost: () => undefined, onFailure: () => undefined }));
    try {
      expect(() => store.createBatch({ id: 'b', documentId: 'c', name: 'C', documentPath: 'c.crew.json', concurrency: 1, rows: [], createdAt: 0 })).toThrow(TeamBatchesOnServer);
      expect(() => store.getBatch('b')).toThrow(/team batches are kept by the server/);
      expect(() => store.listBatches()).toThrow(TeamBatchesOnServer);
    } finally {
      store.close();
    }
  });
});
