import { z } from 'zod';

/** What a test's evaluator answers for one task's output (or one kept conversation's reply). */
export const TaskScoreSchema = z.object({
  score: z.number().min(1).max(10),
  reason: z.string().trim().min(1, 'must not be empty'),
});
