import { z } from 'zod';
import { num, str } from './eventParts';

/** The `budget.*` events: their payloads (the envelope is added by the emitter). */
export const BUDGET_EVENTS = {
  /**
   * Before a model call, the run's total reached its budget cap (`which`): the call is not made and the
   * run pauses (`run.paused` with reason "budget"). `spent` and `limit` are in the cap's unit (tokens or US dollars).
   */
  'budget.reached': z.strictObject({ which: z.enum(['maxTokens', 'maxCostUsd']), spent: num, limit: num, taskId: str.optional(), methodId: str.optional(), agentRole: str.optional() }),
};
