import { z } from 'zod';
import { num, readAs, str } from './eventParts';

/** When a task's memories reach the store: after its guardrails accept the output (default), or at once (CrewAI). */
export const MemoryCommitPolicySchema = z.enum(['after-guardrail', 'immediate']);
export type MemoryCommitPolicy = z.infer<typeof MemoryCommitPolicySchema>;
/** What consolidation did with one new memory or one similar existing record. */
export const MemoryWriteActionSchema = z.enum(['insert', 'update', 'delete', 'keep']);
export type MemoryWriteAction = z.infer<typeof MemoryWriteActionSchema>;

/** The `memory.*` events: their payloads (the envelope is added by the emitter). */
export const MEMORY_EVENTS = {
  /** Memories recalled for a task and added to its prompt (on the task's span). */
  'memory.recall': z.strictObject({
    taskId: str,
    agentRole: str,
    query: str,
    scope: str,
    records: z.array(z.strictObject({ id: str, score: num, content: str, reasons: z.array(str) })),
  }),
  /**
   * Opens a memory-write span for one attempt of a task: its output (to be extracted into memories)
   * and what `save_memory` saved during the attempt wait here until the policy lets them through.
   */
  'memory.write.staged': z.strictObject({ taskId: str, agentRole: str, attempt: num, policy: MemoryCommitPolicySchema, scope: str, saved: z.array(str), extract: z.boolean() }),
  /** A new memory was not written because an equal one exists (cosine ≥ 0.98). */
  'memory.write.skipped': z.strictObject({ taskId: str, content: str, reason: str, duplicateOf: str, similarity: num }),
  /** One consolidation decision, with its reason: for a new memory (insert/keep) or an existing record (update/delete/keep). */
  'memory.write.decision': z.strictObject({
    taskId: str,
    action: MemoryWriteActionSchema,
    content: str,
    recordId: str.optional(),
    similar: z.array(z.strictObject({ id: str, similarity: num })),
    reason: str,
    decidedBy: z.enum(['rule', 'model', 'fallback']),
    readAs: readAs.optional(),
  }),
  'memory.write.committed': z.strictObject({ taskId: str, attempt: num, inserted: num, updated: num, deleted: num, skipped: num, recordIds: z.array(str), readAs: readAs.optional() }),
  /** The attempt's output was rejected: nothing staged for it reaches the store. */
  'memory.write.discarded': z.strictObject({ taskId: str, attempt: num, reason: str, dropped: num }),
  /** Writing failed; the task itself goes on. */
  'memory.write.failed': z.strictObject({ taskId: str, attempt: num, error: str }),
};
