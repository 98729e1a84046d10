import type { PoolClient } from 'pg';
import type { RuntimeEvent } from '../../shared/events';
import { redactKnown } from '../redactSecrets';
import type { NewRun, RunEnd, StoredTaskOutput } from './types';

/**
 * What a team run waits for when it stops: a person's answer (`waiting`: a flow's feedback, a crew's task
 * review or tool approval) or a higher budget (`paused`).
 */
export interface TeamPending {
  requestId: string;
  kind: 'feedback' | 'budget' | 'task_review' | 'tool_approval';
  prompt: string;
  /** What the person reviews (a flow's feedback step, a crew task's answer). */
  output?: string;
  /** A crew's question: the task and the agent that asks. */
  taskId?: string;
  agentRole?: string;
  /** A tool approval: the tool and the arguments it would be called with. */
  tool?: string;
  args?: unknown;
  outcomes?: string[];
  defaultOutcome?: string;
  methodId?: string;
}

/** One write of the run store, kept in order on its way to PostgreSQL. */
export type StoreWrite =
  | { kind: 'create'; run: NewRun }
  | { kind: 'events'; runId: string; events: RuntimeEvent[] }
  | { kind: 'output'; output: StoredTaskOutput }
  | { kind: 'checkpoint'; runId: string; checkpoint: unknown; at: number }
  | { kind: 'entry'; runId: string; entry: unknown; key: string }
  | { kind: 'finish'; runId: string; end: RunEnd; pending: TeamPending | undefined }
  | { kind: 'reopen'; runId: string };

/**
 * Applies writes in order inside the caller's transaction. Each is idempotent (events and outputs by
 * their keys), so a commit whose answer was lost (PostgreSQL restarting) is safe to send again.
 */
export async function applyWrites(client: PoolClient, writes: readonly StoreWrite[]): Promise<void> {
  for (const write of writes) {
    switch (write.kind) {
      case 'create':
        await createRun(client, write.run);
        break;
      case 'events':
        await insertEvents(client, write.runId, write.events);
        break;
      case 'output':
        await upsertOutput(client, write.output);
        break;
      case 'checkpoint':
        await client.query(
          `INSERT INTO checkpoints (run_id, checkpoint, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (run_id) DO UPDATE SET checkpoint = excluded.checkpoint, updated_at = excluded.updated_at`,
          [write.runId, JSON.stringify(write.checkpoint), write.at],
        );
        // A saved checkpoint replaces what was appended to the last one.
        await client.query('DELETE FROM checkpoint_entries WHERE run_id = $1', [write.runId]);
        break;
      case 'entry':
        await client.query('INSERT INTO checkpoint_entries (run_id, write_key, entry) VALUES ($1, $2, $3) ON CONFLICT (run_id, write_key) DO NOTHING', [write.runId, write.key, JSON.stringify(write.entry)]);
        break;
      case 'finish':
        await finishRun(client, write.runId, write.end, write.pending);
        break;
      case 'reopen':
        await client.query("UPDATE runs SET status = 'running', ended_at = NULL, error = NULL, output = NULL, pending = NULL WHERE id = $1", [write.runId]);
        break;
    }
  }
}

/** The run's row exists (the API queued it): the worker fills in what the runtime knows at its start. */
async function createRun(client: PoolClient, run: NewRun): Promise<void> {
  const from = run.replayOf ? ('fromTaskId' in run.replayOf ? run.replayOf.fromTaskId : run.replayOf.fromMethodId) : null;
  const result = await client.query(
    `UPDATE runs SET kind = $2, document_id = $3, name = $4, document = $5, document_path = $6, inputs = $7,
       replay_of_run_id = COALESCE($8, replay_of_run_id), replay_from_step_id = COALESCE($9, replay_from_step_id),
       started_at = $10, status = 'running'
     WHERE id = $1`,
    [run.id, run.kind, run.documentId, run.name, JSON.stringify(run.document), run.documentPath ?? null, JSON.stringify(run.inputs), run.replayOf?.runId ?? null, from, run.startedAt],
  );
  if (result.rowCount === 0) throw new Error(`run ${run.id} is not in the team database (runs start through the API)`);
}

async function insertEvents(client: PoolClient, runId: string, events: readonly RuntimeEvent[]): Promise<void> {
  if (events.length === 0) return;
  const seqs: number[] = [];
  const types: string[] = [];
  const times: number[] = [];
  const spans: string[] = [];
  const parents: (string | null)[] = [];
  const payloads: string[] = [];
  for (const { type, runId: _runId, seq, ts, spanId, parentSpanId, ...payload } of events) {
    seqs.push(seq);
    types.push(type);
    times.push(ts);
    spans.push(spanId);
    parents.push(parentSpanId ?? null);
    payloads.push(JSON.stringify(payload));
  }
  await client.query(
    `INSERT INTO events (run_id, seq, type, ts, span_id, parent_span_id, payload)
     SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[])
     ON CONFLICT (run_id, seq) DO NOTHING`,
    [runId, seqs, types, times, spans, parents, payloads],
  );
  const last = Math.max(...seqs);
  await client.query('UPDATE runs SET last_seq = GREATEST(last_seq, $2) WHERE id = $1', [runId, last]);
  // Streams and webhook senders wake up at the commit (NOTIFY is delivered when the transaction commits).
  await client.query("SELECT pg_notify('crewdeck_events', $1)", [`${runId}:${last}`]);
}

async function upsertOutput(client: PoolClient, output: StoredTaskOutput): Promise<void> {
  await client.query(
    `INSERT INTO task_outputs (run_id, task_id, idx, agent_role, raw, json, skipped, token_usage)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (run_id, task_id) DO UPDATE SET idx = excluded.idx, agent_role = excluded.agent_role, raw = excluded.raw,
       json = excluded.json, skipped = excluded.skipped, token_usage = excluded.token_usage`,
    [
      output.runId,
      output.taskId,
      output.index,
      output.agentRole,
      redactKnown(output.raw),
      output.json === undefined ? null : JSON.stringify(output.json),
      output.skipped,
      JSON.stringify(output.tokenUsage),
    ],
  );
}

/** The run stopped: its end, what it waits for, and the lease let go in the same commit (a resume can claim it at once). */
async function finishRun(client: PoolClient, runId: string, end: RunEnd, pending: TeamPending | undefined): Promise<void> {
  const status = end.status === 'paused' ? (pending && pending.kind !== 'budget' ? 'waiting' : 'paused') : end.status;
  await client.query(
    `UPDATE runs SET status = $2, output = $3, error = $4, token_usage = $5, ended_at = $6, pending = $7,
       lease_owner = NULL, lease_until = NULL
     WHERE id = $1`,
    [runId, status, end.output == null ? null : redactKnown(end.output), end.error == null ? null : redactKnown(end.error), JSON.stringify(end.tokenUsage), end.endedAt, pending ? JSON.stringify(pending) : null],
  );
  await client.query("SELECT pg_notify('crewdeck_runs', $1)", [`${runId}:${status}`]);
}
