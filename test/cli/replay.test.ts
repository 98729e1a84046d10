import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { trustWorkspace } from '../support/trustWorkspace';
import { describeResult, parseSingleJson, runCli, runEvents, showRun, tempDir, type TempWorkspace } from './cliHarness';

/**
 * A 3-task sequential crew on the `openai` provider (a workspace model profile) against the scripted
 * server; the server answers by the task marker in the request's user message.
 */
const OUTPUTS: Record<string, string> = { '[T1]': 'ALPHA-OUT', '[T2]': 'BETA-OUT', '[T3]': 'GAMMA-OUT' };
const USAGE: Record<string, { prompt_tokens: number; completion_tokens: number; cached: number }> = {
  '[T1]': { prompt_tokens: 100, completion_tokens: 10, cached: 1 },
  '[T2]': { prompt_tokens: 200, completion_tokens: 20, cached: 2 },
  '[T3]': { prompt_tokens: 300, completion_tokens: 30, cached: 3 },
};

let server: ScriptedServer;
let ws: TempWorkspace;

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';
    const marker = Object.keys(OUTPUTS).find((m) => user.includes(m));
    return marker ? { content: OUTPUTS[marker], usage: USAGE[marker] } : undefined;
  });
});
afterAll(() => server.close());
afterEach(() => ws?.remove());

function makeWorkspace(): TempWorkspace {
  const dir = tempDir('crewdeck-replay-');
  dir.write('crewdeck.json', {
    version: 1,
    models: { profiles: { srv: { provider: 'openai', model: 'm', baseUrl: server.baseUrl, apiKeyEnv: 'TEST_KEY' } } },
  });
  dir.write('chain.crew.json', {
    kind: 'crew',
    version: 1,
    id: 'chain',
    name: 'Chain',
    agents: [
      { id: 'a', role: 'Collector', goal: 'Collect', llm: 'srv' },
      { id: 'b', role: 'Drafter', goal: 'Draft', llm: 'srv' },
      { id: 'c', role: 'Editor', goal: 'Edit', llm: 'srv' },
    ],
    tasks: [
      { id: 'collect', description: '[T1] Collect the facts about {subject}', expectedOutput: 'Facts', agentId: 'a' },
      { id: 'draft', description: '[T2] Draft a text', expectedOutput: 'A draft', agentId: 'b' },
      { id: 'edit', description: '[T3] Edit the draft', expectedOutput: 'The final text', agentId: 'c' },
    ],
  });
  trustWorkspace(dir.dir); // srv sends TEST_KEY to its own baseUrl
  return dir;
}

const userMessages = (requests: ScriptedServer['requests']) =>
  requests
    .filter((r) => r.path === '/v1/chat/completions')
    .map((r) => (r.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n'));

describe('crewdeck replay', () => {
  it('replays from task 2 without calling the model for task 1, and links the new run to the old one', async () => {
    ws = makeWorkspace();
    const env = { TEST_KEY: 'secret-key' };

    server.requests.length = 0;
    const original = await runCli(['run', ws.path('chain.crew.json'), '--input', 'subject=owls', '--json'], { cwd: ws.dir, env });
    expect(original.code, describeResult(original)).toBe(0);
    const first = parseSingleJson(original);
    expect(first.status).toBe('completed');
    expect(first.output).toBe('GAMMA-OUT');
    expect(first.tasks.map((t: { raw: string }) => t.raw)).toEqual(['ALPHA-OUT', 'BETA-OUT', 'GAMMA-OUT']);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.every((r) => r.headers.authorization === 'Bearer secret-key')).toBe(true);
    expect(userMessages(server.requests)[0]).toContain('[T1] Collect the facts about owls');

    server.requests.length = 0;
    // From the workspace folder, with no --workspace: the current directory is the workspace.
    const replay = await runCli(['replay', first.runId, '--from-task', 'draft', '--json'], { cwd: ws.dir, env });
    expect(replay.code, describeResult(replay)).toBe(0);
    const second = parseSingleJson(replay);
    expect(second.status).toBe('completed');
    expect(second.runId).not.toBe(first.runId);

    // No model call for task 1; exactly one each for tasks 2 and 3.
    const prompts = userMessages(server.requests);
    expect(prompts).toHaveLength(2);
    expect(prompts.some((p) => p.includes('[T1]'))).toBe(false);
    expect(prompts.filter((p) => p.includes('[T2]'))).toHaveLength(1);
    expect(prompts.filter((p) => p.includes('[T3]'))).toHaveLength(1);
    // Task 2 still gets task 1's stored output as context.
    expect(prompts.find((p) => p.includes('[T2]'))).toContain('ALPHA-OUT');

    // The replay's result includes task 1's stored output; usage counts only the calls it made.
    expect(second.tasks[0]).toMatchObject({ taskId: 'collect', agentRole: 'Collector', raw: 'ALPHA-OUT' });
    expect(second.tasks.map((t: { taskId: string }) => t.taskId)).toEqual(['collect', 'draft', 'edit']);
    expect(second.output).toBe('GAMMA-OUT');
    expect(second.tokenUsage).toEqual({ promptTokens: 500, completionTokens: 50, cachedPromptTokens: 5, totalTokens: 550, requests: 2, unpricedModels: ['openai:m'] });

    const shown = await showRun(ws.dir, second.runId);
    expect(shown.replayOf).toEqual({ runId: first.runId, fromTaskId: 'draft' });
    expect(shown.inputs).toEqual({ subject: 'owls' });
    expect(shown.status).toBe('completed');
    expect(shown.tasks.map((t: { taskId: string; raw: string }) => [t.taskId, t.raw])).toEqual([
      ['collect', 'ALPHA-OUT'],
      ['draft', 'BETA-OUT'],
      ['edit', 'GAMMA-OUT'],
    ]);
    expect((await showRun(ws.dir, first.runId)).replayOf).toBeUndefined();

    const events = await runEvents(ws.dir, second.runId);
    const started = events[0] as { type: string; replayOf?: unknown };
    expect(started.type).toBe('run.started');
    expect(started.replayOf).toEqual({ runId: first.runId, fromTaskId: 'draft' });
    const restored = events.filter((e) => e.type === 'task.completed' && e.restoredFrom !== undefined);
    expect(restored.map((e) => (e as { taskId: string }).taskId)).toEqual(['collect']);
    const agentStarts = events.filter((e) => e.type === 'agent.started').map((e) => (e as { role: string }).role);
    expect(agentStarts).toEqual(['Drafter', 'Editor']);
  });

  it('a replay whose model key is missing exits 2 and makes no model call', async () => {
    ws = makeWorkspace();
    server.requests.length = 0;
    const original = await runCli(['run', ws.path('chain.crew.json'), '--input', 'subject=bats', '--json'], {
      cwd: ws.dir,
      env: { TEST_KEY: 'k' },
    });
    expect(original.code, describeResult(original)).toBe(0);
    const { runId } = parseSingleJson(original);

    server.requests.length = 0;
    const replay = await runCli(['replay', runId, '--from-task', 'edit', '--workspace', ws.dir]);
    expect(replay.code, describeResult(replay)).toBe(2);
    expect(replay.stderr).toContain('TEST_KEY');
    expect(server.requests).toHaveLength(0);
  });
});
