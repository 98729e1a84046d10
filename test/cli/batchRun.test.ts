import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { describeResult, parseSingleJson, runCli, tempDir, type TempWorkspace } from './cliHarness';

/** `crewdeck run --inputs-file`: the crew once per row, on the real openai SDK against the scripted server. */
let server: ScriptedServer;
let ws: TempWorkspace;

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';
    const city = /Describe (\w+)/.exec(user)?.[1];
    if (city === 'Atlantis') return { fault: { kind: 'context_length' } };
    // The first row answers last, so row order cannot come from completion order.
    return city ? { content: `${city} in one line.`, delayMs: city === 'Ghent' ? 300 : 0 } : undefined;
  });
});
afterAll(() => server.close());
afterEach(() => ws?.remove());

function workspace(): TempWorkspace {
  const dir = tempDir('crewdeck-batch-');
  dir.write('crewdeck.json', { version: 1, models: { profiles: { srv: { provider: 'openai', model: 'house-model', baseUrl: server.baseUrl } } } });
  dir.write('guide.crew.json', {
    kind: 'crew',
    version: 1,
    id: 'guide',
    name: 'City guide',
    inputs: [{ name: 'city' }, { name: 'tone', default: 'warm' }],
    agents: [{ id: 'g', role: 'Guide', goal: 'Describe cities', llm: 'srv' }],
    tasks: [{ id: 'describe', description: 'Describe {city} in a {tone} tone.', expectedOutput: 'One line', agentId: 'g' }],
  });
  return dir;
}
const env = { TEST_KEY: 'k' };

describe('crewdeck run --inputs-file', () => {
  it('a 3-row CSV (header = input names) gives 3 completed runs in row order, with --concurrency', async () => {
    ws = workspace();
    ws.write('rows.csv', 'city,tone\nGhent,warm\n"Oslo","dry, short"\nLima,warm\n');
    const r = await runCli(['run', 'guide.crew.json', '--inputs-file', 'rows.csv', '--concurrency', '3', '--json'], { cwd: ws.dir, env });
    expect(r.code, describeResult(r)).toBe(0);
    const out = parseSingleJson(r);
    expect(out.status).toBe('completed');
    expect(out.runs.map((run: { status: string }) => run.status)).toEqual(['completed', 'completed', 'completed']);
    expect(out.runs.map((run: { output: string }) => run.output)).toEqual(['Ghent in one line.', 'Oslo in one line.', 'Lima in one line.']);
    expect(new Set(out.runs.map((run: { runId: string }) => run.runId)).size).toBe(3);
    const prompts = server.requests.map((q) => JSON.stringify(q.body.messages));
    expect(prompts.some((p) => p.includes('Describe Oslo in a dry, short tone.'))).toBe(true);
  });

  it('a failing row gives exit 1 and status failed; the other rows complete (JSONL rows)', async () => {
    ws = workspace();
    ws.write('rows.jsonl', '{"city": "Ghent"}\n{"city": "Atlantis"}\n\n{"city": "Lima", "tone": "dry"}\n');
    const r = await runCli(['run', 'guide.crew.json', '--inputs-file', 'rows.jsonl', '--json'], { cwd: ws.dir, env });
    expect(r.code, describeResult(r)).toBe(1);
    const out = parseSingleJson(r);
    expect(out.status).toBe('failed');
    expect(out.runs.map((run: { status: string }) => run.status)).toEqual(['completed', 'failed', 'completed']);
    expect(out.runs[2].output).toBe('Lima in one line.');
  });

  it('the live tree counts rows; a row missing an input is bad input (exit 2) before any row runs', async () => {
    ws = workspace();
    ws.write('rows.csv', 'city\nGhent\nLima\n');
    const r = await runCli(['run', 'guide.crew.json', '--inputs-file', 'rows.csv'], { cwd: ws.dir, env });
    expect(r.code, describeResult(r)).toBe(0);
    expect(r.stdout).toMatch(/▶ row 1\/2 city=Ghent/);
    expect(r.stdout).toMatch(/✓ row 2\/2 completed · 2\/2 done/);
    expect(r.stdout).toContain('2/2 rows completed');

    const before = server.requests.length;
    ws.write('bad.csv', 'tone\nwarm\n');
    const bad = await runCli(['run', 'guide.crew.json', '--inputs-file', 'bad.csv'], { cwd: ws.dir, env });
    expect(bad.code, describeResult(bad)).toBe(2);
    expect(bad.stderr + bad.stdout).toMatch(/row 1: .*city/);
    ws.write('ragged.csv', 'city,tone\nGhent\n');
    const ragged = await runCli(['run', 'guide.crew.json', '--inputs-file', 'ragged.csv'], { cwd: ws.dir, env });
    expect(ragged.code, describeResult(ragged)).toBe(2);
    expect(ragged.stderr + ragged.stdout).toMatch(/line 2: expected 2 values \(city, tone\), got 1/);
    // An empty cell is no value: the required input is missing (row 2 named), the default is not replaced by ''.
    ws.write('empty.csv', 'city,tone\nGhent,\n,dry\n');
    const empty = await runCli(['run', 'guide.crew.json', '--inputs-file', 'empty.csv'], { cwd: ws.dir, env });
    expect(empty.code, describeResult(empty)).toBe(2);
    expect(empty.stderr + empty.stdout).toMatch(/row 2: no value for the input "city"/);
    expect(empty.stderr + empty.stdout).not.toMatch(/row 1/);
    expect(server.requests.length).toBe(before);
  });
});
