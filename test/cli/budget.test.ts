import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/events';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { assertGapFree, describeResult, finished, listRuns, parseSingleJson, runCli, runEvents, spawnCli, tempDir, type TempWorkspace } from './cliHarness';
import { workspaceDatabasePath } from '../../runtime/store/database';
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { WebSocket } from 'ws';

/** Budget guard on the real openai SDK against the scripted server: each task's call reports 120 tokens. */
const USAGE = { prompt_tokens: 100, completion_tokens: 20 };

let server: ScriptedServer;
let ws: TempWorkspace | undefined;

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';
    const marker = ['[T1]', '[T2]', '[T3]', '[M1]', '[M2]'].find((m) => user.includes(m));
    return marker ? { content: `reply-${marker.slice(1, -1)}`, usage: USAGE } : undefined;
  });
});
afterAll(() => server.close());
afterEach(() => {
  ws?.remove();
  ws = undefined;
  server.requests.length = 0;
});

const env = { TEST_KEY: 'k' };

function workspace(budget?: Record<string, number>): TempWorkspace {
  const dir = tempDir('crewdeck-budget-');
  dir.write('crewdeck.json', { version: 1, models: { profiles: { srv: { provider: 'openai', model: 'house-model', baseUrl: server.baseUrl } } } });
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
    ...(budget ? { budget } : {}),
  });
  return dir;
}

/** Model requests whose prompt carries `marker`. */
const callsFor = (marker: string) =>
  server.requests.filter((r) => r.path.endsWith('/chat/completions') && (r.body.messages as { content: string }[]).some((m) => typeof m.content === 'string' && m.content.includes(marker))).length;

function statusInDb(workspace: string): string | undefined {
  const file = workspaceDatabasePath(workspace);
  if (!existsSync(file)) return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 1000');
    return (db.prepare('SELECT status FROM runs ORDER BY started_at DESC LIMIT 1').get() as { status: string } | undefined)?.status;
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

describe('budget guard: a crew', () => {
  it('a cap reached after task 1 pauses before task 2 (exit 0, paused, kind budget); resume --max-tokens finishes with no call for task 1', async () => {
    ws = workspace();
    const r = await runCli(['run', ws.path('three.crew.json'), '--json', '--max-tokens', '100'], { cwd: ws.dir, env });
    expect(r.code, describeResult(r)).toBe(0);
    const paused = parseSingleJson(r);
    expect(paused.status).toBe('paused');
    expect(paused.pending).toMatchObject({ kind: 'budget', which: 'maxTokens', spent: 120, limit: 100, stepId: 't2' });
    expect(paused.tasks.map((t: { taskId: string }) => t.taskId)).toEqual(['t1']);
    expect(callsFor('[T1]')).toBe(1);
    expect(callsFor('[T2]')).toBe(0);
    expect((await listRuns(ws.dir))[0].status).toBe('paused');

    const events = await runEvents(ws.dir, paused.runId);
    const reached = events.filter((e): e is EventOf<'budget.reached'> => e.type === 'budget.reached');
    expect(reached).toHaveLength(1);
    expect(reached[0]).toMatchObject({ which: 'maxTokens', spent: 120, limit: 100, taskId: 't2' });
    expect(events.at(-1)).toMatchObject({ type: 'run.paused', reason: 'budget', methodId: 't2' });

    // Without a higher cap there is nothing to continue with: a clear error, exit 2.
    const same = await runCli(['resume', paused.runId, '--json', '--workspace', ws.dir], { env });
    expect(same.code, describeResult(same)).toBe(2);
    expect(same.stdout + same.stderr).toMatch(/--max-tokens/);

    const resumed = await runCli(['resume', paused.runId, '--json', '--max-tokens', '1000', '--workspace', ws.dir], { env });
    expect(resumed.code, describeResult(resumed)).toBe(0);
    const done = parseSingleJson(resumed);
    expect(done.runId).toBe(paused.runId);
    expect(done.status).toBe('completed');
    expect(done.output).toBe('reply-T3');
    expect(done.tasks.map((t: { taskId: string; raw: string }) => [t.taskId, t.raw])).toEqual([
      ['t1', 'reply-T1'],
      ['t2', 'reply-T2'],
      ['t3', 'reply-T3'],
    ]);
    // Task 1 was never asked again: one call in all, from the first session.
    expect(callsFor('[T1]')).toBe(1);
    expect(callsFor('[T2]')).toBe(1);
    expect(callsFor('[T3]')).toBe(1);
    expect(done.tokenUsage.totalTokens).toBe(360);

    const all = await runEvents(ws.dir, paused.runId);
    assertGapFree(all);
    expect(all.filter((e) => e.type === 'task.completed').map((e) => (e as EventOf<'task.completed'>).taskId)).toEqual(['t1', 't2', 't3']);
    expect(all.at(-1)!.type).toBe('run.completed');
    expect((await listRuns(ws.dir))[0].status).toBe('completed');
  }, 30_000);

  it('the document budget caps the run; a cap reached again pauses again; runs cancel ends the paused run', async () => {
    ws = workspace({ maxTokens: 200 });
    const r = await runCli(['run', ws.path('three.crew.json'), '--json'], { cwd: ws.dir, env });
    const first = parseSingleJson(r);
    // 120 after t1 (< 200), 240 after t2: pauses before t3.
    expect(first.pending).toMatchObject({ kind: 'budget', spent: 240, limit: 200, stepId: 't3' });
    const again = parseSingleJson(await runCli(['resume', first.runId, '--json', '--max-tokens', '241', '--workspace', ws.dir], { env }));
    expect(again.status).toBe('completed');
    expect(callsFor('[T1]') + callsFor('[T2]') + callsFor('[T3]')).toBe(3);

    const other = parseSingleJson(await runCli(['run', ws.path('three.crew.json'), '--json', '--max-tokens', '1'], { cwd: ws.dir, env }));
    expect(other.pending).toMatchObject({ kind: 'budget', stepId: 't2' });
    const cancel = await runCli(['runs', 'cancel', other.runId, '--workspace', ws.dir], { env });
    expect(cancel.code, describeResult(cancel)).toBe(0);
    const runs = await listRuns(ws.dir);
    expect(runs.find((x) => x.id === other.runId).status).toBe('cancelled');
  }, 30_000);

  it('rejects a bad --max-tokens with exit 2', async () => {
    ws = workspace();
    const r = await runCli(['run', ws.path('three.crew.json'), '--json', '--max-tokens', 'lots'], { cwd: ws.dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toContain('--max-tokens must be a whole number');
  });

  it('the pause survives a kill -9 of the process holding it: the app host (serve) that ran the crew is killed while alive, a new process resumes from task 2', async () => {
    ws = workspace({ maxTokens: 100 });
    const config = tempDir('crewdeck-budget-config-');
    // The host's user runs the scripted server as their own model server (test/support/userConfigDir.ts).
    config.write('settings.json', { modelServers: ['127.0.0.1'] });
    const host = spawnCli(['serve', '--port', '0', '--workspace', ws.dir], { cwd: ws.dir, env: { ...env, CREWDECK_CONFIG_DIR: config.dir, HOME: config.dir } });
    const hostExited = finished(host, 60_000, 'crewdeck serve');
    try {
      const url = await servedUrl(host);
      const socket = await connectHost(url);
      const started = await invoke(socket, 'runs.start', { path: 'three.crew.json' });
      expect(started.ok, JSON.stringify(started)).toBe(true);
      const runId: string = started.response.runId;
      const deadline = Date.now() + 15_000;
      while (statusInDb(ws.dir) !== 'paused' && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
      expect(statusInDb(ws.dir)).toBe('paused');
      expect(callsFor('[T1]')).toBe(1);
      expect(callsFor('[T2]')).toBe(0);
      // The host that ran the crew and holds the paused run is still up (it answers), then killed outright.
      expect((await invoke(socket, 'runs.get', { runId })).response.run.status).toBe('paused');
      expect(() => process.kill(host.pid!, 0)).not.toThrow();
      host.kill('SIGKILL');
      const killed = await hostExited;
      expect(killed.signal).toBe('SIGKILL');
      expect(() => process.kill(host.pid!, 0)).toThrow(); // gone

      const runs = await listRuns(ws.dir);
      expect(runs.find((r) => r.id === runId).status).toBe('paused');
      const resumed = parseSingleJson(await runCli(['resume', runId, '--json', '--max-tokens', '1000', '--workspace', ws.dir], { env }));
      expect(resumed.status).toBe('completed');
      expect(resumed.runId).toBe(runId);
      expect(resumed.tasks.map((t: { taskId: string }) => t.taskId)).toEqual(['t1', 't2', 't3']);
      expect(callsFor('[T1]')).toBe(1); // no call for task 1 after the kill
      expect(callsFor('[T2]')).toBe(1);
      expect(callsFor('[T3]')).toBe(1);
      assertGapFree(await runEvents(ws.dir, runId));
    } finally {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
      await hostExited.catch(() => undefined);
      config.remove();
    }
  }, 90_000);
});

/** The URL `crewdeck serve` prints (with its token). */
function servedUrl(child: ReturnType<typeof spawnCli>): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer | string) => {
      output += chunk.toString();
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
}

/** The host API's WebSocket, as the app in the browser opens it. */
function connectHost(url: string): Promise<WebSocket> {
  const { port, searchParams } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api?token=${searchParams.get('token')}`, { origin: `http://127.0.0.1:${port}` });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

let requestId = 0;
function invoke(socket: WebSocket, channel: string, request: unknown): Promise<{ ok: boolean; response?: any; error?: unknown }> {
  const id = ++requestId;
  return new Promise((resolve) => {
    const onMessage = (data: unknown) => {
      const message = JSON.parse(String(data));
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message.result);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, channel, request }));
  });
}

describe('budget guard: a flow', () => {
  it('pauses before the method whose model call has no room, and resume re-runs only that method', async () => {
    ws = tempDir('crewdeck-budget-flow-');
    ws.write('crewdeck.json', { version: 1, models: { default: 'srv', profiles: { srv: { provider: 'openai', model: 'house-model', baseUrl: server.baseUrl } } } });
    ws.write('two.flow.json', {
      kind: 'flow',
      version: 1,
      id: 'two',
      name: 'Two',
      budget: { maxTokens: 100 },
      methods: [
        { id: 'first', name: 'first', trigger: { start: true }, body: { type: 'llm', prompt: '[M1] Draft' } },
        { id: 'second', name: 'second', trigger: { listen: 'first' }, body: { type: 'llm', prompt: '[M2] Polish {input}' } },
      ],
    });
    const paused = parseSingleJson(await runCli(['run', ws.path('two.flow.json'), '--json'], { cwd: ws.dir, env }));
    expect(paused.status).toBe('paused');
    expect(paused.pending).toMatchObject({ kind: 'budget', which: 'maxTokens', spent: 120, limit: 100, stepId: 'second' });
    expect(callsFor('[M1]')).toBe(1);
    expect(callsFor('[M2]')).toBe(0);

    const done = parseSingleJson(await runCli(['resume', paused.runId, '--json', '--max-tokens', '500', '--workspace', ws.dir], { env }));
    expect(done.status).toBe('completed');
    expect(done.output).toBe('reply-M2');
    expect(callsFor('[M1]')).toBe(1);
    expect(callsFor('[M2]')).toBe(1);
    expect(done.tokenUsage.totalTokens).toBe(240);
    const events = await runEvents(ws.dir, paused.runId);
    assertGapFree(events);
    expect(events.filter((e) => e.type === 'flow.method.completed').map((e) => (e as EventOf<'flow.method.completed'>).methodId)).toEqual(['first', 'second']);
  }, 30_000);
});
