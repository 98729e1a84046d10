import Database from 'better-sqlite3';
import type { Pool } from 'pg';
import { emptyUsage } from '../../shared/usage';
import { openDatabase } from './database';
import { readTeamCheckpoint, readTeamCheckpointEntries, readTeamEvents, readTeamOutputs, readTeamRun, type TeamRunRow } from './postgresRunReads';
import { SqliteRunStore } from './sqliteRunStore';
import type { RunStatus } from './types';

/**
 * The per-job working copy of the runs a job needs (the run it advances, and the run a replay forks),
 * loaded from PostgreSQL into a SqliteRunStore on an in-memory database (see postgresRunStore.ts).
 * A run PostgreSQL holds as `running` (its worker died) is `interrupted` here, as the SQLite store marks a
 * run whose process died, so the runtime's resume continues it; one stopped at a pause is `paused`.
 */
export async function loadWorkingCopy(pool: Pool, runIds: readonly string[]): Promise<SqliteRunStore> {
  const db = emptyWorkingDatabase();
  const local = new SqliteRunStore(db);
  try {
    const setEnd = db.prepare('UPDATE runs SET status = ?, ended_at = ?, output = ?, error = ?, token_usage = ?, pid = NULL, host = NULL WHERE id = ?');
    for (const runId of runIds) {
      const row = await readTeamRun(pool, runId);
      if (!row || row.started_at === null || row.document === null) continue;
      const [events, outputs, checkpoint, entries] = await Promise.all([readTeamEvents(pool, runId), readTeamOutputs(pool, runId), readTeamCheckpoint(pool, runId), readTeamCheckpointEntries(pool, runId)]);
      local.createRun({
        id: row.id,
        kind: row.kind,
        documentId: row.document_id,
        name: row.name,
        document: row.document,
        ...(row.document_path !== null ? { documentPath: row.document_path } : {}),
        inputs: row.inputs,
        ...(row.replay_of_run_id !== null && row.replay_from_step_id !== null
          ? { replayOf: row.kind === 'flow' ? { runId: row.replay_of_run_id, fromMethodId: row.replay_from_step_id } : { runId: row.replay_of_run_id, fromTaskId: row.replay_from_step_id } }
          : {}),
        startedAt: row.started_at,
      });
      for (const event of events) local.appendEvent(event);
      for (const output of outputs) local.saveTaskOutput(output);
      local.commitPending();
      if (checkpoint !== undefined) local.saveCheckpoint(runId, checkpoint);
      for (const entry of entries) local.appendCheckpointEntry(runId, entry);
      local.commitPending();
      const status = workingStatus(row, events.at(-1)?.type);
      const endedAt = row.ended_at ?? events.at(-1)?.ts ?? row.started_at;
      setEnd.run(status, status === 'running' ? null : endedAt, row.output, row.error, JSON.stringify(row.token_usage ?? emptyUsage()), runId);
    }
    return local;
  } catch (error) {
    local.close();
    throw error;
  }
}

let template: Buffer | undefined;

/**
 * An empty, migrated in-memory database: a copy of one migrated once (5 ms of migrations per job, against
 * 0.1 ms to copy the image).
 */
function emptyWorkingDatabase(): Database.Database {
  template ??= (() => {
    const db = openDatabase(':memory:');
    try {
      return db.serialize();
    } finally {
      db.close();
    }
  })();
  const db = new Database(template);
  db.pragma('foreign_keys = ON');
  return db;
}

/** The working copy's status of a run, from PostgreSQL's and its last stored event. */
export function workingStatus(row: Pick<TeamRunRow, 'status'>, lastEventType: string | undefined): RunStatus {
  switch (row.status) {
    case 'completed':
    case 'failed':
    case 'cancelled':
      return row.status;
    case 'waiting':
    case 'paused':
      return 'paused';
    default:
      // Queued again by a resume (it stopped at a pause), or running when its worker died.
      return lastEventType === 'run.paused' ? 'paused' : 'interrupted';
  }
}
