import { z } from 'zod';
import { num, str } from './eventParts';

/** The `knowledge.*` events: their payloads (the envelope is added by the emitter). */
export const KNOWLEDGE_EVENTS = {
  /** Knowledge chunks retrieved for a task and added to its prompt (on the task's span). */
  'knowledge.retrieved': z.strictObject({
    taskId: str,
    agentRole: str,
    query: str,
    chunks: z.array(z.strictObject({ id: str, source: str, score: num, content: str })),
  }),
};
