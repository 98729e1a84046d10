import { z } from 'zod';
import { TokenUsageSchema } from '../usage';
import { num, str } from './eventParts';

/** How a run's steps are run: a crew's process, a flow, or a session's evaluation (no steps). */
export const RunProcessSchema = z.enum(['sequential', 'hierarchical', 'flow', 'evaluation']);
export type RunProcess = z.infer<typeof RunProcessSchema>;

/** Why a run was made, when it is part of a training session, a crew test or a chat. */
export const RunPurposeSchema = z.union([
  /** One iteration of a training session or a crew test (`sessionId`; `iteration` is 1-based): an ordinary run of the crew. */
  z.strictObject({ kind: z.enum(['training', 'test']), sessionId: str, iteration: num, iterations: num }),
  /**
   * A training session's or test's own run: its `training.*` / `test.*` events and the evaluator's model
   * calls (`llm.*`, metered like any run's), beside the crew runs of its iterations.
   */
  z.strictObject({ kind: z.literal('evaluation'), of: z.enum(['training', 'test']), sessionId: str }),
  /** One reply in a chat with an agent (the chat pane), or a kept conversation replayed by a test (`sessionId`). */
  z.strictObject({ kind: z.literal('chat'), agentId: str, role: str, sessionId: str.optional() }),
]);
export type RunPurpose = z.infer<typeof RunPurposeSchema>;

/**
 * What a replay (fork) started from. A crew re-runs from a task, earlier tasks' outputs edited (task id →
 * text); a flow re-runs from a method, the state at that point edited (state key → JSON value).
 */
export const ReplayOfSchema = z.union([
  z.strictObject({ runId: str, fromTaskId: str, edits: z.record(str, str).optional() }),
  z.strictObject({ runId: str, fromMethodId: str, edits: z.record(str, z.unknown()).optional() }),
]);
export type ReplayOf = z.infer<typeof ReplayOfSchema>;

/** A flow method that ran as a stub for imported CrewAI Python (its `flow.stub.reached`), as a run's result lists it. */
export const StubReachedSchema = z.strictObject({ methodId: str, methodName: str, file: str, line: num, python: str });
export type StubReached = z.infer<typeof StubReachedSchema>;

/** The `run.*` events: their payloads (the envelope is added by the emitter). */
export const RUN_EVENTS = {
  'run.started': z.strictObject({
    /** The id and name of the document run: a crew's, or a flow's for process "flow". */
    documentId: str,
    documentName: str,
    process: RunProcessSchema,
    inputs: z.record(str, str),
    /** The document's steps in order: a crew's task ids, a flow's method ids. */
    stepIds: z.array(str),
    /** A replay (fork): the run it started from, the task or method it re-ran from, and what was edited before it. */
    replayOf: ReplayOfSchema.optional(),
    /** A run made by a training session, a crew test or a chat (not an ordinary run). */
    purpose: RunPurposeSchema.optional(),
    /** An offline re-run: every model reply (and external tool result) comes from this recorded run. */
    offlineFrom: str.optional(),
  }),
  /** `stubsReached`: a flow that ran imported CrewAI stubs (one entry per method): it completed without the project's logic there. */
  'run.completed': z.strictObject({
    output: str,
    tokenUsage: TokenUsageSchema,
    durationMs: num,
    stubsReached: z.array(StubReachedSchema).optional(),
  }),
  'run.failed': z.strictObject({ error: str, errorName: str, tokenUsage: TokenUsageSchema, durationMs: num }),
  'run.cancelled': z.strictObject({ reason: str, durationMs: num }),
  /** A flow waits for human feedback; the run's span stays open and `crewdeck resume` (or the app) continues it. */
  /**
   * `methodId`: the step it waits in (a flow's method; a crew's task when its budget was reached).
   * `reason: "budget"`: the run's budget was reached (see `budget.reached`); a higher cap continues it.
   */
  'run.paused': z.strictObject({ requestId: str, methodId: str, durationMs: num, reason: z.enum(['budget', 'human']).optional() }),
  /** A paused flow continues (in this or another process); events go on under the same spans. */
  /** `offlineFrom`: this session answers its model calls from that recorded run (`resume --offline`). */
  'run.resumed': z.strictObject({ requestId: str, pausedForMs: num, offlineFrom: str.optional() }),
};
