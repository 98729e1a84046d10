import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/events';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { describeResult, listRuns, parseSingleJson, runCli, runEvents, tempDir, type TempWorkspace } from './cliHarness';

/** Cost from the workspace's price table, on the real openai SDK against the scripted server. */
const USAGE: Record<string, { prompt_tokens: number; completion_tokens: number; cached: number }> = {
  '[T1]': { prompt_tokens: 1234, completion_tokens: 56, cached: 200 },
  '[T2]': { prompt_tokens: 2345, completion_tokens: 78, cached: 0 },
  '[T3]': { prompt_tokens: 3456, completion_tokens: 910, cached: 1024 },
};
const PRICE = { inputPerMTok: 2.5, cachedInputPerMTok: 1.25, outputPerMTok: 10 };

let server: ScriptedServer;
let ws: TempWorkspace;

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';
    const marker = Object.keys(USAGE).find((m) => user.includes(m));
    return marker ? { content: `reply-${marker.slice(1, -1)}`, usage: USAGE[marker] } : undefined;
  });
});
afterAll(() => server.close());
afterEach(() => ws?.remove());

function workspace(prices: Record<string, unknown> | undefined): TempWorkspace {
  const dir = tempDir('crewdeck-cost-');
  dir.write('crewdeck.json', {
    version: 1,
    models: { profiles: { srv: { provider: 'openai', model: 'house-model', baseUrl: server.baseUrl } } },
    ...(prices ? { prices } : {}),
  });
  dir.write('three.crew.json', {
    kind: 'crew',
    version: 1,
    id: 'three',
    name: 'Three',
    agents: [
      { id: 'a', role: 'Collector', goal: 'Collect', llm: 'srv' },
      { id: 'b', role: 'Writer', goal: 'Write', llm: 'srv' },
    ],
    tasks: [
      { id: 't1', description: '[T1] Collect', expectedOutput: 'Facts', agentId: 'a' },
      { id: 't2', description: '[T2] Write', expectedOutput: 'Text', agentId: 'b' },
      { id: 't3', description: '[T3] Polish', expectedOutput: 'Text', agentId: 'b' },
    ],
  });
  return dir;
}

const env = { TEST_KEY: 'k' };

describe('run cost', () => {
  it('costUsd is the sum over calls of uncached prompt, cached and completion tokens × prices, in the result, trace and history', async () => {
    ws = workspace({ 'house-model': PRICE });
    const r = await runCli(['run', ws.path('three.crew.json'), '--json'], { cwd: ws.dir, env });
    expect(r.code, describeResult(r)).toBe(0);
    const result = parseSingleJson(r);
    const events = await runEvents(ws.dir, result.runId);
    const calls = events.filter((e): e is EventOf<'llm.completed'> => e.type === 'llm.completed');
    expect(calls).toHaveLength(3);
    const expected = calls.reduce(
      (sum, c) =>
        sum +
        ((c.usage.promptTokens - c.usage.cachedPromptTokens) * PRICE.inputPerMTok + c.usage.cachedPromptTokens * PRICE.cachedInputPerMTok + c.usage.completionTokens * PRICE.outputPerMTok) / 1e6,
      0,
    );
    // The recorded usage is what the server reported.
    expect(calls.map((c) => c.usage.cachedPromptTokens)).toEqual([200, 0, 1024]);
    expect(Math.abs(result.tokenUsage.costUsd - expected)).toBeLessThan(1e-9);
    expect(expected).toBeGreaterThan(0.01);

    // Per call, task, agent and run in the trace.
    for (const c of calls) expect(c.usage.costUsd).toBeGreaterThan(0);
    const tasks = events.filter((e): e is EventOf<'task.completed'> => e.type === 'task.completed');
    expect(Math.abs(tasks.reduce((s, t) => s + t.tokenUsage.costUsd!, 0) - expected)).toBeLessThan(1e-9);
    const t3 = ((3456 - 1024) * 2.5 + 1024 * 1.25 + 910 * 10) / 1e6;
    expect(Math.abs(tasks[2]!.tokenUsage.costUsd! - t3)).toBeLessThan(1e-9);
    const agents = events.filter((e): e is EventOf<'agent.completed'> => e.type === 'agent.completed');
    expect(agents.every((a) => typeof a.tokenUsage.costUsd === 'number')).toBe(true);
    const end = events.find((e): e is EventOf<'run.completed'> => e.type === 'run.completed')!;
    expect(Math.abs(end.tokenUsage.costUsd! - expected)).toBeLessThan(1e-9);

    const [listed] = await listRuns(ws.dir);
    expect(Math.abs(listed.tokenUsage.costUsd - expected)).toBeLessThan(1e-9);
    const table = await runCli(['runs', 'list', '--workspace', ws.dir]);
    expect(table.stdout).toContain('COST');
    expect(table.stdout).toContain(`$${expected.toFixed(4)}`);

    const plain = await runCli(['run', ws.path('three.crew.json')], { cwd: ws.dir, env });
    expect(plain.code, describeResult(plain)).toBe(0);
    expect(plain.stdout).toContain(`$${expected.toFixed(4)}`);
  });

  it('a model with no price has no cost (not 0), and the summary says so', async () => {
    ws = workspace(undefined);
    const r = await runCli(['run', ws.path('three.crew.json'), '--json'], { cwd: ws.dir, env });
    expect(r.code, describeResult(r)).toBe(0);
    const result = parseSingleJson(r);
    expect(result.tokenUsage.totalTokens).toBeGreaterThan(0);
    expect('costUsd' in result.tokenUsage).toBe(false);
    expect(result.tokenUsage.unpricedModels).toEqual(['openai:house-model']);
    const [listed] = await listRuns(ws.dir);
    expect('costUsd' in listed.tokenUsage).toBe(false);

    const plain = await runCli(['run', ws.path('three.crew.json')], { cwd: ws.dir, env });
    expect(plain.stdout).toContain('no price for openai:house-model');
  });
});
