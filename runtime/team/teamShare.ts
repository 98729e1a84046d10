import type { Pool } from 'pg';
import { z } from 'zod';
import type { RuntimeEvent } from '../../shared/events';
import { TokenUsageSchema } from '../../shared/usage';
import { applyWrites } from '../store/postgresRunWrites';
import { inTransaction } from '../store/postgresTransaction';
import { parseBody } from './apiSchemas';
import { TeamConflict } from './teamErrors';

/** A run uploaded from a desktop (*Share run*): its record, events and task outputs, as the local store holds them. */
const SharedRunSchema = z.strictObject({
  run: z.object({
    id: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/),
    kind: z.enum(['crew', 'flow']),
    documentId: z.string().min(1),
    name: z.string(),
    status: z.enum(['running', 'paused', 'completed', 'failed', 'cancelled', 'interrupted']),
    startedAt: z.number(),
    endedAt: z.number().optional(),
    tokenUsage: TokenUsageSchema,
    error: z.string().optional(),
    document: z.unknown(),
    inputs: z.record(z.string(), z.string()),
    output: z.string().optional(),
  }),
  events: z.array(z.object({ type: z.string(), runId: z.string(), seq: z.number().int().positive(), ts: z.number(), spanId: z.string() }).passthrough()).max(200_000),
  taskOutputs: z
    .array(z.object({ runId: z.string(), taskId: z.string(), index: z.number().int(), agentRole: z.string(), raw: z.string(), json: z.unknown().optional(), skipped: z.boolean(), tokenUsage: TokenUsageSchema }))
    .default([]),
});

/** Stores an uploaded run for the team to see (history only: it is never dispatched). */
export async function shareRun(pool: Pool, body: unknown, keyId: string): Promise<{ runId: string; status: string }> {
  const { run, events, taskOutputs } = parseBody(SharedRunSchema, body);
  // A run that was still going (or whose process died) is shared as it stands: failed, with its reason.
  const status = run.status === 'paused' ? 'paused' : run.status === 'running' || run.status === 'interrupted' ? 'failed' : run.status;
  await inTransaction(pool, async (client) => {
    const inserted = await client.query(
      `INSERT INTO runs (id, kind, document_id, name, status, document, inputs, created_at, started_at, ended_at, output, error, token_usage, key_id, request)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11, $12, $13, '{"kind":"shared"}') ON CONFLICT (id) DO NOTHING`,
      [run.id, run.kind, run.documentId, run.name, status, JSON.stringify(run.document ?? null), JSON.stringify(run.inputs), run.startedAt, run.endedAt ?? null, run.output ?? null, run.error ?? (status === 'failed' && run.status !== 'failed' ? `shared while ${run.status}` : null), JSON.stringify(run.tokenUsage), keyId],
    );
    if (inserted.rowCount === 0) throw new TeamConflict(`run ${run.id} is already on the team server`);
    const own = events.filter((e) => e.runId === run.id) as unknown as RuntimeEvent[];
    await applyWrites(client, [{ kind: 'events', runId: run.id, events: own }, ...taskOutputs.map((output) => ({ kind: 'output' as const, output: { ...output, runId: run.id } }))]);
  });
  return { runId: run.id, status };
}
