import type { Pool } from 'pg';
import { newRunId } from '../runId';
import { loadFlowCheckpoint } from '../flow/flowCheckpoint';
import type { StoredTaskOutput } from '../store/types';
import { readTeamCheckpoint, readTeamCheckpointEntries, readTeamOutputs, readTeamRun, type TeamResumeRequest, type TeamRunRequest, type TeamRunRow, type TeamRunStatus, type TeamWebhook } from '../store/postgresRunReads';
import type { RunDispatch } from './dispatch';
import { TeamConflict, TeamNotFound } from './teamErrors';

/** A run as `GET /v1/runs/{runId}` shows it. */
export interface TeamRunView {
  runId: string;
  status: TeamRunStatus;
  kind: 'crew' | 'flow';
  name: string;
  deploymentId?: string;
  version?: number;
  /** The document's path in its published version (as `documentPath` of a local run). */
  documentPath?: string;
  inputs: Record<string, string>;
  output: string | null;
  state?: unknown;
  usage: unknown;
  costUsd?: number;
  /** What a `waiting` or `paused` run waits for: `kind` feedback (a flow's step), task_review / tool_approval (a crew's), budget. */
  pending?: { requestId: string; kind: string; prompt: string; outcomes?: string[]; output?: string; defaultOutcome?: string; taskId?: string; agentRole?: string; tool?: string; args?: unknown };
  error?: string;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  lastSeq: number;
  batchId?: string;
  replayOf?: { runId: string; from: string };
  shared?: boolean;
  /** Why the run's webhook stopped being sent (its URL reached a refused address). */
  webhookError?: string;
}

/**
 * A run's view; `include` adds the document it ran (`?include=document`: the app draws its trace with it)
 * and its task outputs (`tasks`: what `crewdeck runs show` prints).
 */
export async function viewRun(pool: Pool, runId: string, include: ReadonlySet<string> = new Set()): Promise<TeamRunView & { document?: unknown; tasks?: StoredTaskOutput[] }> {
  const row = await readTeamRun(pool, runId);
  if (!row) throw new TeamNotFound(`no run "${runId}"`);
  const view: TeamRunView & { document?: unknown; tasks?: StoredTaskOutput[] } = summaryView(row);
  if (include.has('document')) view.document = row.document;
  if (include.has('tasks')) view.tasks = await readTeamOutputs(pool, runId);
  if (row.kind === 'flow') {
    const [base, entries] = await Promise.all([readTeamCheckpoint(pool, runId), readTeamCheckpointEntries(pool, runId)]);
    const checkpoint = loadFlowCheckpoint({ loadCheckpoint: () => base, checkpointEntries: () => entries }, runId);
    if (checkpoint?.state !== undefined) view.state = checkpoint.state;
  }
  return view;
}

/** A run's view without its flow state (list pages). */
export function summaryView(row: TeamRunRow): TeamRunView {
  const usage = row.token_usage;
  return {
    runId: row.id,
    status: row.status,
    kind: row.kind,
    name: row.name,
    ...(row.deployment_id !== null ? { deploymentId: row.deployment_id } : {}),
    ...(row.version !== null ? { version: row.version } : {}),
    ...(row.document_path !== null ? { documentPath: row.document_path } : {}),
    inputs: row.inputs,
    output: row.output,
    usage: usage ?? { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, totalTokens: 0, requests: 0 },
    ...(usage?.costUsd !== undefined ? { costUsd: usage.costUsd } : {}),
    ...(row.pending ? { pending: row.pending } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    createdAt: row.created_at,
    ...(row.started_at !== null ? { startedAt: row.started_at } : {}),
    ...(row.ended_at !== null ? { endedAt: row.ended_at } : {}),
    lastSeq: row.last_seq,
    ...(row.batch_id !== null ? { batchId: row.batch_id } : {}),
    ...(row.replay_of_run_id !== null ? { replayOf: { runId: row.replay_of_run_id, from: row.replay_from_step_id ?? '' } } : {}),
    ...(row.request.kind === 'shared' ? { shared: true } : {}),
    ...(row.webhook_error ? { webhookError: row.webhook_error } : {}),
  };
}

export interface NewTeamRun {
  deploymentId: string;
  version: number;
  kind: 'crew' | 'flow';
  name: string;
  inputs: Record<string, string>;
  request: TeamRunRequest;
  keyId?: string;
  idempotencyKey?: string;
  webhook?: TeamWebhook;
  replayOf?: { runId: string; from: string };
}

/** Queues a run (the same `idempotencyKey` on the same deployment returns the run it made first). */
export async function queueRun(pool: Pool, dispatch: RunDispatch, run: NewTeamRun): Promise<{ runId: string; status: TeamRunStatus; existing: boolean }> {
  const runId = newRunId();
  const inserted = await pool.query<{ id: string }>(
    `INSERT INTO runs (id, kind, document_id, name, status, inputs, created_at, deployment_id, version, key_id, idempotency_key, request, webhook, replay_of_run_id, replay_from_step_id)
     VALUES ($1, $2, $3, $4, 'queued', $5, $6, $3, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (deployment_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id`,
    [runId, run.kind, run.deploymentId, run.name, JSON.stringify(run.inputs), Date.now(), run.version, run.keyId ?? null, run.idempotencyKey ?? null, JSON.stringify(run.request), run.webhook ? JSON.stringify(run.webhook) : null, run.replayOf?.runId ?? null, run.replayOf?.from ?? null],
  );
  if (inserted.rowCount === 0) {
    const existing = (await pool.query<{ id: string; status: TeamRunStatus }>('SELECT id, status FROM runs WHERE deployment_id = $1 AND idempotency_key = $2', [run.deploymentId, run.idempotencyKey])).rows[0]!;
    return { runId: existing.id, status: existing.status, existing: true };
  }
  await dispatch.dispatch([runId]);
  return { runId, status: 'queued', existing: false };
}

/**
 * Accepts the answer to a run's pending request, once: the run must be waiting (or paused) on exactly
 * `requestId`; the same (or an older) requestId again gets TeamConflict and changes nothing.
 */
export async function resumeRun(pool: Pool, dispatch: RunDispatch, runId: string, answer: TeamResumeRequest): Promise<{ runId: string; status: TeamRunStatus }> {
  const updated = await pool.query(
    `UPDATE runs SET status = 'queued', resume_request = $3, dispatched_at = now()
     WHERE id = $1 AND status IN ('waiting', 'paused') AND pending->>'requestId' = $2 AND cancel_requested IS NULL`,
    [runId, answer.requestId, JSON.stringify(answer)],
  );
  if (updated.rowCount === 0) {
    const row = await readTeamRun(pool, runId);
    if (!row) throw new TeamNotFound(`no run "${runId}"`);
    const waitingFor = row.pending && (row.status === 'waiting' || row.status === 'paused') ? `; it waits for request "${row.pending.requestId}"` : '';
    throw new TeamConflict(`request "${answer.requestId}" is not what run ${runId} waits for (the run is ${row.status}${waitingFor}): it was answered already, or it is stale`);
  }
  await dispatch.dispatch([runId]);
  return { runId, status: 'queued' };
}

/**
 * Cancels a run: a queued run that never started ends at once; a waiting or paused one is queued to be
 * ended by a worker (its trace gets `run.cancelled`); a running one's worker hears it and stops it.
 */
export async function cancelRun(pool: Pool, dispatch: RunDispatch, runId: string, reason: string): Promise<{ runId: string; status: TeamRunStatus }> {
  const now = Date.now();
  const unstarted = await pool.query(
    `UPDATE runs SET status = 'cancelled', error = $2, cancel_requested = $2, ended_at = $3
     WHERE id = $1 AND status = 'queued' AND last_seq = 0 AND (lease_owner IS NULL OR lease_until < now())`,
    [runId, reason, now],
  );
  if ((unstarted.rowCount ?? 0) > 0) return { runId, status: 'cancelled' };
  const stopped = await pool.query<{ status: TeamRunStatus }>(
    `UPDATE runs SET cancel_requested = $2, status = CASE WHEN status IN ('waiting', 'paused') THEN 'queued' ELSE status END
     WHERE id = $1 AND status IN ('queued', 'running', 'waiting', 'paused') RETURNING status`,
    [runId, reason],
  );
  const row = stopped.rows[0];
  if (!row) {
    const existing = await readTeamRun(pool, runId);
    if (!existing) throw new TeamNotFound(`no run "${runId}"`);
    throw new TeamConflict(`run ${runId} has ended (${existing.status}); there is nothing to cancel`);
  }
  await pool.query("SELECT pg_notify('crewdeck_cancel', $1)", [`${runId}:${reason}`]);
  await dispatch.dispatch([runId]);
  return { runId, status: row.status };
}

export interface RunListQuery {
  deploymentId?: string;
  status?: TeamRunStatus;
  cursor?: string;
  limit: number;
}

/** Newest first; `nextCursor` continues after the last run of the page (stable while new runs arrive). */
export async function listTeamRuns(pool: Pool, query: RunListQuery): Promise<{ runs: TeamRunView[]; nextCursor?: string }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.deploymentId) where.push(`deployment_id = $${params.push(query.deploymentId)}`);
  if (query.status) where.push(`status = $${params.push(query.status)}`);
  if (query.cursor) {
    const [createdAt, id] = decodeCursor(query.cursor);
    where.push(`(created_at, id) < ($${params.push(createdAt)}, $${params.push(id)})`);
  }
  const rows = await pool.query<TeamRunRow>(
    `SELECT * FROM runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT $${params.push(query.limit + 1)}`,
    params,
  );
  const page = rows.rows.slice(0, query.limit);
  const last = page.at(-1);
  return { runs: page.map(summaryView), ...(rows.rows.length > query.limit && last ? { nextCursor: encodeCursor(last.created_at, last.id) } : {}) };
}

function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(`${createdAt}:${id}`).toString('base64url');
}

export class CursorInvalid extends Error {
  override name = 'CursorInvalid';
}

function decodeCursor(cursor: string): [number, string] {
  const text = Buffer.from(cursor, 'base64url').toString();
  const at = text.indexOf(':');
  const createdAt = Number(text.slice(0, at));
  if (at < 0 || !Number.isFinite(createdAt)) throw new CursorInvalid(`cursor "${cursor}" is not one this server gave`);
  return [createdAt, text.slice(at + 1)];
}
