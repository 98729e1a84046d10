import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDatabasePath } from '../../runtime/store/database';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { describeResult, finished, parseSingleJson, runCli, spawnCli, tempDir, type TempWorkspace } from './cliHarness';

/** A stored batch killed with SIGKILL in the middle, then `crewdeck batches resume`: real CLI, real SQLite, the openai SDK over HTTP. */
let server: ScriptedServer;
let ws: TempWorkspace | undefined;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => {
  ws?.remove();
  ws = undefined;
  server.setHandler(undefined);
  server.requests.length = 0;
});

const cityOf = (body: { messages: { role: string; content: string }[] }) => /Describe (\w+)/.exec(body.messages.find((m) => m.role === 'user')?.content ?? '')?.[1];
const askedCities = () => server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => cityOf(r.body as never));

function workspace(): TempWorkspace {
  const dir = tempDir('crewdeck-batch-resume-');
  dir.write('crewdeck.json', { version: 1, models: { profiles: { srv: { provider: 'openai', model: 'house-model', baseUrl: server.baseUrl, maxRetries: 0 } } } });
  dir.write('guide.crew.json', {
    kind: 'crew',
    version: 1,
    id: 'guide',
    name: 'City guide',
    inputs: [{ name: 'city' }],
    agents: [{ id: 'g', role: 'Guide', goal: 'Describe cities', llm: 'srv' }],
    tasks: [{ id: 'describe', description: 'Describe {city} in one line.', expectedOutput: 'One line', agentId: 'g' }],
  });
  dir.write('rows.csv', 'city\nGhent\nOslo\nLima\nQuito\n');
  return dir;
}

/** The stored batch, read as another process would (the one running it may be alive or killed). */
function storedBatch(dir: string) {
  const store = SqliteRunStore.openExisting(dir);
  try {
    const [latest] = store?.listBatches({ limit: 1 }) ?? [];
    return latest ? store!.getBatch(latest.id) : undefined;
  } finally {
    store?.close();
  }
}

describe('crewdeck batches: a batch is a stored record', () => {
  it('kill -9 in the middle of a batch, then `batches resume` runs only the rows not completed (no model call for the others)', async () => {
    ws = workspace();
    // Lima hangs until the process is killed; Ghent and Oslo answer at once; Quito waits its turn (one row at a time).
    let hang = true;
    server.setHandler((body) => {
      const city = cityOf(body as never);
      return city === 'Lima' && hang ? { content: 'never', delayMs: 60_000 } : { content: `${city} in one line.` };
    });
    const child = spawnCli(['run', 'guide.crew.json', '--inputs-file', 'rows.csv', '--json'], { cwd: ws.dir, env: { TEST_KEY: 'k' } });
    const exited = finished(child, 60_000);
    const deadline = Date.now() + 30_000;
    // Kill once Lima was asked for and Ghent and Oslo are stored as completed rows.
    for (;;) {
      if (Date.now() > deadline) throw new Error(`the batch never reached Lima with two rows completed; asked: ${askedCities().join(', ')}`);
      const batch = askedCities().includes('Lima') ? storedBatch(ws.dir) : undefined;
      if (batch && batch.rows.filter((r) => r.status === 'completed').length === 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    expect((await exited).signal).toBe('SIGKILL');

    const listed = parseSingleJson(await runCli(['batches', 'list', '--json', '--workspace', ws.dir]));
    expect(listed.batches).toHaveLength(1);
    const [batch] = listed.batches;
    expect(batch).toMatchObject({ status: 'interrupted', documentPath: 'guide.crew.json', rows: { total: 4, completed: 2, running: 1, queued: 1 } });
    const before = parseSingleJson(await runCli(['batches', 'show', batch.id, '--json', '--workspace', ws.dir])).batch;
    expect(before.rows.map((r: { status: string }) => r.status)).toEqual(['completed', 'completed', 'running', 'queued']);

    hang = false;
    server.requests.length = 0;
    const r = await runCli(['batches', 'resume', batch.id, '--json', '--workspace', ws.dir], { env: { TEST_KEY: 'k' } });
    expect(r.code, describeResult(r)).toBe(0);
    const resumed = parseSingleJson(r);
    expect(resumed).toMatchObject({ batchId: batch.id, status: 'completed' });
    expect(resumed.runs.map((run: { output: string }) => run.output)).toEqual(['Lima in one line.', 'Quito in one line.']);
    // No model call for the rows that had completed.
    expect(askedCities().sort()).toEqual(['Lima', 'Quito']);

    const after = parseSingleJson(await runCli(['batches', 'show', batch.id, '--json', '--workspace', ws.dir])).batch;
    expect(after.status).toBe('completed');
    expect(after.rows.map((row: { status: string }) => row.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    // Completed rows keep their runs; the killed row ran again as a new run (its interrupted run stays in the history).
    expect(after.rows.slice(0, 2).map((row: { runId: string }) => row.runId)).toEqual(before.rows.slice(0, 2).map((row: { runId: string }) => row.runId));
    expect(after.rows[2].runId).not.toBe(before.rows[2].runId);
    const runs = JSON.parse((await runCli(['runs', 'list', '--json', '--workspace', ws.dir])).stdout) as { id: string; status: string }[];
    expect(runs.find((run) => run.id === before.rows[2].runId)?.status).toBe('interrupted');
    // Nothing left to run: a second resume runs no row.
    server.requests.length = 0;
    const again = parseSingleJson(await runCli(['batches', 'resume', batch.id, '--json', '--workspace', ws.dir], { env: { TEST_KEY: 'k' } }));
    expect(again).toMatchObject({ batchId: batch.id, status: 'completed', runs: [] });
    expect(askedCities()).toEqual([]);
  }, 120_000);

  it('lists newest first; show and resume name an unknown batch (exit 2)', async () => {
    ws = workspace();
    server.setHandler((body) => ({ content: `${cityOf(body as never)} in one line.` }));
    ws.write('two.csv', 'city\nGhent\nOslo\n');
    for (const rows of ['rows.csv', 'two.csv']) {
      const r = await runCli(['run', 'guide.crew.json', '--inputs-file', rows, '--json'], { cwd: ws.dir, env: { TEST_KEY: 'k' } });
      expect(r.code, describeResult(r)).toBe(0);
    }
    const { batches } = parseSingleJson(await runCli(['batches', 'list', '--json', '--workspace', ws.dir]));
    expect(batches.map((b: { source: string; status: string }) => [b.source.split('/').pop(), b.status])).toEqual([
      ['two.csv', 'completed'],
      ['rows.csv', 'completed'],
    ]);
    const text = await runCli(['batches', 'list', '--workspace', ws.dir]);
    expect(text.stdout).toMatch(/BATCH\s+STATUS/);
    expect(text.stdout).toContain('2/2 done');
    const missing = await runCli(['batches', 'show', 'batch_nope', '--workspace', ws.dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr + missing.stdout).toContain('no batch with id "batch_nope"');
    const resumeMissing = await runCli(['batches', 'resume', 'batch_nope', '--json', '--workspace', ws.dir]);
    expect(resumeMissing.code).toBe(2);
  }, 120_000);
});

describe('crewdeck batches cancel', () => {
  it('ends an interrupted batch: rows not completed become cancelled; a batch whose process is alive is refused', async () => {
    ws = workspace();
    const store = SqliteRunStore.open(ws.dir);
    const rows = [{ inputs: { city: 'Ghent' }, runId: 'run_a' }, { inputs: { city: 'Oslo' }, runId: 'run_b' }];
    store.createBatch({ id: 'batch_live', documentId: 'guide', name: 'City guide', documentPath: 'guide.crew.json', concurrency: 1, rows, createdAt: 1 });
    store.createBatch({ id: 'batch_dead', documentId: 'guide', name: 'City guide', documentPath: 'guide.crew.json', concurrency: 1, rows, createdAt: 2 });
    store.updateBatchRow('batch_dead', 0, { status: 'completed' });
    store.close();
    // batch_dead's process is gone (a pid no process has); batch_live's is this test's own.
    const db = new Database(workspaceDatabasePath(ws.dir));
    db.prepare("UPDATE batches SET pid = 2147483646 WHERE id = 'batch_dead'").run();
    db.close();

    const refused = await runCli(['batches', 'cancel', 'batch_live', '--json', '--workspace', ws.dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr + refused.stdout).toContain('batch batch_live is running in another process');

    const r = await runCli(['batches', 'cancel', 'batch_dead', '--json', '--workspace', ws.dir]);
    expect(r.code, describeResult(r)).toBe(0);
    expect(parseSingleJson(r)).toEqual({ batchId: 'batch_dead', status: 'cancelled', cancelled: 1 });
    const shown = parseSingleJson(await runCli(['batches', 'show', 'batch_dead', '--json', '--workspace', ws.dir])).batch;
    expect(shown.rows.map((row: { status: string }) => row.status)).toEqual(['completed', 'cancelled']);
  }, 120_000);
});
