import { z } from 'zod';
import { TokenUsageSchema } from './usage';

/**
 * Training and testing data as it crosses the host boundary (SPEC §6). Everything is plain data:
 * suggestions are strings, never code, and are stored as JSON text in SQLite.
 */

export const SuggestionStatusSchema = z.enum(['draft', 'active', 'disabled']);
export type SuggestionStatus = z.infer<typeof SuggestionStatusSchema>;

/** A change of a version's suggestions by hand: what they were before, and when. */
export const SuggestionEditSchema = z.object({
  suggestions: z.array(z.string()),
  editedAt: z.number(),
  reason: z.string(),
});
export type SuggestionEdit = z.infer<typeof SuggestionEditSchema>;

export const SuggestionVersionSchema = z.object({
  crewId: z.string(),
  role: z.string(),
  version: z.number().int(),
  status: SuggestionStatusSchema,
  suggestions: z.array(z.string()),
  /** The evaluator's quality score of the training outputs, 0–10. */
  quality: z.number(),
  summary: z.string(),
  /** The training session that produced it (absent once that session is deleted). */
  trainingId: z.string().optional(),
  /** The training runs behind it. */
  runIds: z.array(z.string()),
  /** The feedback records behind it (`training.records`). */
  recordIds: z.array(z.number()),
  edited: z.boolean(),
  /** Earlier suggestion lists, oldest first. */
  history: z.array(SuggestionEditSchema),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type SuggestionVersion = z.infer<typeof SuggestionVersionSchema>;

/** One reviewed answer of a training run: what the agent said, what the human said, what it said then. */
export const TrainingRecordSchema = z.object({
  id: z.number().int(),
  trainingId: z.string(),
  runId: z.string(),
  crewId: z.string(),
  iteration: z.number().int(),
  taskId: z.string(),
  role: z.string(),
  initialOutput: z.string(),
  feedback: z.string(),
  improvedOutput: z.string(),
  createdAt: z.number(),
});
export type TrainingRecord = z.infer<typeof TrainingRecordSchema>;

/** What a training and a test session both are: a crew run N times, with an evaluator model. */
const SessionFields = {
  id: z.string(),
  crewId: z.string(),
  name: z.string(),
  documentPath: z.string().optional(),
  iterations: z.number().int(),
  evalModel: z.string().optional(),
  runIds: z.array(z.string()),
  /** The session's own run: its `training.*` / `test.*` events and the evaluator's model calls. */
  evaluationRunId: z.string().optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  error: z.string().optional(),
};

export const TrainingSessionSchema = z.object({ ...SessionFields, status: z.enum(['running', 'evaluating', 'completed', 'failed']) });
export type TrainingSession = z.infer<typeof TrainingSessionSchema>;

/** What changed from one version's suggestions to another's (compared by position after matching equal texts). */
export const SuggestionDiffSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.object({ before: z.string(), after: z.string() })),
  unchanged: z.array(z.string()),
});
export type SuggestionDiff = z.infer<typeof SuggestionDiffSchema>;

export const CheckResultSchema = z.object({ type: z.string(), pass: z.boolean(), reason: z.string().optional() });
export type CheckResult = z.infer<typeof CheckResultSchema>;

/** One task in one iteration of a crew test. */
export const TestResultSchema = z.object({
  iteration: z.number().int(),
  runId: z.string(),
  taskId: z.string(),
  index: z.number().int(),
  role: z.string(),
  status: z.enum(['completed', 'failed', 'skipped']),
  /** The evaluator's score, 1–10 (absent when the task did not complete). */
  score: z.number().optional(),
  reason: z.string(),
  /** Fraction of the task's deterministic checks that passed × 10 (absent when it declares none). */
  checkScore: z.number().optional(),
  checks: z.array(CheckResultSchema),
  durationMs: z.number(),
  tokenUsage: TokenUsageSchema,
});
export type TestResult = z.infer<typeof TestResultSchema>;

/** Per task: scores across iterations and the averages. */
export const TestTaskSummarySchema = z.object({
  taskId: z.string(),
  role: z.string(),
  /** Evaluator score per iteration (null: the task did not complete in that iteration). */
  scores: z.array(z.number().nullable()),
  averageScore: z.number().nullable(),
  averageCheckScore: z.number().nullable(),
  averageDurationMs: z.number(),
  totalTokens: z.number(),
});
export type TestTaskSummary = z.infer<typeof TestTaskSummarySchema>;

export const TestSessionSchema = z.object({ ...SessionFields, status: z.enum(['running', 'completed', 'failed']) });
export type TestSession = z.infer<typeof TestSessionSchema>;

export const TestReportSchema = z.object({
  session: TestSessionSchema,
  results: z.array(TestResultSchema),
  tasks: z.array(TestTaskSummarySchema),
  /** Average of the tasks' average scores (null when none completed). */
  averageScore: z.number().nullable(),
  averageCheckScore: z.number().nullable(),
});
export type TestReport = z.infer<typeof TestReportSchema>;
