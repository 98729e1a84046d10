import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '../../shared/events';
import { workspaceDatabasePath } from '../../runtime/store/database';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
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

describe('crewdeck resume of an interrupted crew', () => {
  it('continues a crew killed (SIGKILL) in task 2 from task 2: task 1 is not asked again, the run completes', async () => {
    ws = tempDir('crewdeck-interrupted-');
    ws.write('crewdeck.json', { version: 1, models: { profiles: { srv: { provider: 'openai', model: 'house-model', baseUrl: server.baseUrl } } } });
    ws.write('three.crew.json', {
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
    const child = spawnCli(['run', ws.path('three.crew.json'), '--json'], { cwd: ws.dir });
    const exited = finished(child, 40_000);
    // Task 1 done and stored, task 2's model call waiting on the server: the process is mid-task.
    const deadline = Date.now() + 20_000;
    while ((progress(ws.dir).completed < 1 || callsFor('[T2]') < 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const seen = progress(ws.dir);
    expect(seen.completed).toBe(1);
    expect(callsFor('[T2]')).toBe(1);
    expect(() => process.kill(child.pid!, 0)).not.toThrow(); // still running, not exited
    child.kill('SIGKILL');
    const killed = await exited;
    expect(killed.signal, describeResult(killed)).toBe('SIGKILL');
    expect(killed.stdout).toBe('');

    const runId = seen.runId!;
    const stale = (await listRuns(ws.dir)).find((r) => r.id === runId);
    expect(stale.status).toBe('interrupted');
    expect(stale.error).toContain(String(child.pid));

    const r = await runCli(['resume', runId, '--json', '--workspace', ws.dir], { timeoutMs: 40_000 });
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

    const events = await runEvents(ws.dir, runId);
    assertGapFree(events);
    const ofType = <K extends EventOf<any>['type']>(type: K) => events.filter((e): e is EventOf<K> => e.type === type);
    expect(ofType('run.started')).toHaveLength(1);
    expect(ofType('run.resumed')).toHaveLength(1);
    // The task the process died in is closed as interrupted under its own span, then runs again.
    const t2Starts = ofType('task.started').filter((e) => e.taskId === 't2');
    expect(t2Starts).toHaveLength(2);
    const interrupted = ofType('task.failed').find((e) => e.spanId === t2Starts[0].spanId);
    expect(interrupted).toMatchObject({ taskId: 't2', errorName: 'Interrupted' });
    expect(ofType('task.completed').map((e) => e.taskId)).toEqual(['t1', 't2', 't3']);
    expect(events.at(-1)!.type).toBe('run.completed');
    expect((await listRuns(ws.dir)).find((x) => x.id === runId).status).toBe('completed');

    // A finished run is not resumed again.
    const again = await runCli(['resume', runId, '--workspace', ws.dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('completed');
  }, 90_000);
});
