import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, workspaceDatabasePath } from '../../runtime/store/database';
import { DatabaseTooNew, MIGRATIONS, SCHEMA_VERSION, migrate, schemaVersion } from '../../runtime/store/migrations';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-db-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function tableNames(db: Database.Database): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );
}

describe('openDatabase', () => {
  it('puts the database at <workspace>/.crewdeck/crewdeck.db, creating the folder', () => {
    const file = workspaceDatabasePath(dir);
    expect(file).toBe(join(dir, '.crewdeck', 'crewdeck.db'));
    expect(existsSync(join(dir, '.crewdeck'))).toBe(false);
    openDatabase(file).close();
    expect(existsSync(file)).toBe(true);
  });

  it('opens in WAL mode with the connection settings', () => {
    const file = workspaceDatabasePath(dir);
    const db = openDatabase(file);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      // Writes go to the write-ahead log first.
      db.prepare("INSERT INTO runs (id, kind, document_id, name, status, document, inputs, started_at) VALUES ('r', 'crew', 'd', 'n', 'running', '{}', '{}', 1)").run();
      expect(existsSync(`${file}-wal`)).toBe(true);
    } finally {
      db.close();
    }
  });

  it('applies the migrations once and sets user_version; reopening changes nothing', () => {
    const file = workspaceDatabasePath(dir);
    const db = openDatabase(file);
    const schema = tableNames(db);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    expect(schema).toEqual(expect.arrayContaining(['runs', 'events', 'task_outputs', 'runs_started_at']));
    db.prepare("INSERT INTO runs (id, kind, document_id, name, status, document, inputs, started_at) VALUES ('r', 'crew', 'd', 'n', 'running', '{}', '{}', 1)").run();
    db.close();

    const again = openDatabase(file);
    try {
      expect(schemaVersion(again)).toBe(SCHEMA_VERSION);
      expect(tableNames(again)).toEqual(schema);
      expect(again.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 1 });
      migrate(again); // explicitly, a third time: still a no-op
      expect(schemaVersion(again)).toBe(SCHEMA_VERSION);
    } finally {
      again.close();
    }
  });

  it('uses the indexes for listing runs and reading events', () => {
    const db = openDatabase(workspaceDatabasePath(dir));
    try {
      const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('\n');
      expect(plan('SELECT * FROM runs ORDER BY started_at DESC LIMIT 50')).toMatch(/runs_started_at/);
      expect(plan("SELECT * FROM events WHERE run_id = 'r' AND seq > 3 ORDER BY seq")).toMatch(/sqlite_autoindex_events_1 \(run_id=\? AND seq>\?\)/);
    } finally {
      db.close();
    }
  });

  it('refuses a database written by a newer version, without touching it', () => {
    const file = workspaceDatabasePath(dir);
    openDatabase(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();

    expect(() => openDatabase(file)).toThrow(DatabaseTooNew);
    try {
      openDatabase(file);
    } catch (error) {
      expect(error).toMatchObject({ foundVersion: SCHEMA_VERSION + 1, supportedVersion: SCHEMA_VERSION });
    }
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('rolls back a failing migration together with its version bump', () => {
    const db = new Database(join(dir, 'm.db'));
    try {
      const migrations = [
        { version: 1, name: 'ok', sql: 'CREATE TABLE a (x INTEGER)' },
        { version: 2, name: 'broken', sql: 'CREATE TABLE b (y INTEGER); INSERT INTO missing VALUES (1)' },
      ];
      expect(() => migrate(db, migrations)).toThrow(/no such table: missing/);
      expect(schemaVersion(db)).toBe(1);
      expect(tableNames(db)).toEqual(['a']);
    } finally {
      db.close();
    }
  });
});
