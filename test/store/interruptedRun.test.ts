import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, workspaceDatabasePath } from '../../runtime/store/database';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { emitSampleRun, sampleLog } from './sampleRun';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const fixture = join(repoRoot, 'test/fixtures/store/appendUntilKilled.ts');

let workspace: string | undefined;
afterEach(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

interface KilledChild {
  pid: number;
  /** The first report: every event of the sample run appended. */
  sampleSeq: number;
  /** The highest seq the child reported as appended before it was killed. */
  lastReportedSeq: number;
  signal: NodeJS.Signals | null;
}

/** Runs the fixture until it has reported `reports` times, then SIGKILLs it and waits for it to be reaped. */
function runAndKill(dir: string, runId: string, tasks: number, reports: number): Promise<KilledChild> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir, runId, String(tasks)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const seqs: number[] = [];
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^appended (\d+)$/.exec(line);
        if (match) seqs.push(Number(match[1]));
      }
      if (seqs.length >= reports && !child.killed) child.kill('SIGKILL');
    });
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      if (seqs.length < reports) fail(new Error(`child exited early (code ${code}, signal ${signal}):\n${stderr}`));
      else done({ pid: child.pid!, sampleSeq: seqs[0]!, lastReportedSeq: seqs[seqs.length - 1]!, signal });
    });
  });
}

describe('a run whose process is killed', () => {
  it('keeps every event appended before SIGKILL and shows as interrupted', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'crewdeck-kill-'));
    const killed = await runAndKill(workspace, 'killed-run', 4, 6);
    expect(killed.signal).toBe('SIGKILL');

    const expected = emitSampleRun(sampleLog('killed-run'), 4, { finish: false });
    expect(killed.sampleSeq).toBe(expected.length);

    const statusInTable = () => {
      const db = openDatabase(workspaceDatabasePath(workspace!));
      try {
        return (db.prepare("SELECT status FROM runs WHERE id = 'killed-run'").get() as { status: string }).status;
      } finally {
        db.close();
      }
    };
    // Nobody finished it: the table still says running until a reader notices the dead process.
    expect(statusInTable()).toBe('running');

    const store = SqliteRunStore.open(workspace);
    try {
      const events = store.events('killed-run');
      // Gap-free from 1, at least up to the last seq the child reported before dying.
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
      expect(events.length).toBeGreaterThanOrEqual(killed.lastReportedSeq);
      expect(events.slice(0, expected.length)).toStrictEqual(expected);
      expect(events.slice(expected.length).length).toBeGreaterThan(0);
      expect(events.slice(expected.length).every((e) => e.type === 'llm.failed')).toBe(true);

      const [summary] = store.listRuns();
      expect(summary!.id).toBe('killed-run');
      expect(summary!.status).toBe('interrupted');
      const run = store.getRun('killed-run')!;
      expect(run.status).toBe('interrupted');
      expect(run.error).toContain(`process ${killed.pid}`);
      // It ended with its last event, and its tokens are those its completed model calls reported.
      expect(run.endedAt).toBe(events[events.length - 1]!.ts);
      const calls = events.filter((e) => e.type === 'llm.completed').length;
      expect(calls).toBeGreaterThan(0);
      expect(run.tokenUsage).toEqual({ promptTokens: 12 * calls, completionTokens: 7 * calls, cachedPromptTokens: 2 * calls, totalTokens: 19 * calls, requests: calls });
    } finally {
      store.close();
    }

    // The status was written back to the table, not just reported.
    expect(statusInTable()).toBe('interrupted');
  });
});
