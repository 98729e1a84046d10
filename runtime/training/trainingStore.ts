import { redactKnownDeep } from '../redactSecrets';
import type { Database } from 'better-sqlite3';
import { existsSync } from 'node:fs';
import type { SuggestionEdit, SuggestionStatus, SuggestionVersion, TrainingRecord, TrainingSession } from '../../shared/training';
import type { ActiveSuggestions } from '../agent/suggestions';
import { openDatabase, workspaceDatabasePath } from '../store/database';
import { SessionTable } from '../store/sessionTable';
import { SuggestionVersionNotFound, VersionConflict } from './trainingErrors';

interface RecordRow {
  id: number;
  session_id: string;
  run_id: string;
  crew_id: string;
  iteration: number;
  task_id: string;
  agent_role: string;
  initial_output: string;
  feedback: string;
  improved_output: string;
  created_at: number;
}

interface VersionRow {
  id: number;
  crew_id: string;
  agent_role: string;
  version: number;
  status: SuggestionStatus;
  suggestions: string;
  quality: number;
  summary: string;
  session_id: string | null;
  run_ids: string;
  record_ids: string;
  edited: number;
  history: string;
  created_at: number;
  updated_at: number;
}

export type NewTrainingRecord = Omit<TrainingRecord, 'id' | 'createdAt'>;

export interface NewSuggestionVersion {
  crewId: string;
  role: string;
  status: SuggestionStatus;
  suggestions: string[];
  quality: number;
  summary: string;
  trainingId?: string;
  runIds: string[];
  recordIds: number[];
}

/** The suggestions a run applies: per role, the active version's number and its suggestions. */

/**
 * Training sessions, feedback records and suggestion versions in the workspace database. Everything
 * is read back with JSON.parse and checked to be strings/numbers: stored data never runs as code.
 */
export class TrainingStore {
  /** Takes ownership of `db` (close() closes it). The schema must be migrated. */
  private readonly table: SessionTable<TrainingSession>;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.table = new SessionTable(db, 'training_sessions', now);
  }

  /** Opens (creating if needed) the workspace's database. */
  static open(workspace: string, now?: () => number): TrainingStore {
    return new TrainingStore(openDatabase(workspaceDatabasePath(workspace)), now);
  }

  /** The workspace's store if it has a database; never creates `.crewdeck/`. */
  static openExisting(workspace: string, now?: () => number): TrainingStore | undefined {
    const file = workspaceDatabasePath(workspace);
    return existsSync(file) ? new TrainingStore(openDatabase(file), now) : undefined;
  }

  close(): void {
    this.db.close();
  }

  // --- sessions -------------------------------------------------------------------------------

  createSession(session: Pick<TrainingSession, 'id' | 'crewId' | 'name' | 'documentPath' | 'iterations' | 'evalModel'>): void {
    this.table.create(session);
  }

  addSessionRun(id: string, runId: string): void {
    this.table.addRun(id, runId);
  }

  /** The session's own run (`run.started.purpose.kind: "evaluation"`). */
  setEvaluationRun(id: string, runId: string): void {
    this.table.setEvaluationRun(id, runId);
  }

  setSessionStatus(id: string, status: TrainingSession['status'], error?: string): void {
    this.table.setStatus(id, status, error);
  }

  session(id: string): TrainingSession | undefined {
    return this.table.get(id);
  }

  sessions(crewId?: string): TrainingSession[] {
    return this.table.list({ crewId });
  }

  // --- records --------------------------------------------------------------------------------

  addRecord(given: NewTrainingRecord): TrainingRecord {
    const record = redactKnownDeep(given);
    const createdAt = this.now();
    const result = this.db
      .prepare(
        `INSERT INTO training_records (session_id, run_id, crew_id, iteration, task_id, agent_role, initial_output, feedback, improved_output, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(record.trainingId, record.runId, record.crewId, record.iteration, record.taskId, record.role, record.initialOutput, record.feedback, record.improvedOutput, createdAt);
    return { ...record, id: Number(result.lastInsertRowid), createdAt };
  }

  /** Records of a crew (optionally one role, one session, or these ids), oldest first. */
  records(filter: { crewId: string; role?: string; trainingId?: string; ids?: number[] }): TrainingRecord[] {
    const where = ['crew_id = ?'];
    const params: unknown[] = [filter.crewId];
    if (filter.role !== undefined) {
      where.push('agent_role = ?');
      params.push(filter.role);
    }
    if (filter.trainingId !== undefined) {
      where.push('session_id = ?');
      params.push(filter.trainingId);
    }
    if (filter.ids !== undefined) {
      if (filter.ids.length === 0) return [];
      where.push(`id IN (SELECT value FROM json_each(?))`);
      params.push(JSON.stringify(filter.ids));
    }
    return this.db
      .prepare<unknown[], RecordRow>(`SELECT * FROM training_records WHERE ${where.join(' AND ')} ORDER BY id`)
      .all(...params)
      .map(toRecord);
  }

  // --- suggestion versions --------------------------------------------------------------------

  /** Adds the next version for the crew and role. An active one deactivates the role's other versions. */
  addVersion(given: NewSuggestionVersion): SuggestionVersion {
    const input = redactKnownDeep(given);
    const created = this.now();
    return this.db.transaction(() => {
      const next = (this.db.prepare<[string, string], { n: number | null }>('SELECT MAX(version) AS n FROM suggestion_versions WHERE crew_id = ? AND agent_role = ?').get(input.crewId, input.role)?.n ?? 0) + 1;
      if (input.status === 'active') this.deactivateOthers(input.crewId, input.role, next);
      this.db
        .prepare(
          `INSERT INTO suggestion_versions (crew_id, agent_role, version, status, suggestions, quality, summary, session_id, run_ids, record_ids, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          input.crewId,
          input.role,
          next,
          input.status,
          JSON.stringify(input.suggestions),
          input.quality,
          input.summary,
          input.trainingId ?? null,
          JSON.stringify(input.runIds),
          JSON.stringify(input.recordIds),
          created,
          created,
        );
      return this.version(input.crewId, input.role, next);
    }).immediate();
  }

  /** Every version of a crew (optionally one role): by role, newest version first. */
  versions(crewId: string, role?: string): SuggestionVersion[] {
    const rows =
      role === undefined
        ? this.db.prepare<[string], VersionRow>('SELECT * FROM suggestion_versions WHERE crew_id = ? ORDER BY agent_role, version DESC').all(crewId)
        : this.db.prepare<[string, string], VersionRow>('SELECT * FROM suggestion_versions WHERE crew_id = ? AND agent_role = ? ORDER BY version DESC').all(crewId, role);
    return rows.map(toVersion);
  }

  /** Roles of a crew that have versions. */
  roles(crewId: string): string[] {
    return this.db
      .prepare<[string], { agent_role: string }>('SELECT DISTINCT agent_role FROM suggestion_versions WHERE crew_id = ? ORDER BY agent_role')
      .all(crewId)
      .map((r) => r.agent_role);
  }

  /** Crews that have versions. */
  crews(): string[] {
    return this.db
      .prepare<[], { crew_id: string }>('SELECT DISTINCT crew_id FROM suggestion_versions ORDER BY crew_id')
      .all()
      .map((r) => r.crew_id);
  }

  version(crewId: string, role: string, version: number): SuggestionVersion {
    const row = this.db
      .prepare<[string, string, number], VersionRow>('SELECT * FROM suggestion_versions WHERE crew_id = ? AND agent_role = ? AND version = ?')
      .get(crewId, role, version);
    if (!row) throw new SuggestionVersionNotFound(crewId, role, version, this.versions(crewId, role).map((v) => v.version));
    return toVersion(row);
  }

  active(crewId: string, role: string): SuggestionVersion | undefined {
    const row = this.db
      .prepare<[string, string], VersionRow>("SELECT * FROM suggestion_versions WHERE crew_id = ? AND agent_role = ? AND status = 'active'")
      .get(crewId, role);
    return row ? toVersion(row) : undefined;
  }

  /** What a run of the crew applies: each role's active version (roles without one are absent). */
  activeSuggestions(crewId: string): ActiveSuggestions {
    const rows = this.db.prepare<[string], VersionRow>("SELECT * FROM suggestion_versions WHERE crew_id = ? AND status = 'active'").all(crewId);
    return new Map(
      rows
        .map(toVersion)
        .filter((v) => v.suggestions.length > 0)
        .map((v) => [v.role, { version: v.version, suggestions: v.suggestions }]),
    );
  }

  /** Replaces a version's suggestions; the previous list goes to its history. */
  editSuggestions(crewId: string, role: string, version: number, suggestions: string[], reason = 'edited by hand'): SuggestionVersion {
    return this.db.transaction(() => {
      const current = this.version(crewId, role, version);
      const history: SuggestionEdit[] = [...current.history, { suggestions: current.suggestions, editedAt: this.now(), reason }];
      this.db
        .prepare('UPDATE suggestion_versions SET suggestions = ?, edited = 1, history = ?, updated_at = ? WHERE crew_id = ? AND agent_role = ? AND version = ?')
        .run(JSON.stringify(suggestions), JSON.stringify(history), this.now(), crewId, role, version);
      return this.version(crewId, role, version);
    }).immediate();
  }

  /** Makes a version the role's active one; the role's other active version is disabled. */
  activate(crewId: string, role: string, version: number): SuggestionVersion {
    return this.db.transaction(() => {
      this.version(crewId, role, version);
      this.deactivateOthers(crewId, role, version);
      this.setStatus(crewId, role, version, 'active');
      return this.version(crewId, role, version);
    }).immediate();
  }

  disable(crewId: string, role: string, version: number): SuggestionVersion {
    return this.db.transaction(() => {
      this.version(crewId, role, version);
      this.setStatus(crewId, role, version, 'disabled');
      return this.version(crewId, role, version);
    }).immediate();
  }

  /**
   * Goes back one version: the version before the active one becomes active (whatever its status),
   * the active one is disabled. Returns the version now active.
   */
  rollback(crewId: string, role: string): SuggestionVersion {
    return this.db.transaction(() => {
      const current = this.active(crewId, role);
      if (!current) throw new VersionConflict(`crew "${crewId}" role "${role}" has no active suggestion version to roll back from`);
      const previous = this.db
        .prepare<[string, string, number], VersionRow>('SELECT * FROM suggestion_versions WHERE crew_id = ? AND agent_role = ? AND version < ? ORDER BY version DESC LIMIT 1')
        .get(crewId, role, current.version);
      if (!previous) throw new VersionConflict(`crew "${crewId}" role "${role}": version ${current.version} is the first version; there is none to roll back to (disable it instead)`);
      this.setStatus(crewId, role, current.version, 'disabled');
      this.setStatus(crewId, role, previous.version, 'active');
      return this.version(crewId, role, previous.version);
    }).immediate();
  }

  private deactivateOthers(crewId: string, role: string, keep: number): void {
    this.db
      .prepare("UPDATE suggestion_versions SET status = 'disabled', updated_at = ? WHERE crew_id = ? AND agent_role = ? AND status = 'active' AND version <> ?")
      .run(this.now(), crewId, role, keep);
  }

  private setStatus(crewId: string, role: string, version: number, status: SuggestionStatus): void {
    this.db.prepare('UPDATE suggestion_versions SET status = ?, updated_at = ? WHERE crew_id = ? AND agent_role = ? AND version = ?').run(status, this.now(), crewId, role, version);
  }
}

/** JSON text that must hold an array of strings (anything else is reported, never evaluated). */
function stringArray(text: string, what: string): string[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) throw new Error(`stored ${what} is not a list of strings`);
  return value;
}

function numberArray(text: string, what: string): number[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || !value.every((n) => typeof n === 'number')) throw new Error(`stored ${what} is not a list of numbers`);
  return value;
}

function editHistory(text: string): SuggestionEdit[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value)) throw new Error('stored suggestion history is not a list');
  return value.map((entry: { suggestions?: unknown; editedAt?: unknown; reason?: unknown }) => ({
    suggestions: stringArray(JSON.stringify(entry.suggestions ?? null), 'suggestion history entry'),
    editedAt: Number(entry.editedAt),
    reason: String(entry.reason ?? ''),
  }));
}

function toRecord(row: RecordRow): TrainingRecord {
  return {
    id: row.id,
    trainingId: row.session_id,
    runId: row.run_id,
    crewId: row.crew_id,
    iteration: row.iteration,
    taskId: row.task_id,
    role: row.agent_role,
    initialOutput: row.initial_output,
    feedback: row.feedback,
    improvedOutput: row.improved_output,
    createdAt: row.created_at,
  };
}

function toVersion(row: VersionRow): SuggestionVersion {
  return {
    crewId: row.crew_id,
    role: row.agent_role,
    version: row.version,
    status: row.status,
    suggestions: stringArray(row.suggestions, 'suggestions'),
    quality: row.quality,
    summary: row.summary,
    ...(row.session_id !== null ? { trainingId: row.session_id } : {}),
    runIds: stringArray(row.run_ids, 'run ids'),
    recordIds: numberArray(row.record_ids, 'record ids'),
    edited: row.edited === 1,
    history: editHistory(row.history),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
