import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { migrate } from './migrations';

/** Where a workspace keeps its runs, events and outputs. */
export function workspaceDatabasePath(workspace: string): string {
  return join(workspace, '.crewdeck', 'crewdeck.db');
}

/**
 * Opens (creating if needed) a Crewdeck database and brings its schema up to date.
 * WAL with `synchronous = NORMAL`: every commit reaches the OS before the call returns, so a killed
 * process loses nothing it committed (only a power loss can drop the last commits).
 */
export function openDatabase(file: string): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    // NORMAL before WAL: a new database's switch to WAL then syncs one time less (an fsync costs
    // 1-40 ms on a busy disk, and bench:peers opens a fresh workspace per run).
    db.pragma('synchronous = NORMAL');
    db.pragma('journal_mode = WAL');
    // A checkpoint (copying the WAL into the database) syncs both files: at SQLite's default of 1000
    // pages a 200-task run paid one in its middle. The run store's close does not checkpoint
    // (walKeeper.ts), so the log carries over from run to run and one checkpoint every 4000 pages
    // (16 MiB, ~15 runs of 200 tasks) copies it.
    db.pragma('wal_autocheckpoint = 4000');
    // After a checkpoint the WAL shrinks back to this instead of keeping the size of the largest
    // transaction (one long reply would otherwise sit on disk twice: in the database and in the WAL).
    db.pragma('journal_size_limit = 1048576');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
