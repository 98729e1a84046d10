import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/events';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { describeResult, listRuns, parseSingleJson, runCli, runEvents, tempDir, type TempWorkspace } from './cliHarness';

/** `crewdeck replay --from-method --set-state`: fork a flow run from a method with its state edited. */
let server: ScriptedServer;
let ws: TempWorkspace;

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    if (user.includes('[M1]')) return { content: 'Owls hunt at night.' };
    if (user.includes('[M2]')) return { content: `Draft for ${/for (\S+)/.exec(user)?.[1] ?? '?'}.` };
    if (user.includes('[M3]')) return { content: 'Polished.' };
    return undefined;
  });
});
afterAll(() => server.close());
afterEach(() => ws?.remove());

const prompts = () =>
  server.requests
    .filter((r) => r.path === '/v1/chat/completions')
    .map((r) => (r.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n'));

function flowWorkspace(): TempWorkspace {
  const dir = tempDir('crewdeck-flowfork-');
  dir.write('crewdeck.json', { version: 1, models: { default: 'srv', profiles: { srv: { provider: 'openai', model: 'm', baseUrl: server.baseUrl } } } });
  dir.write('three.flow.json', {
    kind: 'flow',
    version: 1,
    id: 'three',
    name: 'Three',
    state: { initial: { topic: 'owls', audience: 'kids', count: 1 } },
    methods: [
      { id: 'research', name: 'research', trigger: { start: true }, body: { type: 'llm', prompt: '[M1] One fact about {state.topic}.' } },
      { id: 'draft', name: 'draft', trigger: { listen: 'research' }, body: { type: 'llm', prompt: '[M2] Draft about {state.topic} for {state.audience} ({state.count} paragraphs) using: {input}' } },
      { id: 'polish', name: 'polish', trigger: { listen: 'draft' }, body: { type: 'llm', prompt: '[M3] Polish: {input}' } },
    ],
  });
  return dir;
}

describe('crewdeck replay --from-method --set-state', () => {
  it('replays the methods before the fork from the recording, edits the state there, and records the edit', async () => {
    ws = flowWorkspace();
    const first = parseSingleJson(await runCli(['run', ws.path('three.flow.json'), '--json'], { cwd: ws.dir, timeoutMs: 60_000 }));
    expect(first.status).toBe('completed');
    expect(prompts().map((p) => p.slice(0, 4))).toEqual(['[M1]', '[M2]', '[M3]']);
    expect(prompts()[1]).toContain('for kids (1 paragraphs)');

    server.requests.length = 0;
    const r = await runCli(['replay', first.runId, '--from-method', 'draft', '--set-state', 'audience=EDITED-ADULTS', '--set-state', 'count=3', '--json'], { cwd: ws.dir, timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const fork = parseSingleJson(r);
    expect(fork.status).toBe('completed');
    expect(fork.runId).not.toBe(first.runId);
    // The edit holds in the state (a JSON value parsed: 3 is a number), and method 1 made no model call.
    expect(fork.state).toEqual({ topic: 'owls', audience: 'EDITED-ADULTS', count: 3 });
    const asked = prompts();
    expect(asked.map((p) => p.slice(0, 4))).toEqual(['[M2]', '[M3]']);
    expect(asked[0]).toContain('for EDITED-ADULTS (3 paragraphs)');
    expect(asked[0]).toContain('using: Owls hunt at night.'); // method 1's recorded output is the draft's input
    expect(fork.output).toBe('Polished.');

    const events = await runEvents(ws.dir, fork.runId);
    expect(events[0]).toMatchObject({ type: 'run.started', replayOf: { runId: first.runId, fromMethodId: 'draft', edits: { audience: 'EDITED-ADULTS', count: 3 } } });
    const completed = events.filter((e): e is EventOf<'flow.method.completed'> => e.type === 'flow.method.completed');
    expect(completed.map((e) => [e.methodId, e.restoredFrom])).toEqual([
      ['research', first.runId],
      ['draft', undefined],
      ['polish', undefined],
    ]);
    // No model call inside the restored method's span.
    const research = events.find((e) => e.type === 'flow.method.started' && e.methodId === 'research')!;
    expect(events.filter((e) => e.type === 'llm.started' && e.parentSpanId === research.spanId)).toEqual([]);
    expect((await listRuns(ws.dir)).find((x) => x.id === fork.runId).replayOf).toEqual({ runId: first.runId, fromMethodId: 'draft' });

    // A value from a file; text that is not JSON stays text.
    writeFileSync(ws.path('audience.txt'), 'readers of a file');
    server.requests.length = 0;
    const fromFile = parseSingleJson(await runCli(['replay', first.runId, '--from-method', 'draft', '--set-state', `audience=@${ws.path('audience.txt')}`, '--json'], { cwd: ws.dir, timeoutMs: 60_000 }));
    expect(fromFile.state.audience).toBe('readers of a file');
    expect(prompts()[0]).toContain('for readers of a file');

    // From the first method: nothing is restored, the edit applies to the initial state.
    server.requests.length = 0;
    const fromStart = parseSingleJson(await runCli(['replay', first.runId, '--from-method', 'research', '--set-state', 'topic=bats', '--json'], { cwd: ws.dir, timeoutMs: 60_000 }));
    expect(fromStart.state.topic).toBe('bats');
    expect(prompts().map((p) => p.slice(0, 4))).toEqual(['[M1]', '[M2]', '[M3]']);
    expect(prompts()[0]).toContain('about bats');
  }, 120_000);

  it('names what is wrong: an unknown method, a state field that is not there, the wrong flags', async () => {
    ws = flowWorkspace();
    const first = parseSingleJson(await runCli(['run', ws.path('three.flow.json'), '--json'], { cwd: ws.dir, timeoutMs: 60_000 }));
    const unknown = await runCli(['replay', first.runId, '--from-method', 'nope'], { cwd: ws.dir, timeoutMs: 60_000 });
    expect(unknown.code, describeResult(unknown)).toBe(2);
    expect(unknown.stderr).toContain('no method "nope"');
    expect(unknown.stderr).toContain('research, draft, polish');
    const key = await runCli(['replay', first.runId, '--from-method', 'draft', '--set-state', 'audiense=x'], { cwd: ws.dir, timeoutMs: 60_000 });
    expect(key.code, describeResult(key)).toBe(2);
    expect(key.stderr).toContain('no field "audiense"');
    expect(key.stderr).toContain('topic, audience, count');
    const mixed = await runCli(['replay', first.runId, '--from-task', 'draft', '--set-state', 'audience=x'], { cwd: ws.dir, timeoutMs: 60_000 });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--set-state');
    const crewFlag = await runCli(['replay', first.runId, '--from-task', 'draft'], { cwd: ws.dir, timeoutMs: 60_000 });
    expect(crewFlag.code, describeResult(crewFlag)).toBe(2);
    expect(crewFlag.stderr).toContain('is a flow run; replay a flow from a method with --from-method');
  }, 120_000);
});
