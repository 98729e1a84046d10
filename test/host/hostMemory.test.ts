import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import type { HostMemoryRecord, HostPush } from '../../shared/host-api';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';
import { describeResult, runCli } from '../cli/cliHarness';
import { startScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';

let workspace: string;
let host: HostService;
let pushes: HostPush[];

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-host-memory-'));
  host = createHostService({ workspace, transport: 'websocket', env: {} });
  pushes = [];
  host.subscribe((p) => pushes.push(p));
});

afterEach(async () => {
  await host.close();
  rmSync(workspace, { recursive: true, force: true });
});

async function call(channel: string, request: unknown = {}) {
  const result = await host.handle(channel, request);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
  return result.response as any;
}

async function add(content: string, scope: string, extra: Record<string, unknown> = {}): Promise<HostMemoryRecord> {
  return (await call('memory.add', { content, scope, ...extra })).record;
}

const memoryChanges = () => pushes.filter((p) => p.kind === 'memory.changed').length;

describe('HostService: memory channels', () => {
  it('adds by hand, lists newest first with a total, pages, and filters by scope, category and private', async () => {
    const a = await add('Solar panels cost about 250 euros each', '/crew/solar', { categories: ['cost'], importance: 0.9 });
    const b = await add('The roof faces south', '/crew/solar/agent/researcher', { categories: ['site'] });
    const c = await add('The client prefers short briefs', '/crew/other', { private: true });
    expect(a).toMatchObject({ scope: '/crew/solar', categories: ['cost'], importance: 0.9, private: false, source: { kind: 'manual' }, history: [] });
    expect(a).not.toHaveProperty('vector');
    expect(memoryChanges()).toBe(3);

    const all = await call('memory.list', { includePrivate: true });
    expect(all.total).toBe(3);
    expect(all.records.map((r: HostMemoryRecord) => r.id).sort()).toEqual([a.id, b.id, c.id].sort());
    const page = await call('memory.list', { includePrivate: true, limit: 2, offset: 2 });
    expect(page).toMatchObject({ total: 3 });
    expect(page.records).toHaveLength(1);

    expect((await call('memory.list', {})).total).toBe(2); // private left out unless asked for
    const solar = await call('memory.list', { scope: '/crew/solar' });
    expect(solar.records.map((r: HostMemoryRecord) => r.id).sort()).toEqual([a.id, b.id].sort());
    const cost = await call('memory.list', { category: 'cost' });
    expect(cost.records.map((r: HostMemoryRecord) => r.id)).toEqual([a.id]);

    expect((await call('memory.scopes')).scopes).toEqual([
      { scope: '/crew/other', count: 1 },
      { scope: '/crew/solar', count: 1 },
      { scope: '/crew/solar/agent/researcher', count: 1 },
    ]);
  });

  it('searches like recall does: scores with their parts and reasons, best first, private only when asked', async () => {
    await add('Solar panels cost about 250 euros each', '/crew/solar');
    await add('The office cat is called Mochi', '/crew/solar');
    await add('Solar inverter warranty is ten years', '/crew/solar', { private: true });
    const { matches } = await call('memory.search', { query: 'solar panel cost', limit: 5 });
    expect(matches.length).toBeGreaterThan(0);
    expect(matches[0].record.content).toBe('Solar panels cost about 250 euros each');
    for (const m of matches) {
      for (const part of [m.score, m.semantic, m.recency, m.importance]) expect(part).toBeGreaterThanOrEqual(0);
      expect(m.reasons.length).toBeGreaterThan(0);
      expect(m.record.private).toBe(false);
    }
    expect(matches[0].reasons.join(' ')).toMatch(/solar|similar/);
    const withPrivate = await call('memory.search', { query: 'solar inverter warranty', includePrivate: true });
    expect(withPrivate.matches[0].record.content).toBe('Solar inverter warranty is ten years');
    expect(await host.handle('memory.search', { query: 'x', limit: 51 })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('edits keep the earlier content in the history ("edited by hand"); other fields change without history', async () => {
    const a = await add('Panels cost 250 euros', '/crew/solar');
    const { record } = await call('memory.update', { id: a.id, content: 'Panels cost 230 euros', categories: ['cost'], importance: 0.8, private: true });
    expect(record).toMatchObject({ id: a.id, content: 'Panels cost 230 euros', categories: ['cost'], importance: 0.8, private: true, source: { kind: 'manual' } });
    expect(record.history).toEqual([{ content: 'Panels cost 250 euros', updatedAt: a.updatedAt, reason: 'edited by hand' }]);
    const again = (await call('memory.update', { id: a.id, importance: 0.1 })).record;
    expect(again.history).toHaveLength(1);
    expect(again.importance).toBe(0.1);
    expect(memoryChanges()).toBe(3);
  });

  it('forgets by id and resets one scope (with the scopes below it) and nothing else', async () => {
    const a = await add('one', '/crew/a');
    const a2 = await add('two', '/crew/a/agent/x', { private: true });
    const b = await add('three', '/crew/b');
    const ab = await add('four', '/crew/ab');
    expect(await call('memory.forget', { ids: [a.id] })).toEqual({ removed: 1 });
    expect(await call('memory.reset', { scope: '/crew/a' })).toEqual({ removed: 1 });
    const left = await call('memory.list', { includePrivate: true });
    expect(left.records.map((r: HostMemoryRecord) => r.id).sort()).toEqual([b.id, ab.id].sort());
    expect(left.records.some((r: HostMemoryRecord) => r.id === a2.id)).toBe(false);
    expect(await call('memory.reset', { scope: '/' })).toEqual({ removed: 2 });
    expect((await call('memory.list', { includePrivate: true })).total).toBe(0);
  });

  it('answers not_found for unknown ids and invalid_request for bad input', async () => {
    const missing = await host.handle('memory.update', { id: 'mem_nope', content: 'x' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    if (!missing.ok) expect(missing.error.message).toContain('mem_nope');
    expect(await host.handle('memory.forget', { ids: ['mem_nope'] })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    for (const [channel, request] of [
      ['memory.reset', {}],
      ['memory.reset', { scope: 'crew/a' }],
      ['memory.add', { content: '   ', scope: '/crew/a' }],
      ['memory.add', { content: 'x', scope: '/crew/a', importance: 2 }],
      ['memory.add', { content: 'x', scope: '/crew/a', source: { kind: 'task' } }],
      ['memory.forget', { ids: [] }],
      ['memory.list', { limit: 0 }],
      ['memory.search', { query: '' }],
    ] as const) {
      expect(await host.handle(channel, request), `${channel} ${JSON.stringify(request)}`).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    expect(memoryChanges()).toBe(0);
  });

  it('runs use the same store: a memory added in the browser is recalled into the next run, and what the run writes is listed at once', async () => {
    const crew = {
      kind: 'crew',
      version: 1,
      id: 'solar',
      name: 'Solar',
      memory: { enabled: true },
      agents: [{ id: 'writer', role: 'Writer', goal: 'Write', llm: { provider: 'scripted', model: 'demo', script: { default: 'Done.' } } }],
      tasks: [{ id: 'brief', description: 'Write about solar panel cost', expectedOutput: 'A brief', agentId: 'writer' }],
    };
    writeFileSync(join(workspace, 'solar.crew.json'), JSON.stringify(crew));
    const memory = await add('Solar panels cost about 250 euros each', '/crew/solar');
    const { runId } = await call('runs.start', { path: 'solar.crew.json' });
    const events: RuntimeEvent[] = [];
    for (const started = Date.now(); !events.some((e) => e.type === 'run.completed' || e.type === 'run.failed'); ) {
      if (Date.now() - started > 20_000) throw new Error('the run did not end');
      await new Promise((r) => setTimeout(r, 20));
      events.splice(0, events.length, ...pushes.flatMap((p) => (p.kind === 'event' && p.event.runId === runId ? [p.event] : [])));
    }
    expect(events.at(-1)?.type).toBe('run.completed');
    const recall = events.find((e) => e.type === 'memory.recall');
    expect(recall && recall.type === 'memory.recall' ? recall.records.map((r) => r.id) : []).toContain(memory.id);
    // The task's output became a memory with the run and task as its source; the browser was told.
    const written = await call('memory.list', { runId });
    expect(written.total).toBe(1);
    expect(written.records[0]).toMatchObject({ content: 'Done.', scope: '/crew/solar', source: { kind: 'task', runId, taskId: 'brief' } });
    expect(memoryChanges()).toBe(2);
  });
});

describe('HostService: memory with the embedder crewdeck.json names', () => {
  it('embeds on the OpenAI-compatible server the settings name, and the CLI reads the same store afterwards', async () => {
    const server = await startScriptedServer({ embeddingDimensions: 24 });
    const dir = mkdtempSync(join(tmpdir(), 'crewdeck-host-embedder-'));
    try {
      writeFileSync(
        join(dir, 'crewdeck.json'),
        JSON.stringify({ version: 1, models: { profiles: {} }, memory: { embedder: { provider: 'openai', model: 'embed-small', baseUrl: server.baseUrl, apiKeyEnv: 'EMBED_KEY' } } }),
      );
      trustWorkspace(dir); // the embedder sends EMBED_KEY to its own baseUrl
      const online = createHostService({ workspace: dir, transport: 'websocket', env: { EMBED_KEY: 'k' } });
      let added: HostMemoryRecord;
      try {
        const result = await online.handle('memory.add', { content: 'The inverter warranty is ten years', scope: '/crew/solar' });
        if (!result.ok) throw new Error(`memory.add: ${result.error.code}: ${result.error.message}`);
        added = (result.response as { record: HostMemoryRecord }).record;
        const search = await online.handle('memory.search', { query: 'inverter warranty' });
        expect(search.ok && (search.response as any).matches[0].record.id).toBe(added.id);
      } finally {
        await online.close();
      }
      const embeddings = server.requests.filter((r) => r.path.endsWith('/embeddings'));
      expect(embeddings.length).toBeGreaterThanOrEqual(2); // the record, then the query
      expect(embeddings.every((r) => r.headers.authorization === 'Bearer k' && r.body.model === 'embed-small')).toBe(true);

      // The CLI opens the folder with the same settings: no EmbedderMismatch, the record is there.
      const listed = await runCli(['memory', 'list', '--json', '--workspace', dir], { env: { EMBED_KEY: 'k' }, timeoutMs: 30_000 });
      expect(listed.code, describeResult(listed)).toBe(0);
      expect(JSON.parse(listed.stdout).map((r: HostMemoryRecord) => r.id)).toEqual([added.id]);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
