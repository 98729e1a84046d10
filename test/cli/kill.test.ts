import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceDatabasePath } from '../../runtime/store/database';
import {
  assertGapFree,
  describeResult,
  finished,
  listRuns,
  runCli,
  runEvents,
  scriptedCrew,
  showRun,
  spawnCli,
  tempDir,
  type TempWorkspace,
} from './cliHarness';

const TASKS = 8;
const DELAY_MS = 300;

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

/** Reads the workspace DB read-only: the run id and how many task.completed events it has so far. */
function progress(workspace: string): { runId?: string; completed: number; ended: boolean } {
  const file = workspaceDatabasePath(workspace);
  if (!existsSync(file)) return { completed: 0, ended: false };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 1000');
    const run = db.prepare('SELECT id FROM runs ORDER BY started_at DESC LIMIT 1').get() as { id: string } | undefined;
    if (!run) return { completed: 0, ended: false };
    const count = (type: string) =>
      (db!.prepare('SELECT COUNT(*) AS n FROM events WHERE run_id = ? AND type = ?').get(run.id, type) as { n: number }).n;
    return { runId: run.id, completed: count('task.completed'), ended: count('run.completed') + count('run.failed') > 0 };
  } catch {
    return { completed: 0, ended: false }; // the schema may not be there yet
  } finally {
    db?.close();
  }
}

function slowCrew(workspace: TempWorkspace): string {
  return workspace.write(
    'slow.crew.json',
    scriptedCrew({
      agents: [
        {
          id: 'w',
          role: 'Worker',
          goal: 'Work slowly',
          llm: { provider: 'scripted', model: 'slow', script: { default: { content: 'step done', delayMs: DELAY_MS } } },
        },
      ],
      tasks: Array.from({ length: TASKS }, (_, i) => ({ id: `step${i + 1}`, description: `Do step ${i + 1}`, expectedOutput: 'Done', agentId: 'w' })),
    }),
  );
}

/** Polls the workspace DB until `tasks` task.completed events are stored (the run still going). */
async function waitForTasks(workspace: string, tasks: number): Promise<ReturnType<typeof progress>> {
  let seen = progress(workspace);
  const deadline = Date.now() + 12_000;
  while (seen.completed < tasks && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    seen = progress(workspace);
  }
  expect(seen.completed, `${tasks} tasks completed before the deadline`).toBeGreaterThanOrEqual(tasks);
  expect(seen.ended, 'the run must still be going').toBe(false);
  return seen;
}

describe('a run killed mid-way', () => {
  it('keeps its events (gap-free) and is listed as interrupted', async () => {
    ws = tempDir('crewdeck-kill-');
    const file = slowCrew(ws);

    const child = spawnCli(['run', file, '--json'], { cwd: ws.dir });
    const exited = finished(child, 20_000);
    const seen = await waitForTasks(ws.dir, 2);
    child.kill('SIGKILL');
    const result = await exited;
    expect(result.signal, describeResult(result)).toBe('SIGKILL');
    expect(result.stdout).toBe(''); // it never got to print a result

    const runId = seen.runId!;
    const events = await runEvents(ws.dir, runId);
    assertGapFree(events);
    expect(events[0]!.type).toBe('run.started');
    const completedTasks = events.filter((e) => e.type === 'task.completed');
    expect(completedTasks.length).toBeGreaterThanOrEqual(seen.completed);
    expect(completedTasks.length).toBeLessThan(TASKS);
    expect(completedTasks.slice(0, 2).map((e) => (e as { taskId: string }).taskId)).toEqual(['step1', 'step2']);
    expect(events.some((e) => e.type === 'run.completed' || e.type === 'run.failed' || e.type === 'run.cancelled')).toBe(false);

    const runs = await listRuns(ws.dir);
    expect(runs).toHaveLength(1);
    expect(runs[0].id).toBe(runId);
    expect(runs[0].status).toBe('interrupted');
    expect(runs[0].error).toContain(String(child.pid));
    // It ended at its last stored event.
    expect(runs[0].endedAt).toBe(events.at(-1)!.ts);

    const shown = await showRun(ws.dir, runId);
    expect(shown.status).toBe('interrupted');
    expect(shown.tasks.map((t: { taskId: string }) => t.taskId).slice(0, 2)).toEqual(['step1', 'step2']);

    // The stored outputs of the killed run can seed a replay from the first unfinished task.
    const next = `step${completedTasks.length + 1}`;
    const replay = await runCli(['replay', runId, '--from-task', next, '--json', '--workspace', ws.dir]);
    expect(replay.code, describeResult(replay)).toBe(0);
    const body = JSON.parse(replay.stdout);
    expect(body.status).toBe('completed');
    expect(body.tasks).toHaveLength(TASKS);
  }, 20_000);
});

describe('Ctrl-C (SIGINT) during a run', () => {
  it('cancels the run: exit 1, one JSON object with status failed, run.cancelled last, listed as cancelled', async () => {
    ws = tempDir('crewdeck-sigint-');
    const file = slowCrew(ws);
    const child = spawnCli(['run', file, '--json'], { cwd: ws.dir });
    const exited = finished(child, 20_000);
    const seen = await waitForTasks(ws.dir, 1);
    child.kill('SIGINT');
    const result = await exited;
    expect(result.code, describeResult(result)).toBe(1);
    const body = JSON.parse(result.stdout);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(body.runId).toBe(seen.runId);
    expect(body.status).toBe('failed');
    expect(body.error).toMatch(/cancel/);
    expect(body.tasks.length).toBeGreaterThanOrEqual(1);
    expect(body.tasks.length).toBeLessThan(TASKS);

    const events = await runEvents(ws.dir, body.runId);
    assertGapFree(events);
    expect(events.at(-1)!.type).toBe('run.cancelled');
    const runs = await listRuns(ws.dir);
    expect(runs[0].status).toBe('cancelled');
  }, 20_000);
});
