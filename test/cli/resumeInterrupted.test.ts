import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/events';
import { workspaceDatabasePath } from '../../runtime/store/database';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import type { HostPush } from '../../shared/host-api';
import { createHostService } from '../../runtime/host/createHostService';
import { ofType, traceProblems } from '../support/crewHarness';
import { assertGapFree, describeResult, finished, listRuns, parseSingleJson, runCli, runEvents, spawnCli, tempDir, type TempWorkspace } from './cliHarness';

/**
 * `crewdeck resume` of a crew run whose process was killed mid-task (a real SIGKILL of `crewdeck run`
 * while task 2's model call is still waiting on the scripted server): it continues from task 2.
 */
let server: ScriptedServer;
let ws: TempWorkspace | undefined;
let slowT2 = true;

beforeAll(async () => {
  server = await startScriptedServer();
  server.setHandler((body) => {
    const user = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';
    const marker = ['[T1]', '[T2]', '[T3]'].find((m) => user.includes(m));
    if (!marker) return undefined;
    // Task 2's first call hangs long enough for the test to kill the process in it.
    const delayMs = marker === '[T2]' && slowT2 ? 20_000 : 0;
    if (marker === '[T2]') slowT2 = false;
    return { content: `reply-${marker.slice(1, -1)}`, usage: { prompt_tokens: 100, completion_tokens: 20 }, delayMs };
  });
});
afterAll(() => server.close());
afterEach(() => {
  ws?.remove();
  ws = undefined;
  server.requests.length = 0;
  slowT2 = true;
});

const callsFor = (marker: string) =>
  server.requests.filter((r) => r.path.endsWith('/chat/completions') && (r.body.messages as { content: string }[]).some((m) => typeof m.content === 'string' && m.content.includes(marker))).length;

/** The latest run's id and how many of its tasks completed, read-only from the workspace database. */
function progress(workspace: string): { runId?: string; completed: number } {
  const file = workspaceDatabasePath(workspace);
  if (!existsSync(file)) return { completed: 0 };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 1000');
    const run = db.prepare('SELECT id FROM runs ORDER BY started_at DESC LIMIT 1').get() as { id: string } | undefined;
    if (!run) return { completed: 0 };
    return { runId: run.id, completed: (db.prepare("SELECT COUNT(*) AS n FROM events WHERE run_id = ? AND type = 'task.completed'").get(run.id) as { n: number }).n };
  } catch {
    return { completed: 0 };
  } finally {
    db?.close();
  }
}

/** A three-task crew run killed (a real SIGKILL) while task 2's model call waits on the server. */
async function killedInTask2(): Promise<{ runId: string; pid: number; workspace: TempWorkspace }> {
  const workspace = (ws = tempDir('crewdeck-interrupted-'));
  workspace.write('crewdeck.json', { version: 1, models: { profiles: { srv: { provider: 'openai', model: 'house-model', baseUrl: server.baseUrl } } } });
  workspace.write('three.crew.json', {
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
  const child = spawnCli(['run', workspace.path('three.crew.json'), '--json'], { cwd: workspace.dir });
  const exited = finished(child, 40_000);
  // Task 1 done and stored, task 2's model call waiting on the server: the process is mid-task.
  const deadline = Date.now() + 20_000;
  while ((progress(workspace.dir).completed < 1 || callsFor('[T2]') < 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const seen = progress(workspace.dir);
  expect(seen.completed).toBe(1);
  expect(callsFor('[T2]')).toBe(1);
  expect(() => process.kill(child.pid!, 0)).not.toThrow(); // still running, not exited
  child.kill('SIGKILL');
  const killed = await exited;
  expect(killed.signal, describeResult(killed)).toBe('SIGKILL');
  expect(killed.stdout).toBe('');
  return { runId: seen.runId!, pid: child.pid!, workspace };
}

describe('crewdeck resume of an interrupted crew', () => {
  it('continues a crew killed (SIGKILL) in task 2 from task 2: task 1 is not asked again, the run completes', async () => {
    const { runId, pid, workspace } = await killedInTask2();
    const stale = (await listRuns(workspace.dir)).find((r) => r.id === runId);
    expect(stale.status).toBe('interrupted');
    expect(stale.error).toContain(String(pid));

    const r = await runCli(['resume', runId, '--json', '--workspace', workspace.dir], { timeoutMs: 40_000 });
    expect(r.code, describeResult(r)).toBe(0);
    const done = parseSingleJson(r);
    expect(done.runId).toBe(runId);
    expect(done.status).toBe('completed');
    expect(done.output).toBe('reply-T3');
    expect(done.tasks.map((t: { taskId: string; raw: string }) => [t.taskId, t.raw])).toEqual([
      ['t1', 'reply-T1'],
      ['t2', 'reply-T2'],
      ['t3', 'reply-T3'],
    ]);
    // Task 1 was asked once (before the kill); task 2 again from its start; task 3 once.
    expect(callsFor('[T1]')).toBe(1);
    expect(callsFor('[T2]')).toBe(2);
    expect(callsFor('[T3]')).toBe(1);
    // The whole run's usage: task 1's call of the killed session, and tasks 2 and 3 now.
    expect(done.tokenUsage.totalTokens).toBe(360);

    const events = await runEvents(workspace.dir, runId);
    assertGapFree(events);
    // What the killed process was in (the task, its agent, the model call) is closed: every span ends.
    expect(traceProblems(events)).toEqual([]);
    const ofType = <K extends EventOf<any>['type']>(type: K) => events.filter((e): e is EventOf<K> => e.type === type);
    expect(ofType('run.started')).toHaveLength(1);
    expect(ofType('run.resumed')).toHaveLength(1);
    // The task the process died in is closed as interrupted under its own span, then runs again.
    const t2Starts = ofType('task.started').filter((e) => e.taskId === 't2');
    expect(t2Starts).toHaveLength(2);
    const interrupted = ofType('task.failed').find((e) => e.spanId === t2Starts[0]!.spanId);
    expect(interrupted).toMatchObject({ taskId: 't2', errorName: 'Interrupted' });
    expect(ofType('task.completed').map((e) => e.taskId)).toEqual(['t1', 't2', 't3']);
    expect(events.at(-1)!.type).toBe('run.completed');
    expect((await listRuns(workspace.dir)).find((x) => x.id === runId).status).toBe('completed');

    // A finished run is not resumed again.
    const again = await runCli(['resume', runId, '--workspace', workspace.dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('completed');
  }, 90_000);

  it('cancels a crew killed (SIGKILL) in task 2: the task is closed as interrupted, the run ends cancelled, resume refuses it', async () => {
    const { runId, workspace } = await killedInTask2();
    expect((await listRuns(workspace.dir)).find((r) => r.id === runId).status).toBe('interrupted');

    const cancelled = await runCli(['runs', 'cancel', runId, '--json', '--workspace', workspace.dir]);
    expect(cancelled.code, describeResult(cancelled)).toBe(0);
    expect(parseSingleJson(cancelled)).toEqual({ runId, status: 'cancelled' });
    const listed = (await listRuns(workspace.dir)).find((r) => r.id === runId);
    expect(listed.status).toBe('cancelled');
    expect(listed.error).toBe('cancelled from the command line after its process stopped');
    // What the killed session's calls cost stays the run's: task 1's call (100 + 20 tokens).
    expect(listed.tokenUsage.totalTokens).toBe(120);

    const events = await runEvents(workspace.dir, runId);
    assertGapFree(events);
    expect(traceProblems(events)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'run.cancelled', reason: 'cancelled from the command line after its process stopped', spanId: events[0]!.spanId });
    const t2 = events.find((e): e is EventOf<'task.started'> => e.type === 'task.started' && e.taskId === 't2')!;
    expect(events.filter((e) => e.spanId === t2.spanId).map((e) => e.type)).toEqual(['task.started', 'task.failed']);
    expect(events.find((e) => e.type === 'task.failed' && e.spanId === t2.spanId)).toMatchObject({ taskId: 't2', errorName: 'Interrupted' });
    // Task 2's agent and its model call, left waiting by the dead process, end too (innermost first).
    const closed = events.slice(events.findIndex((e) => e.type === 'task.failed') - 2).map((e) => e.type);
    expect(closed).toEqual(['llm.failed', 'agent.failed', 'task.failed', 'run.cancelled']);
    expect(ofType(events, 'task.completed').map((e) => e.taskId)).toEqual(['t1']);

    // Cancelled for good: resume refuses it, saying why, and makes no model call.
    server.requests.length = 0;
    const refused = await runCli(['resume', runId, '--workspace', workspace.dir]);
    expect(refused.code, describeResult(refused)).toBe(2);
    expect(refused.stderr).toContain(`run ${runId} was cancelled (cancelled from the command line after its process stopped), so it cannot be resumed`);
    expect(server.requests).toEqual([]);
    const again = await runCli(['runs', 'cancel', runId, '--workspace', workspace.dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('is a crew run that is cancelled; only paused or interrupted crews can be cancelled');
    expect((await runEvents(workspace.dir, runId)).length).toBe(events.length);
  }, 90_000);

  it("the app's runs.resume (Resume in the Runs list) continues a killed crew from task 2 under the same id", async () => {
    const { runId, workspace } = await killedInTask2();
    const host = createHostService({ workspace: workspace.dir, transport: 'websocket', env: {} });
    const pushes: HostPush[] = [];
    host.subscribe((p) => pushes.push(p));
    try {
      expect(await host.handle('runs.resume', { runId })).toEqual({ ok: true, response: { runId } });
      const deadline = Date.now() + 30_000;
      const ended = () => pushes.some((p) => p.kind === 'event' && p.event.runId === runId && p.event.type === 'run.completed');
      while (!ended() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(ended()).toBe(true);
      expect({ t1: callsFor('[T1]'), t2: callsFor('[T2]'), t3: callsFor('[T3]') }).toEqual({ t1: 1, t2: 2, t3: 1 });
      const listed = await host.handle('runs.list', {});
      expect(listed.ok && (listed.response as { runs: { id: string; status: string }[] }).runs.find((r) => r.id === runId)?.status).toBe('completed');
    } finally {
      await host.close();
    }
    expect(traceProblems(await runEvents(workspace.dir, runId))).toEqual([]);
  }, 90_000);

  it("the app's runs.cancel ends a killed crew the same way, and pushes its end and the changed list", async () => {
    const { runId, workspace } = await killedInTask2();
    const host = createHostService({ workspace: workspace.dir, transport: 'websocket', env: {} });
    const pushes: HostPush[] = [];
    host.subscribe((p) => pushes.push(p));
    try {
      const cancel = await host.handle('runs.cancel', { runId });
      expect(cancel).toEqual({ ok: true, response: { cancelled: true } });
      const pushed = pushes.flatMap((p) => (p.kind === 'event' ? [p.event] : []));
      expect(pushed.map((e) => e.type)).toEqual(['llm.failed', 'agent.failed', 'task.failed', 'run.cancelled']);
      expect(pushed.at(-1)).toMatchObject({ runId, reason: 'cancelled from the app after its process stopped' });
      expect(pushes.at(-1)).toEqual({ kind: 'runs.changed' });
      const listed = await host.handle('runs.list', {});
      expect(listed.ok && (listed.response as { runs: { id: string; status: string }[] }).runs.find((r) => r.id === runId)?.status).toBe('cancelled');
      expect(await host.handle('runs.cancel', { runId })).toEqual({ ok: true, response: { cancelled: false } });
      expect(await host.handle('runs.resume', { runId })).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining('was cancelled') } });
    } finally {
      await host.close();
    }
    expect(traceProblems(await runEvents(workspace.dir, runId))).toEqual([]);
  }, 90_000);
});
