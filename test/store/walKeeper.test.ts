import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, workspaceDatabasePath } from '../../runtime/store/database';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { closeKeepingWal } from '../../runtime/store/walKeeper';
import { emitSampleRun, sampleLog, sampleRun } from './sampleRun';

let workspace: string;
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-walkeeper-'));
});
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
});

function writeRun(runId: string, tasks: number): number {
  const store = SqliteRunStore.open(workspace);
  store.createRun(sampleRun(runId));
  const log = sampleLog(runId);
  log.listen((e) => store.appendEvent(e));
  const events = emitSampleRun(log, tasks);
  store.close();
  return events.length;
}

describe('closeKeepingWal', () => {
  it('closes a run store without checkpointing: the log stays beside the file and holds the run', () => {
    const file = workspaceDatabasePath(workspace);
    const count = writeRun('r1', 40);
    // A checkpoint at close would have copied the log into the file and deleted it.
    expect(existsSync(`${file}-wal`)).toBe(true);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
    const reopened = SqliteRunStore.open(workspace);
    try {
      expect(reopened.events('r1')).toHaveLength(count);
    } finally {
      reopened.close();
    }
  });

  it('leaves every committed event readable by another process', () => {
    const file = workspaceDatabasePath(workspace);
    const count = writeRun('r1', 25);
    const script = `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(file)}, { readonly: true }); process.stdout.write(String(db.prepare("SELECT count(*) AS n FROM events WHERE run_id = 'r1'").get().n));`;
    expect(Number(execFileSync(process.execPath, ['-e', script], { cwd: process.cwd(), encoding: 'utf8' }))).toBe(count);
  });

  it('lets the next writer go on in the same log, and a later checkpoint copies it all into the file', () => {
    const file = workspaceDatabasePath(workspace);
    const first = writeRun('r1', 10);
    const second = writeRun('r2', 10);
    const db = openDatabase(file);
    const result = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
    expect(result[0]!.busy).toBe(0);
    closeKeepingWal(db);
    expect(statSync(`${file}-wal`).size).toBe(0);
    // The file alone now holds both runs.
    const alone = new Database(file, { readonly: true });
    try {
      const n = (id: string) => (alone.prepare('SELECT count(*) AS n FROM events WHERE run_id = ?').get(id) as { n: number }).n;
      expect([n('r1'), n('r2')]).toEqual([first, second]);
    } finally {
      alone.close();
    }
  });

  it('closes an in-memory database like close()', () => {
    const db = openDatabase(':memory:');
    closeKeepingWal(db);
    expect(db.open).toBe(false);
  });
});
