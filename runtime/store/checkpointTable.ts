import type { Database, Statement } from 'better-sqlite3';
import type { LongTexts } from './longTexts';

/** The workspace database's `flow_checkpoints` and `checkpoint_entries`, for SqliteRunStore. */
export class CheckpointTable {
  private readonly upsertCheckpoint: Statement<unknown[], void>;
  private readonly selectCheckpoint: Statement<[string], { checkpoint: string }>;
  private readonly deleteEntries: Statement<[string], void>;
  private readonly insertEntry: Statement<[string, string, string], void>;
  private readonly selectEntries: Statement<[string], { entry: string }>;

  constructor(
    db: Database,
    private readonly texts: LongTexts,
  ) {
    this.upsertCheckpoint = db.prepare(`
      INSERT INTO flow_checkpoints (run_id, checkpoint, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (run_id) DO UPDATE SET checkpoint = excluded.checkpoint, updated_at = excluded.updated_at`);
    this.selectCheckpoint = db.prepare('SELECT checkpoint FROM flow_checkpoints WHERE run_id = ?');
    this.deleteEntries = db.prepare('DELETE FROM checkpoint_entries WHERE run_id = ?');
    this.insertEntry = db.prepare('INSERT INTO checkpoint_entries (run_id, seq, entry) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM checkpoint_entries WHERE run_id = ?), ?)');
    this.selectEntries = db.prepare('SELECT entry FROM checkpoint_entries WHERE run_id = ? ORDER BY seq');
  }

  /** A new checkpoint replaces the last one and the entries appended to it. */
  save(runId: string, json: string, at: number): void {
    this.upsertCheckpoint.run(runId, json, at);
    this.deleteEntries.run(runId);
  }

  load(runId: string): unknown {
    const row = this.selectCheckpoint.get(runId);
    return row ? JSON.parse(row.checkpoint) : undefined;
  }

  appendEntry(runId: string, entry: unknown): void {
    this.insertEntry.run(runId, runId, this.texts.packJson(entry));
  }

  entries(runId: string): unknown[] {
    return this.selectEntries.all(runId).map((row) => this.texts.parseJson(row.entry));
  }
}
