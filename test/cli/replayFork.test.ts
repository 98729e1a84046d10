import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { describeResult, parseSingleJson, runCli, runEvents, tempDir, type TempWorkspace } from './cliHarness';

/** `crewdeck replay --set-output`: fork a run from a task with an earlier task's output edited. */
let server: ScriptedServer;
let ws: TempWorkspace;

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    if (user.includes('[T1]')) return { content: 'Owls are birds.' };
    if (user.includes('[T2]')) return { content: 'A draft about owls.' };
    return undefined;
  });
});
afterAll(() => server.close());
afterEach(() => ws?.remove());

const userMessages = () =>
  server.requests
    .filter((r) => r.path === '/v1/chat/completions')
    .map((r) => (r.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n'));

describe('crewdeck replay --set-output', () => {
  it('gives later tasks the edited output as context, calls no model for the edited task, and records the edit', async () => {
    ws = tempDir('crewdeck-fork-');
    ws.write('crewdeck.json', { version: 1, models: { profiles: { srv: { provider: 'openai', model: 'm', baseUrl: server.baseUrl } } } });
    ws.write('chain.crew.json', {
      kind: 'crew',
      version: 1,
      id: 'chain',
      name: 'Chain',
      agents: [{ id: 'a', role: 'Writer', goal: 'Write', llm: 'srv' }],
      tasks: [
        { id: 't1', description: '[T1] Collect', expectedOutput: 'Facts', agentId: 'a' },
        { id: 't2', description: '[T2] Draft', expectedOutput: 'A draft', agentId: 'a' },
      ],
    });
    const env = {};
    const first = parseSingleJson(await runCli(['run', ws.path('chain.crew.json'), '--json'], { cwd: ws.dir, env, timeoutMs: 60_000 }));
    expect(first.status).toBe('completed');

    server.requests.length = 0;
    const r = await runCli(['replay', first.runId, '--from-task', 't2', '--set-output', 't1=Owls are EDITED nocturnal hunters.', '--json'], { cwd: ws.dir, env, timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const fork = parseSingleJson(r);
    expect(fork.tasks.map((t: { raw: string }) => t.raw)).toEqual(['Owls are EDITED nocturnal hunters.', 'A draft about owls.']);
    // One model call, for t2 only, and its prompt holds the edited text.
    const prompts = userMessages();
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('[T2]');
    expect(prompts[0]).toContain('Owls are EDITED nocturnal hunters.');
    expect(prompts[0]).not.toContain('Owls are birds.');

    const events = await runEvents(ws.dir, fork.runId);
    expect(events[0]).toMatchObject({ type: 'run.started', replayOf: { runId: first.runId, fromTaskId: 't2', edits: { t1: 'Owls are EDITED nocturnal hunters.' } } });

    // From a file, and the problems named.
    writeFileSync(ws.path('t1.txt'), 'From a file.');
    server.requests.length = 0;
    const fromFile = parseSingleJson(await runCli(['replay', first.runId, '--from-task', 't2', '--set-output', `t1=@${ws.path('t1.txt')}`, '--json'], { cwd: ws.dir, env, timeoutMs: 60_000 }));
    expect(fromFile.tasks[0].raw).toBe('From a file.');
    expect(userMessages()[0]).toContain('From a file.');
    const later = await runCli(['replay', first.runId, '--from-task', 't1', '--set-output', 't2=x'], { cwd: ws.dir, env, timeoutMs: 60_000 });
    expect(later.code).toBe(2);
    expect(later.stderr).toContain('task "t2" runs again in this replay');
    const unknown = await runCli(['replay', first.runId, '--from-task', 't2', '--set-output', 'nope=x'], { cwd: ws.dir, env, timeoutMs: 60_000 });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('nope');
  });
});
