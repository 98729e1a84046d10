import { z } from 'zod';
import { TokenUsageSchema } from '../usage';
import { num, readAs, str } from './eventParts';

/** The `task.*` events: their payloads (the envelope is added by the emitter). */
export const TASK_EVENTS = {
  'task.started': z.strictObject({ taskId: str, taskName: str.optional(), index: num, agentRole: str, description: str, expectedOutput: str, async: z.boolean(), context: str }),
  'task.completed': z.strictObject({
    taskId: str,
    agentRole: str,
    raw: str,
    json: z.unknown().optional(),
    tokenUsage: TokenUsageSchema,
    durationMs: num,
    outputFile: str.optional(),
    restoredFrom: str.optional(),
    readAs: readAs.optional(),
  }),
  'task.failed': z.strictObject({ taskId: str, agentRole: str, error: str, errorName: str, durationMs: num }),
  /** The task stopped at the run's budget (see `budget.reached`): its partial work is dropped and it runs again when the run resumes. */
  'task.paused': z.strictObject({ taskId: str, agentRole: str, reason: z.enum(['budget', 'human']), message: str, durationMs: num }),
  'task.skipped': z.strictObject({ taskId: str, index: num, reason: str }),
  'task.retrying': z.strictObject({ taskId: str, attempt: num, maxRetries: num, reason: str, rejectedOutput: str }),
};
