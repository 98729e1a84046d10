import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostBatch, HostPush } from '../../shared/host-api';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

/** `runs.startBatch`: the app's *Run for each row…*, on the real openai SDK against the scripted server. */
let server: ScriptedServer;
let workspace: string | undefined;
const hosts: HostService[] = [];

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';
    const city = /Describe (\w+)/.exec(user)?.[1];
    if (city === 'Atlantis') return { fault: { kind: 'context_length' } };
    // The first row answers last, so row order cannot come from completion order.
    return city ? { content: `${city} in one line.`, delayMs: city === 'Ghent' ? 1200 : 0 } : undefined;
  });
});
afterAll(() => server.close());
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

function open() {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-hostbatch-'));
  writeFileSync(join(workspace, 'crewdeck.json'), JSON.stringify({ version: 1, models: { profiles: { srv: { provider: 'openai', model: 'house-model', baseUrl: server.baseUrl } } } }));
  writeFileSync(
    join(workspace, 'guide.crew.json'),
    JSON.stringify({
      kind: 'crew',
      version: 1,
      id: 'guide',
      name: 'City guide',
      inputs: [{ name: 'city' }, { name: 'tone', default: 'warm' }],
      agents: [{ id: 'g', role: 'Guide', goal: 'Describe cities', llm: 'srv' }],
      tasks: [{ id: 'describe', description: 'Describe {city} in a {tone} tone.', expectedOutput: 'One line', agentId: 'g' }],
    }),
  );
  const host = createHostService({ workspace, transport: 'websocket', env: { TEST_KEY: 'k' } });
  hosts.push(host);
  const pushes: HostPush[] = [];
  host.subscribe((p) => pushes.push(p));
  const call = async (channel: string, request: unknown = {}) => {
    const result = await host.handle(channel, request);
    if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
    return result.response as any;
  };
  return { host, call, pushes };
}

async function settled(call: (channel: string, request: unknown) => Promise<HostBatch>, batchId: string): Promise<HostBatch> {
  const started = Date.now();
  for (;;) {
    const batch = await call('runs.batch', { batchId });
    if (batch.status !== 'running') return batch;
    if (Date.now() - started > 15_000) throw new Error(`batch still running: ${JSON.stringify(batch.rows.map((r) => r.status))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('runs.startBatch', () => {
  it('3 rows, one failing: the others complete, in row order, each its own stored run', async () => {
    const { call, pushes } = open();
    const rows = [{ city: 'Ghent' }, { city: 'Atlantis' }, { city: 'Lima', tone: 'dry' }];
    const started: HostBatch = await call('runs.startBatch', { path: 'guide.crew.json', rows, concurrency: 3 });
    expect(started.rows.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(started.rows.map((r) => r.inputs)).toEqual(rows);
    expect(new Set(started.rows.map((r) => r.runId)).size).toBe(3);
    expect(started.status).toBe('running');

    const batch = await settled(call, started.batchId);
    expect(batch.status).toBe('failed');
    expect(batch.rows.map((r) => r.status)).toEqual(['completed', 'failed', 'completed']);
    expect(batch.rows.map((r) => r.runId)).toEqual(started.rows.map((r) => r.runId));
    expect(batch.rows.every((r) => r.opened)).toBe(true);
    expect(batch.rows[1]!.error).toMatch(/context/i);
    expect(batch.rows[0]!.tokenUsage.totalTokens).toBeGreaterThan(0);
    expect(batch.rows[2]!.tokenUsage.requests).toBe(1);

    const outputs = await Promise.all(batch.rows.map((r) => call('runs.get', { runId: r.runId })));
    expect(outputs.map((o) => o.run.status)).toEqual(['completed', 'failed', 'completed']);
    expect(outputs.map((o) => o.run.inputs)).toEqual([{ city: 'Ghent', tone: 'warm' }, { city: 'Atlantis', tone: 'warm' }, { city: 'Lima', tone: 'dry' }]);
    expect(outputs[0].run.output).toBe('Ghent in one line.');
    expect(outputs[2].run.output).toBe('Lima in one line.');
    const prompts = server.requests.map((q) => JSON.stringify(q.body.messages));
    expect(prompts.some((p) => p.includes('Describe Lima in a dry tone.'))).toBe(true);
    expect(prompts.some((p) => p.includes('Describe Ghent in a warm tone.'))).toBe(true);
    // The first row (slowest) finished last: order is the rows', not the finishing order.
    const ends = pushes.flatMap((p) => (p.kind === 'event' && p.event.type === 'run.completed' ? [p.event.runId] : []));
    expect(ends).toEqual([batch.rows[2]!.runId, batch.rows[0]!.runId]);
    expect(pushes.some((p) => p.kind === 'batch.changed' && p.batchId === started.batchId)).toBe(true);
  });

  it('concurrency 1 runs the rows one after another', async () => {
    const { call, pushes } = open();
    const started: HostBatch = await call('runs.startBatch', { path: 'guide.crew.json', rows: [{ city: 'Ghent' }, { city: 'Lima' }] });
    expect(started.concurrency).toBe(1);
    const batch = await settled(call, started.batchId);
    expect(batch.status).toBe('completed');
    const order = pushes.flatMap((p) => (p.kind === 'event' && (p.event.type === 'run.started' || p.event.type === 'run.completed') ? [`${p.event.type}:${p.event.runId}`] : []));
    const [a, b] = batch.rows.map((r) => r.runId);
    expect(order).toEqual([`run.started:${a}`, `run.completed:${a}`, `run.started:${b}`, `run.completed:${b}`]);
  });

  it('runs.cancelBatch stops the batch: the live row is cancelled, the rows after it never start', async () => {
    const { call, pushes } = open();
    const before = server.requests.length;
    const started: HostBatch = await call('runs.startBatch', { path: 'guide.crew.json', rows: [{ city: 'Ghent' }, { city: 'Oslo' }, { city: 'Lima' }] });
    const first = started.rows[0]!.runId;
    const t0 = Date.now();
    while (!pushes.some((p) => p.kind === 'event' && p.event.type === 'llm.started' && p.event.runId === first)) {
      if (Date.now() - t0 > 10_000) throw new Error('row 1 never called its model');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await call('runs.cancelBatch', { batchId: started.batchId })).toEqual({ cancelled: 3 });
    const batch = await settled(call, started.batchId);
    expect(batch.status).toBe('cancelled');
    expect(batch.rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(batch.rows.map((r) => r.opened)).toEqual([true, false, false]);
    const asked = server.requests.slice(before).map((q) => JSON.stringify(q.body.messages));
    expect(asked.some((p) => p.includes('Oslo') || p.includes('Lima'))).toBe(false);
    expect((await call('runs.get', { runId: first })).run.status).toBe('cancelled');
  });

  it('a batch stopped as soon as it answered ends every row cancelled, a run still opening included', async () => {
    const { call } = open();
    const started: HostBatch = await call('runs.startBatch', { path: 'guide.crew.json', rows: [{ city: 'Ghent' }, { city: 'Ghent', tone: 'dry' }, { city: 'Oslo' }], concurrency: 2 });
    await call('runs.cancelBatch', { batchId: started.batchId });
    const batch = await settled(call, started.batchId);
    expect(batch.rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(batch.rows[2]!.opened).toBe(false);
    expect(batch.status).toBe('cancelled');
  });

  it('a row missing an input is refused before anything runs, naming every bad row and the input', async () => {
    const { host } = open();
    const before = server.requests.length;
    const result = await host.handle('runs.startBatch', { path: 'guide.crew.json', rows: [{ city: 'Ghent' }, { tone: 'dry' }, { town: 'Lima' }] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('bad_input');
    expect(result.error.problems?.map((p) => p.path)).toEqual(['row 2', 'row 3']);
    expect(result.error.problems?.[0]!.message).toContain('no value for the input "city"');
    expect(server.requests.length).toBe(before);
    const listed = await host.handle('runs.list', {});
    expect(listed).toMatchObject({ ok: true, response: { runs: [] } });

    // What would stop every row (here an unknown model profile) is the answer, not N failed rows.
    const unknownModel = await host.handle('runs.startBatch', { path: 'guide.crew.json', rows: [{ city: 'Ghent' }, { city: 'Lima' }], model: 'nope' });
    expect(unknownModel).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining('"nope"') } });
    expect(server.requests.length).toBe(before);

    const none = await host.handle('runs.startBatch', { path: 'guide.crew.json', rows: [] });
    expect(none).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const unknown = await host.handle('runs.batch', { batchId: 'batch_nope' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });

    // Closing the host stops its batches and waits until every run it started has recorded its end, so a
    // row that slipped past the refusal has called the model and is stored by then: a new host lists none.
    hosts.splice(hosts.indexOf(host), 1);
    await host.close();
    expect(server.requests.length).toBe(before);
    const reopened = createHostService({ workspace: workspace!, transport: 'websocket', env: { TEST_KEY: 'k' } });
    hosts.push(reopened);
    expect(await reopened.handle('runs.list', {})).toMatchObject({ ok: true, response: { runs: [] } });
  });
});

describe('a batch is a stored record', () => {
  it('after the app restarts, runs.batch shows the batch as it ended (rows, statuses, runs, usage); crewdeck batches sees it too', async () => {
    const first = open();
    const rows = [{ city: 'Oslo' }, { city: 'Atlantis' }];
    const started: HostBatch = await first.call('runs.startBatch', { path: 'guide.crew.json', rows, concurrency: 2 });
    const ended = await settled(first.call, started.batchId);
    expect(ended.rows.map((r) => r.status)).toEqual(['completed', 'failed']);
    await first.host.close();
    hosts.splice(hosts.indexOf(first.host), 1);

    // A new host on the same workspace (the app restarted): the batch comes from the store.
    const host = createHostService({ workspace: workspace!, transport: 'websocket', env: { TEST_KEY: 'k' } });
    hosts.push(host);
    const result = await host.handle('runs.batch', { batchId: started.batchId });
    if (!result.ok) throw new Error(result.error.message);
    const stored = result.response as HostBatch;
    expect(stored).toMatchObject({ batchId: started.batchId, path: 'guide.crew.json', concurrency: 2, status: 'failed' });
    expect(stored.rows.map((r) => [r.index, r.runId, r.inputs, r.status, r.opened])).toEqual(ended.rows.map((r) => [r.index, r.runId, r.inputs, r.status, true]));
    expect(stored.rows[0]!.tokenUsage.totalTokens).toBe(ended.rows[0]!.tokenUsage.totalTokens);
    expect(stored.rows[0]!.tokenUsage.totalTokens).toBeGreaterThan(0);
    const missing = await host.handle('runs.batch', { batchId: 'batch_nope' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
