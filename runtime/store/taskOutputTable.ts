import type { Database, Statement } from 'better-sqlite3';
import { redactKnown, redactKnownDeep } from '../redactSecrets';
import type { LongTexts } from './longTexts';
import { parseUsage } from './storedUsage';
import type { StoredTaskOutput } from './types';

interface TaskOutputRow {
  run_id: string;
  task_id: string;
  idx: number;
  agent_role: string;
  raw: string;
  json: string | null;
  skipped: number;
  token_usage: string | null;
}

/** The workspace database's `task_outputs`, for SqliteRunStore. */
export class TaskOutputTable {
  private readonly upsertTaskOutput: Statement<unknown[], void>;
  private readonly selectTaskOutputs: Statement<[string], TaskOutputRow>;

  constructor(
    db: Database,
    private readonly texts: LongTexts,
  ) {
    this.upsertTaskOutput = db.prepare(`
      INSERT INTO task_outputs (run_id, task_id, idx, agent_role, raw, json, skipped, token_usage)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (run_id, task_id) DO UPDATE SET
        idx = excluded.idx, agent_role = excluded.agent_role, raw = excluded.raw, json = excluded.json,
        skipped = excluded.skipped, token_usage = excluded.token_usage`);
    this.selectTaskOutputs = db.prepare('SELECT * FROM task_outputs WHERE run_id = ? ORDER BY idx, task_id');
  }

  save(output: StoredTaskOutput): void {
    this.upsertTaskOutput.run(
      output.runId,
      output.taskId,
      output.index,
      output.agentRole,
      this.texts.packText(redactKnown(output.raw)),
      output.json === undefined ? null : this.texts.packJson(redactKnownDeep(output.json)),
      output.skipped ? 1 : 0,
      JSON.stringify(output.tokenUsage),
    );
  }

  list(runId: string): StoredTaskOutput[] {
    return this.selectTaskOutputs.all(runId).map((row) => {
      const output: StoredTaskOutput = {
        runId: row.run_id,
        taskId: row.task_id,
        index: row.idx,
        agentRole: row.agent_role,
        raw: this.texts.unpackText(row.raw),
        skipped: row.skipped !== 0,
        tokenUsage: parseUsage(row.token_usage),
      };
      if (row.json !== null) output.json = this.texts.parseJson(row.json);
      return output;
    });
  }
}
