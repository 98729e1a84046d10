import { createServer as createTcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/events';
import { startScriptedServer } from '../support/scriptedServer';
import { describeResult, parseSingleJson, runCli, runEvents, tempDir, type TempWorkspace } from './cliHarness';

/**
 * `replay --offline RUNID` and `resume --offline RUNID`: a fork or a continued session answers its model
 * calls from a recorded run. The model server is closed and its port watched: any connection attempt is
 * counted and fails the test.
 */
let ws: TempWorkspace | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  ws?.remove();
  ws = undefined;
});

async function watchPort(port: number): Promise<{ attempts: () => number }> {
  let attempts = 0;
  const watcher = createTcpServer((socket) => {
    attempts++;
    socket.destroy();
  });
  await new Promise<void>((done, fail) => watcher.once('error', fail).listen(port, '127.0.0.1', () => done()));
  closers.push(() => new Promise((done) => watcher.close(() => done())));
  return { attempts: () => attempts };
}

/** Records on a live scripted server, then closes it and watches its port. */
async function recordThenGoOffline(record: (baseUrl: string) => Promise<void>): Promise<{ attempts: () => number }> {
  const server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    const marker = ['[T1]', '[T2]', '[T3]', '[M1]', '[M2]', '[M3]'].find((m) => user.includes(m));
    return marker ? { content: `recorded-${marker.slice(1, -1)}`, usage: { prompt_tokens: 100, completion_tokens: 20 } } : undefined;
  });
  await record(server.baseUrl);
  const port = Number(new URL(server.baseUrl).port);
  await server.close();
  return watchPort(port);
}

function crewWorkspace(baseUrl: string): TempWorkspace {
  const dir = tempDir('crewdeck-offline-replay-');
  dir.write('crewdeck.json', { version: 1, models: { default: 'srv', profiles: { srv: { provider: 'openai', model: 'house-model', baseUrl } } } });
  dir.write('three.crew.json', {
    kind: 'crew',
    version: 1,
    id: 'three',
    name: 'Three',
    agents: [{ id: 'a', role: 'Writer', goal: 'Write', llm: 'srv' }],
    tasks: [
      { id: 't1', description: '[T1] Collect', expectedOutput: 'Facts', agentId: 'a' },
      { id: 't2', description: '[T2] Write', expectedOutput: 'Text', agentId: 'a' },
      { id: 't3', description: '[T3] Polish', expectedOutput: 'Text', agentId: 'a' },
    ],
  });
  dir.write('three.flow.json', {
    kind: 'flow',
    version: 1,
    id: 'flow3',
    name: 'Flow three',
    state: { initial: { audience: 'kids' } },
    methods: [
      { id: 'one', name: 'one', trigger: { start: true }, body: { type: 'llm', prompt: '[M1] Start' } },
      { id: 'two', name: 'two', trigger: { listen: 'one' }, body: { type: 'llm', prompt: '[M2] For {state.audience}: {input}' } },
      { id: 'three', name: 'three', trigger: { listen: 'two' }, body: { type: 'llm', prompt: '[M3] End {input}' } },
    ],
  });
  return dir;
}

describe('replay and resume --offline', () => {
  it('a crew fork, a crew resumed at its budget and a flow fork answer from the recording with no connection attempt', async () => {
    let full: any;
    let paused: any;
    let flow: any;
    const watched = await recordThenGoOffline(async (baseUrl) => {
      ws = crewWorkspace(baseUrl);
      full = parseSingleJson(await runCli(['run', ws.path('three.crew.json'), '--json'], { cwd: ws.dir, timeoutMs: 60_000 }));
      paused = parseSingleJson(await runCli(['run', ws.path('three.crew.json'), '--json', '--max-tokens', '100'], { cwd: ws.dir, timeoutMs: 60_000 }));
      flow = parseSingleJson(await runCli(['run', ws.path('three.flow.json'), '--json'], { cwd: ws.dir, timeoutMs: 60_000 }));
    });
    expect(full.status).toBe('completed');
    expect(paused.status).toBe('paused');
    expect(flow.status).toBe('completed');

    // A crew fork from t2, t1's output edited: t2 and t3 answered from the full run's recording.
    const r = await runCli(['replay', full.runId, '--from-task', 't2', '--set-output', 't1=EDITED', '--offline', full.runId, '--json', '--workspace', ws!.dir], { timeoutMs: 60_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const fork = parseSingleJson(r);
    expect(fork).toMatchObject({ status: 'completed', offlineFrom: full.runId, output: 'recorded-T3' });
    expect(fork.tasks.map((t: { raw: string }) => t.raw)).toEqual(['EDITED', 'recorded-T2', 'recorded-T3']);
    expect((await runEvents(ws!.dir, fork.runId))[0]).toMatchObject({ type: 'run.started', offlineFrom: full.runId, replayOf: { runId: full.runId, fromTaskId: 't2' } });

    // A recording with fewer calls than the fork asks for (the paused run holds t1 only) fails with the offline message.
    const short = await runCli(['replay', full.runId, '--from-task', 't1', '--offline', paused.runId, '--json', '--workspace', ws!.dir], { timeoutMs: 60_000 });
    expect(short.code, describeResult(short)).toBe(1);
    expect(short.stdout).toContain('no recorded reply for Writer in t2 (call 1)');

    // The run paused at its budget continues offline: its t2 and t3 from the full run's recording.
    const resumed = await runCli(['resume', paused.runId, '--max-tokens', '1000', '--offline', full.runId, '--json', '--workspace', ws!.dir], { timeoutMs: 60_000 });
    expect(resumed.code, describeResult(resumed)).toBe(0);
    const done = parseSingleJson(resumed);
    expect(done).toMatchObject({ runId: paused.runId, status: 'completed', offlineFrom: full.runId });
    expect(done.tasks.map((t: { raw: string }) => t.raw)).toEqual(['recorded-T1', 'recorded-T2', 'recorded-T3']);
    const events = await runEvents(ws!.dir, paused.runId);
    expect(events.find((e): e is EventOf<'run.resumed'> => e.type === 'run.resumed')).toMatchObject({ offlineFrom: full.runId });

    // A flow fork from method two, offline from its own recording.
    const flowFork = parseSingleJson(await runCli(['replay', flow.runId, '--from-method', 'two', '--set-state', 'audience=adults', '--offline', flow.runId, '--json', '--workspace', ws!.dir], { timeoutMs: 60_000 }));
    expect(flowFork).toMatchObject({ status: 'completed', offlineFrom: flow.runId, output: 'recorded-M3', state: { audience: 'adults' } });

    expect(watched.attempts()).toBe(0);
  }, 180_000);
});
