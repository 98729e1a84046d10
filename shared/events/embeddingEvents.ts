import { z } from 'zod';
import { TokenUsageSchema } from '../usage';
import { num, str } from './eventParts';

/** The `embedding.*` events: their payloads (the envelope is added by the emitter). */
export const EMBEDDING_EVENTS = {
  /**
   * One request to an OpenAI-compatible embedder (knowledge ingest and search, memory recall and writes,
   * the search tools): a one-event span under the span it was made for (a task's, a flow method's, the
   * run's). Metered like a model call: `usage` (tokens, cost) is in the run's totals and counts against its budget.
   * `tokensEstimated`: the server reported no usage, so the tokens are estimated from the texts' length.
   */
  'embedding.completed': z.strictObject({
    model: str,
    texts: num,
    usage: TokenUsageSchema,
    durationMs: num,
    taskId: str.optional(),
    agentRole: str.optional(),
    methodId: str.optional(),
    tokensEstimated: z.boolean().optional(),
  }),
};
