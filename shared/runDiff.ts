import { z } from 'zod';
import { TokenUsageSchema } from './usage';

/** One piece of a word-level diff: text in both outputs, only in run B (`add`), or only in run A (`remove`). */
export const WordDiffPartSchema = z.object({ op: z.enum(['equal', 'add', 'remove']), text: z.string() });
export type WordDiffPart = z.infer<typeof WordDiffPartSchema>;

export const GuardrailAttemptSchema = z.object({ attempt: z.number(), guardrail: z.string(), passed: z.boolean(), reason: z.string().optional() });

/** What one run did for one task (a flow: one method call). */
export const RunStepSideSchema = z.object({
  status: z.enum(['completed', 'failed', 'skipped', 'restored', 'unfinished']),
  output: z.string(),
  error: z.string().optional(),
  agentRole: z.string().optional(),
  tokenUsage: TokenUsageSchema,
  durationMs: z.number().optional(),
  /** Tool calls in order, each `name(args as JSON)`. */
  toolCalls: z.array(z.string()),
  /** 1 + the guardrail retries. */
  attempts: z.number(),
  guardrails: z.array(GuardrailAttemptSchema),
});
export type RunStepSide = z.infer<typeof RunStepSideSchema>;

export const RunStepDiffSchema = z.object({
  /** A task id; for a flow, the method id (`<id>#<n>` for its n-th call when it ran more than once). */
  taskId: z.string(),
  /** The output, the status, the error, the tool calls or the attempts differ (tokens and time alone do not count). */
  changed: z.boolean(),
  /** Absent when that run has no such step. */
  a: RunStepSideSchema.optional(),
  b: RunStepSideSchema.optional(),
  words: z.array(WordDiffPartSchema),
  /** B minus A. `costUsd` only when both sides have a cost. */
  delta: z.object({ totalTokens: z.number(), promptTokens: z.number(), completionTokens: z.number(), durationMs: z.number().optional(), costUsd: z.number().optional() }),
  toolCalls: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }),
});
export type RunStepDiff = z.infer<typeof RunStepDiffSchema>;

const Pair = <T extends z.ZodType>(t: T) => z.object({ a: t, b: t });

export const RunDiffSchema = z.object({
  runA: z.object({ id: z.string(), name: z.string(), status: z.string(), kind: z.enum(['crew', 'flow']) }),
  runB: z.object({ id: z.string(), name: z.string(), status: z.string(), kind: z.enum(['crew', 'flow']) }),
  tasks: z.array(RunStepDiffSchema),
  tokenUsage: Pair(TokenUsageSchema),
  /** Absent on a side whose run has no cost (a model without a price). */
  costUsd: Pair(z.number().optional()),
  durationMs: Pair(z.number().optional()),
  output: z.object({ changed: z.boolean(), words: z.array(WordDiffPartSchema) }),
});
export type RunDiff = z.infer<typeof RunDiffSchema>;
