import { z } from 'zod';
import { TokenUsageSchema } from '../usage';
import { num, str } from './eventParts';

/** The `test.*` events: their payloads (the envelope is added by the emitter). */
export const TEST_EVENTS = {
  /** A crew test starts; like training, its events and the evaluator's calls are in its evaluation run. */
  'test.started': z.strictObject({ sessionId: str, crewId: str, iterations: num }),
  'test.iteration.started': z.strictObject({ sessionId: str, iteration: num, iterations: num, runId: str }),
  /** One task of one iteration scored (the evaluator's score, the checks' score, or why neither). */
  'test.evaluated': z.strictObject({ sessionId: str, iteration: num, taskId: str, status: str, score: num.optional(), checkScore: num.optional(), reason: str.optional() }),
  'test.completed': z.strictObject({ sessionId: str, runIds: z.array(str), tokenUsage: TokenUsageSchema }),
  'test.failed': z.strictObject({ sessionId: str, error: str }),
};
