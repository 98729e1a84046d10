import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { describeResult, parseSingleJson, runCli, tempDir, type TempWorkspace } from './cliHarness';

/** Two runs of one crew on the scripted server that differ only in task 2's reply. */
let server: ScriptedServer;
let ws: TempWorkspace;
let t2Reply = 'The draft says owls hunt at night.';
let t2Usage = { prompt_tokens: 200, completion_tokens: 20, cached: 0 };

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';
    if (user.includes('[T1]')) return { content: 'Facts about owls.', usage: { prompt_tokens: 100, completion_tokens: 10, cached: 0 } };
    if (user.includes('[T2]')) return { content: t2Reply, usage: t2Usage };
    if (user.includes('[T3]')) return { content: 'Final text.', usage: { prompt_tokens: 300, completion_tokens: 30, cached: 0 } };
    return undefined;
  });
});
afterAll(() => server.close());
afterEach(() => ws?.remove());

describe('crewdeck runs diff', () => {
  it('marks only task 2 as changed, with its word diff and token deltas, and the run totals', async () => {
    ws = tempDir('crewdeck-diff-');
    ws.write('crewdeck.json', {
      version: 1,
      models: { profiles: { srv: { provider: 'openai', model: 'm', baseUrl: server.baseUrl } } },
      prices: { m: { inputPerMTok: 1, outputPerMTok: 4 } },
    });
    ws.write('chain.crew.json', {
      kind: 'crew',
      version: 1,
      id: 'chain',
      name: 'Chain',
      agents: [{ id: 'a', role: 'Writer', goal: 'Write', llm: 'srv' }],
      tasks: [
        { id: 't1', description: '[T1] Collect', expectedOutput: 'Facts', agentId: 'a' },
        { id: 't2', description: '[T2] Draft', expectedOutput: 'A draft', agentId: 'a' },
        { id: 't3', description: '[T3] Edit', expectedOutput: 'Text', agentId: 'a' },
      ],
    });
    const first = parseSingleJson(await runCli(['run', ws.path('chain.crew.json'), '--json'], { cwd: ws.dir }));
    t2Reply = 'The draft says owls hunt by day.';
    t2Usage = { prompt_tokens: 200, completion_tokens: 35, cached: 0 };
    const second = parseSingleJson(await runCli(['run', ws.path('chain.crew.json'), '--json'], { cwd: ws.dir }));
    expect([first.status, second.status]).toEqual(['completed', 'completed']);

    const r = await runCli(['runs', 'diff', first.runId, second.runId, '--json', '--workspace', ws.dir]);
    expect(r.code, describeResult(r)).toBe(0);
    const diff = parseSingleJson(r);
    expect(diff.tasks.map((t: { taskId: string; changed: boolean }) => [t.taskId, t.changed])).toEqual([
      ['t1', false],
      ['t2', true],
      ['t3', false],
    ]);
    const t2 = diff.tasks[1];
    expect(t2.a.output).toBe('The draft says owls hunt at night.');
    expect(t2.b.output).toBe('The draft says owls hunt by day.');
    expect(t2.words.filter((p: { op: string }) => p.op !== 'equal')).toEqual([
      { op: 'remove', text: 'at night.' },
      { op: 'add', text: 'by day.' },
    ]);
    expect(t2.delta.completionTokens).toBe(15);
    expect(t2.delta.totalTokens).toBe(15);
    expect(t2.delta.costUsd).toBeCloseTo((15 * 4) / 1e6, 12);
    expect(diff.tasks[0].delta.totalTokens).toBe(0);
    expect(diff.tokenUsage.a.totalTokens).toBe(first.tokenUsage.totalTokens);
    expect(diff.tokenUsage.b.totalTokens - diff.tokenUsage.a.totalTokens).toBe(15);
    expect(diff.costUsd.b - diff.costUsd.a).toBeCloseTo(60 / 1e6, 12);

    const text = await runCli(['runs', 'diff', first.runId, second.runId, '--workspace', ws.dir]);
    expect(text.code, describeResult(text)).toBe(0);
    expect(text.stdout).toMatch(/≠ changed t2/);
    expect(text.stdout).toContain('[-at night.-]{+by day.+}');
    expect(text.stdout).toMatch(/= equal\s+t1/);

    const missing = await runCli(['runs', 'diff', first.runId, 'run-nope', '--workspace', ws.dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no run with id "run-nope"');
  });
});
