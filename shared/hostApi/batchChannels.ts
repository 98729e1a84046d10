import { z } from 'zod';
import { TokenUsageSchema } from '../usage';
import { DocumentPathSchema, Id, Inputs, type ChannelSchemas } from './requestFields';

/** How one row of a batch (`runs.startBatch`) stands: queued until its run opens, then its run's status. */
export const BatchRowStatusSchema = z.enum(['queued', 'running', 'paused', 'completed', 'failed', 'cancelled']);
export type BatchRowStatus = z.infer<typeof BatchRowStatusSchema>;

/** A crew run once per row of inputs, as the host tracks it (in memory: its runs are in the store). */
export const BatchSchema = z.object({
  batchId: z.string(),
  path: z.string(),
  concurrency: z.number(),
  /** Once every row ended: `completed` (all did), `failed` (one failed), else `cancelled` (stopped). */
  status: z.enum(['running', 'completed', 'failed', 'cancelled']),
  /** In row order. */
  rows: z.array(
    z.object({
      /** 0-based. */
      index: z.number(),
      /** Known before the run opens, so a queued row can be linked to the trace once it starts. */
      runId: z.string(),
      inputs: z.record(z.string(), z.string()),
      status: BatchRowStatusSchema,
      /** Whether its run opened (is in the store and can be shown); a row refused before opening has only `error`. */
      opened: z.boolean(),
      tokenUsage: TokenUsageSchema,
      error: z.string().optional(),
    }),
  ),
});
export type HostBatch = z.infer<typeof BatchSchema>;

export const BATCH_CHANNELS = {
  /**
   * A crew once per row of inputs (CrewAI's kickoff_for_each), up to `concurrency` rows at a time. Every
   * row is checked before any runs: a row missing an input is bad_input naming the row and the input.
   * Answers at once with the batch (run ids in row order); `batch.changed` pushes say when to ask
   * `runs.batch` again, and every row's run pushes its events as any run does.
   */
  'runs.startBatch': {
    request: z.strictObject({
      path: DocumentPathSchema,
      rows: z.array(Inputs).min(1).max(1000),
      concurrency: z.number().int().min(1).max(16).default(1),
      model: z.string().max(200).optional(),
    }),
    response: BatchSchema,
  },
  'runs.batch': { request: z.strictObject({ batchId: Id }), response: BatchSchema },
  /** Stops a batch: no further row starts (those rows end cancelled) and its live and paused runs are cancelled. */
  'runs.cancelBatch': { request: z.strictObject({ batchId: Id }), response: z.object({ cancelled: z.number() }) },
} as const satisfies ChannelSchemas;
