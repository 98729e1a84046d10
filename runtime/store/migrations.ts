import type { Database } from 'better-sqlite3';

/**
 * Schema history of `.crewdeck/crewdeck.db`. Append only: never edit a migration that has shipped;
 * add the next one. `PRAGMA user_version` holds the number of migrations applied.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, events and task outputs',
    sql: `
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        document_id TEXT NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        document TEXT NOT NULL,
        document_path TEXT,
        inputs TEXT NOT NULL,
        replay_of_run_id TEXT,
        replay_from_task_id TEXT,
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        output TEXT,
        error TEXT,
        token_usage TEXT,
        pid INTEGER,
        host TEXT
      );
      CREATE INDEX runs_started_at ON runs (started_at DESC);

      CREATE TABLE events (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        ts INTEGER NOT NULL,
        span_id TEXT NOT NULL,
        parent_span_id TEXT,
        payload TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      );

      CREATE TABLE task_outputs (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        task_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        agent_role TEXT NOT NULL,
        raw TEXT NOT NULL,
        json TEXT,
        skipped INTEGER NOT NULL DEFAULT 0,
        token_usage TEXT,
        PRIMARY KEY (run_id, task_id)
      );
    `,
  },
  {
    version: 2,
    name: 'flow checkpoints',
    sql: `
      CREATE TABLE flow_checkpoints (
        run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
        checkpoint TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'training records, suggestion versions and test results',
    sql: `
      CREATE TABLE training_sessions (
        id TEXT PRIMARY KEY,
        crew_id TEXT NOT NULL,
        name TEXT NOT NULL,
        document_path TEXT,
        iterations INTEGER NOT NULL,
        eval_model TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'evaluating', 'completed', 'failed')),
        run_ids TEXT NOT NULL DEFAULT '[]',
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        error TEXT
      );
      CREATE INDEX training_sessions_crew ON training_sessions (crew_id, started_at DESC);

      CREATE TABLE training_records (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL REFERENCES training_sessions (id) ON DELETE CASCADE,
        run_id TEXT NOT NULL,
        crew_id TEXT NOT NULL,
        iteration INTEGER NOT NULL,
        task_id TEXT NOT NULL,
        agent_role TEXT NOT NULL,
        initial_output TEXT NOT NULL,
        feedback TEXT NOT NULL,
        improved_output TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX training_records_crew_role ON training_records (crew_id, agent_role, id);

      CREATE TABLE suggestion_versions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        crew_id TEXT NOT NULL,
        agent_role TEXT NOT NULL,
        version INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('draft', 'active', 'disabled')),
        suggestions TEXT NOT NULL,
        quality REAL NOT NULL,
        summary TEXT NOT NULL,
        session_id TEXT REFERENCES training_sessions (id) ON DELETE SET NULL,
        run_ids TEXT NOT NULL DEFAULT '[]',
        record_ids TEXT NOT NULL DEFAULT '[]',
        edited INTEGER NOT NULL DEFAULT 0,
        history TEXT NOT NULL DEFAULT '[]',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (crew_id, agent_role, version)
      );
      -- At most one active version per crew and role.
      CREATE UNIQUE INDEX suggestion_versions_one_active ON suggestion_versions (crew_id, agent_role) WHERE status = 'active';

      CREATE TABLE test_sessions (
        id TEXT PRIMARY KEY,
        crew_id TEXT NOT NULL,
        name TEXT NOT NULL,
        document_path TEXT,
        iterations INTEGER NOT NULL,
        eval_model TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
        run_ids TEXT NOT NULL DEFAULT '[]',
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        error TEXT
      );
      CREATE INDEX test_sessions_crew ON test_sessions (crew_id, started_at DESC);

      CREATE TABLE test_results (
        session_id TEXT NOT NULL REFERENCES test_sessions (id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        run_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        agent_role TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('completed', 'failed', 'skipped')),
        score REAL,
        reason TEXT NOT NULL,
        check_score REAL,
        check_details TEXT NOT NULL DEFAULT '[]',
        duration_ms INTEGER NOT NULL,
        token_usage TEXT NOT NULL,
        PRIMARY KEY (session_id, iteration, task_id)
      );
    `,
  },
  {
    version: 4,
    name: 'long texts stored once (longTexts.ts)',
    sql: `
      CREATE TABLE texts (
        hash TEXT PRIMARY KEY,
        text TEXT NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: "training and test sessions name their own evaluation run (the session's events and evaluator calls)",
    sql: `
      ALTER TABLE training_sessions ADD COLUMN evaluation_run_id TEXT;
      ALTER TABLE test_sessions ADD COLUMN evaluation_run_id TEXT;
    `,
  },
  {
    version: 6,
    name: "checkpoint entries appended after a checkpoint (a flow's finished items, a method's changes); runs by document",
    sql: `
      CREATE TABLE checkpoint_entries (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
      CREATE INDEX runs_document ON runs (document_id, started_at DESC, id DESC);
    `,
  },
  {
    version: 7,
    name: 'batches: a crew run once per row of inputs, each row with its status and run',
    sql: `
      CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        document_id TEXT NOT NULL,
        name TEXT NOT NULL,
        document_path TEXT NOT NULL,
        concurrency INTEGER NOT NULL,
        source TEXT,
        model TEXT,
        inputs TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
        created_at INTEGER NOT NULL,
        ended_at INTEGER,
        pid INTEGER,
        host TEXT
      );
      CREATE INDEX batches_created_at ON batches (created_at DESC, id DESC);

      CREATE TABLE batch_rows (
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        inputs TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'paused', 'completed', 'failed', 'cancelled')),
        run_id TEXT NOT NULL,
        error TEXT,
        PRIMARY KEY (batch_id, idx)
      );
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The database was written by a newer Crewdeck; opening it with this one could corrupt it. */
export class DatabaseTooNew extends Error {
  override name = 'DatabaseTooNew';
  constructor(
    readonly foundVersion: number,
    readonly supportedVersion: number,
  ) {
    super(`database schema version ${foundVersion} is newer than this Crewdeck supports (${supportedVersion}); upgrade Crewdeck`);
  }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies the pending migrations, each in its own IMMEDIATE transaction together with its
 * `user_version` bump, so two processes opening the same file at once cannot both apply one.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
  });
  const latest = migrations.length;
  const current = schemaVersion(db);
  if (current > latest) throw new DatabaseTooNew(current, latest);
  for (const migration of migrations.slice(current)) {
    db.transaction(() => {
      // Re-read under the write lock: another process may have applied it meanwhile.
      if (schemaVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
