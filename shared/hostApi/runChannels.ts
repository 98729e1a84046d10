import { z } from 'zod';
import { TokenUsageSchema } from '../usage';
import { RunDiffSchema } from '../runDiff';
import { BudgetSchema } from '../model/budget';
import { DocumentPathSchema, Id, Inputs, RunId, type ChannelSchemas } from './requestFields';

export const RunStatusSchema = z.enum(['running', 'paused', 'completed', 'failed', 'cancelled', 'interrupted']);
export type HostRunStatus = z.infer<typeof RunStatusSchema>;

export const RunSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(['crew', 'flow']),
  documentId: z.string(),
  name: z.string(),
  status: RunStatusSchema,
  startedAt: z.number(),
  endedAt: z.number().optional(),
  durationMs: z.number().optional(),
  tokenUsage: TokenUsageSchema,
  /** A replay (fork): of a crew from a task, or of a flow from a method. */
  replayOf: z.union([z.object({ runId: z.string(), fromTaskId: z.string() }), z.object({ runId: z.string(), fromMethodId: z.string() })]).optional(),
  error: z.string().optional(),
  documentPath: z.string().optional(),
  /** An offline re-run: the recorded run its model replies came from. */
  offlineFrom: z.string().optional(),
  /** A run on the team server (listed with the local ones): the server, and its status there (queued, waiting…). */
  team: z.object({ server: z.string(), status: z.string(), deploymentId: z.string().optional() }).optional(),
});
export type HostRunSummary = z.infer<typeof RunSummarySchema>;

export const TaskOutputSchema = z.object({
  taskId: z.string(),
  index: z.number(),
  agentRole: z.string(),
  raw: z.string(),
  json: z.unknown().optional(),
  skipped: z.boolean(),
  tokenUsage: TokenUsageSchema,
});

/** Local runs: start, cancel, list, read, replay, re-run offline, compare, resume. */
export const RUN_CHANNELS = {
  'runs.start': {
    request: z.strictObject({ path: DocumentPathSchema, inputs: Inputs.default({}), model: z.string().max(200).optional() }),
    response: z.object({ runId: z.string() }),
  },
  'runs.cancel': { request: z.strictObject({ runId: RunId }), response: z.object({ cancelled: z.boolean() }) },
  'runs.list': {
    request: z.strictObject({
      limit: z.number().int().min(1).max(1000).default(200),
      offset: z.number().int().min(0).default(0),
      documentId: Id.optional(),
    }),
    response: z.object({ runs: z.array(RunSummarySchema) }),
  },
  'runs.get': {
    request: z.strictObject({ runId: RunId }),
    response: z.object({
      run: RunSummarySchema.extend({ document: z.unknown(), inputs: z.record(z.string(), z.string()), output: z.string().optional() }),
      taskOutputs: z.array(TaskOutputSchema),
    }),
  },
  'runs.events': {
    request: z.strictObject({ runId: RunId, afterSeq: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(50_000).default(20_000) }),
    /** `events` are RuntimeEvents (shared/events.ts), in seq order. */
    response: z.object({ events: z.array(z.unknown()), lastSeq: z.number(), more: z.boolean() }),
  },
  'runs.replay': {
    /** `edits`: earlier tasks' outputs replaced before the replay (a fork), task id → text. */
    /**
     * A crew from a task (earlier tasks' outputs edited: task id → text), or a flow from a method (the
     * state there edited: field → JSON value); earlier steps come from the recorded run.
     */
    request: z.union([
      z.strictObject({ runId: RunId, fromTaskId: Id, edits: z.record(Id, z.string().max(1_000_000)).optional() }),
      z.strictObject({ runId: RunId, fromMethodId: Id, state: z.record(z.string().min(1).max(200), z.unknown()).optional() }),
    ]),
    response: z.object({ runId: z.string() }),
  },
  /** Runs the run's document as it is now, answering every model call from that run's recording (no network). */
  'runs.rerunOffline': { request: z.strictObject({ runId: RunId }), response: z.object({ runId: z.string() }) },
  /** Two stored runs compared step by step (see shared/runDiff.ts). */
  'runs.diff': { request: z.strictObject({ runA: RunId, runB: RunId }), response: z.object({ diff: RunDiffSchema }) },
  /**
   * Continues a paused flow with the answer to its pending feedback request (also after a restart), or a
   * crew or flow paused at its budget under a higher `budget` (each field replaces the run's cap).
   */
  'runs.resume': {
    request: z.strictObject({
      runId: RunId,
      /** A flow's feedback, or a crew's task review ('' accepts the answer). */
      feedback: z.string().max(100_000).optional(),
      /** A crew paused at a tool approval (a team run waiting, or one paused for later). */
      decision: z.enum(['approve', 'deny', 'always']).optional(),
      budget: BudgetSchema.optional(),
    }),
    response: z.object({ runId: z.string() }),
  },
} as const satisfies ChannelSchemas;
