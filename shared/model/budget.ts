import { z } from 'zod';

/** A run's spending cap: before each model call, a run whose total reached a cap pauses (it does not fail). */
export const BudgetSchema = z.strictObject({
  /** Total tokens (prompt + completion) of the whole run, every session of it. */
  maxTokens: z.number().int().positive().optional(),
  /** US dollars from the price table; calls of models with no price count as $0 toward it. */
  maxCostUsd: z.number().positive().optional(),
});
export type Budget = z.infer<typeof BudgetSchema>;

/** Which cap a paused run reached. */
export type BudgetLimitName = 'maxTokens' | 'maxCostUsd';

/** What a run paused at its budget waits for: a higher cap (`crewdeck resume --max-tokens/--max-cost`). */
export interface BudgetPending {
  kind: 'budget';
  /** The cap that was reached. */
  which: BudgetLimitName;
  /** The run's total in that cap's unit (tokens or US dollars) when it paused. */
  spent: number;
  /** The cap's value. */
  limit: number;
  /** The request id of the pause (`run.paused`, `run.resumed`). */
  requestId: string;
  /** The step the run stopped in: a crew's task or a flow's method (it runs again on resume). */
  stepId?: string;
}
