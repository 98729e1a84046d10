import type { Pool, PoolClient } from 'pg';

/**
 * Schema history of the team server's PostgreSQL database (`crewdeck server migrate`). Append only:
 * never edit a migration that has shipped; add the next one. `crewdeck_schema.version` holds the number
 * of migrations applied. Times of runs and events are epoch milliseconds (as in the SQLite store);
 * leases use PostgreSQL's own clock (`now()`), so workers on machines whose clocks differ agree on them.
 */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'team server: keys, deployments, runs, events, outputs, checkpoints, batches',
    sql: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        hash TEXT NOT NULL,
        scopes TEXT[] NOT NULL,
        rate_per_minute INTEGER NOT NULL,
        created_at BIGINT NOT NULL,
        revoked_at BIGINT
      );

      CREATE TABLE server_secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      CREATE TABLE deployments (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('crew', 'flow')),
        name TEXT NOT NULL,
        latest_version INTEGER NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );

      CREATE TABLE deployment_versions (
        deployment_id TEXT NOT NULL REFERENCES deployments (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        digest TEXT NOT NULL,
        document_path TEXT NOT NULL,
        document JSONB NOT NULL,
        files JSONB NOT NULL,
        settings JSONB,
        inputs JSONB NOT NULL,
        created_at BIGINT NOT NULL,
        created_by TEXT,
        PRIMARY KEY (deployment_id, version)
      );

      CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        deployment_id TEXT NOT NULL REFERENCES deployments (id),
        version INTEGER NOT NULL,
        concurrency INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'cancelled')),
        options JSONB NOT NULL,
        created_at BIGINT NOT NULL,
        ended_at BIGINT
      );

      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        document_id TEXT NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'waiting', 'paused', 'completed', 'failed', 'cancelled')),
        document JSONB,
        document_path TEXT,
        inputs JSONB NOT NULL,
        replay_of_run_id TEXT,
        replay_from_step_id TEXT,
        created_at BIGINT NOT NULL,
        started_at BIGINT,
        ended_at BIGINT,
        output TEXT,
        error TEXT,
        token_usage JSONB,
        state JSONB,
        pending JSONB,
        last_seq BIGINT NOT NULL DEFAULT 0,
        deployment_id TEXT REFERENCES deployments (id),
        version INTEGER,
        key_id TEXT,
        idempotency_key TEXT,
        -- What a worker does with the run: {kind: start|replay|shared, profile?, budget?, replay?}.
        request JSONB NOT NULL,
        -- The answer accepted for the run's pending request (kept: a worker that dies applies it again).
        resume_request JSONB,
        cancel_requested TEXT,
        lease_owner TEXT,
        lease_until TIMESTAMPTZ,
        dispatched_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        webhook JSONB,
        webhook_seq BIGINT NOT NULL DEFAULT 0,
        webhook_attempts INTEGER NOT NULL DEFAULT 0,
        webhook_next_at TIMESTAMPTZ,
        webhook_lease_until TIMESTAMPTZ,
        batch_id TEXT REFERENCES batches (id),
        batch_row INTEGER
      );
      CREATE UNIQUE INDEX runs_idempotency ON runs (deployment_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
      CREATE INDEX runs_newest ON runs (created_at DESC, id DESC);
      CREATE INDEX runs_deployment_newest ON runs (deployment_id, created_at DESC, id DESC);
      CREATE INDEX runs_unfinished ON runs (status, created_at) WHERE status IN ('queued', 'running');
      CREATE INDEX runs_webhooks_due ON runs (id) WHERE webhook IS NOT NULL AND webhook_seq < last_seq;
      CREATE INDEX runs_batch ON runs (batch_id, batch_row) WHERE batch_id IS NOT NULL;

      CREATE TABLE events (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        seq BIGINT NOT NULL,
        type TEXT NOT NULL,
        ts BIGINT NOT NULL,
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
        json JSONB,
        skipped BOOLEAN NOT NULL DEFAULT false,
        token_usage JSONB,
        PRIMARY KEY (run_id, task_id)
      );

      CREATE TABLE checkpoints (
        run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
        checkpoint JSONB NOT NULL,
        updated_at BIGINT NOT NULL
      );

      -- Changes appended to a checkpoint since it was last saved (a flow's items and state operations).
      CREATE TABLE checkpoint_entries (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        seq BIGSERIAL,
        -- Unique per write, so a commit sent again after a lost answer does not append it twice.
        write_key TEXT NOT NULL,
        entry JSONB NOT NULL,
        PRIMARY KEY (run_id, seq),
        UNIQUE (run_id, write_key)
      );

      CREATE TABLE batch_rows (
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        inputs JSONB NOT NULL,
        run_id TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'started', 'cancelled')),
        PRIMARY KEY (batch_id, idx)
      );
      CREATE INDEX batch_rows_pending ON batch_rows (batch_id, idx) WHERE status = 'pending';
    `,
  },
  {
    version: 2,
    name: 'webhooks the address policy refused stop, with the reason',
    sql: `
      ALTER TABLE runs ADD COLUMN webhook_error TEXT;
      DROP INDEX runs_webhooks_due;
      CREATE INDEX runs_webhooks_due ON runs (id) WHERE webhook IS NOT NULL AND webhook_error IS NULL AND webhook_seq < last_seq;
    `,
  },
];

export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;

/** The database was migrated by a newer Crewdeck; this one must not touch it. */
export class TeamSchemaTooNew extends Error {
  override name = 'TeamSchemaTooNew';
  constructor(
    readonly foundVersion: number,
    readonly supportedVersion: number,
  ) {
    super(`the team database's schema is version ${foundVersion}, newer than this Crewdeck supports (${supportedVersion}); upgrade Crewdeck on this machine`);
  }
}

/** The database has not been migrated (or not to this Crewdeck's version): run `crewdeck server migrate`. */
export class TeamSchemaOutdated extends Error {
  override name = 'TeamSchemaOutdated';
  constructor(
    readonly foundVersion: number,
    readonly supportedVersion: number,
  ) {
    super(
      foundVersion === 0
        ? 'the team database has no Crewdeck schema yet; run `crewdeck server migrate --database <url>` first'
        : `the team database's schema is version ${foundVersion}, older than this Crewdeck's (${supportedVersion}); run \`crewdeck server migrate --database <url>\``,
    );
  }
}

/** The number of migrations applied (0 for an empty database). */
export async function postgresSchemaVersion(db: Pool | PoolClient): Promise<number> {
  const table = await db.query<{ exists: boolean }>("SELECT to_regclass('crewdeck_schema') IS NOT NULL AS exists");
  if (!table.rows[0]?.exists) return 0;
  const row = await db.query<{ version: number }>('SELECT version FROM crewdeck_schema');
  return row.rows[0]?.version ?? 0;
}

/** Refuses a database whose schema is not exactly this Crewdeck's (servers and workers check at start). */
export async function requirePostgresSchema(db: Pool): Promise<void> {
  const found = await postgresSchemaVersion(db);
  if (found > POSTGRES_SCHEMA_VERSION) throw new TeamSchemaTooNew(found, POSTGRES_SCHEMA_VERSION);
  if (found < POSTGRES_SCHEMA_VERSION) throw new TeamSchemaOutdated(found, POSTGRES_SCHEMA_VERSION);
}

/**
 * Applies the pending migrations, each in its own transaction under an advisory lock, so two
 * `migrate` commands at once apply each migration once. Returns the versions applied.
 */
export async function migratePostgres(pool: Pool, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): Promise<number[]> {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
  });
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(7413001)');
    await client.query('CREATE TABLE IF NOT EXISTS crewdeck_schema (version INTEGER NOT NULL)');
    await client.query('INSERT INTO crewdeck_schema (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM crewdeck_schema)');
    const current = await postgresSchemaVersion(client);
    if (current > migrations.length) throw new TeamSchemaTooNew(current, migrations.length);
    for (const migration of migrations.slice(current)) {
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('UPDATE crewdeck_schema SET version = $1', [migration.version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(migration.version);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(7413001)').catch(() => undefined);
    client.release();
  }
  return applied;
}
