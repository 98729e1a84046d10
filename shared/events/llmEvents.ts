import { z } from 'zod';
import { TokenUsageSchema } from '../usage';
import { ChatMessageRecordSchema, num, str, ToolCallRecordSchema } from './eventParts';

export const LlmPurposeSchema = z.enum([
  'agent',
  'forced_answer',
  'summarise',
  'guardrail',
  'planning',
  'memory_extract',
  'memory_consolidate',
  /** A flow's `llm` method. */
  'flow_llm',
  /** Sorting a flow's human feedback into one of its outcomes. */
  'feedback_outcome',
  /** Revising an output with lessons from earlier feedback before asking again. */
  'feedback_lessons',
  /** A training or test evaluator (in the session's evaluation run). */
  'evaluation',
  /** Turning a JSON-output task's prose reply into JSON: given only the reply, the schema and the instruction. */
  'conversion',
]);
export type LlmPurpose = z.infer<typeof LlmPurposeSchema>;

/** The `llm.*` events: their payloads (the envelope is added by the emitter). */
export const LLM_EVENTS = {
  'llm.started': z.strictObject({
    model: str,
    provider: str,
    purpose: LlmPurposeSchema,
    agentRole: str.optional(),
    messages: z.array(ChatMessageRecordSchema),
    tools: z.array(z.strictObject({ name: str, description: str, parameters: z.unknown() })),
  }),
  /**
   * A streamed piece of the reply, for live listeners only (see `isLiveOnly`): it is not stored, since
   * `llm.completed` carries the whole text, and it takes no seq of its own.
   */
  'llm.chunk': z.strictObject({ delta: str }),
  'llm.completed': z.strictObject({ model: str, content: str, toolCalls: z.array(ToolCallRecordSchema), finishReason: str, usage: TokenUsageSchema, latencyMs: num }),
  'llm.failed': z.strictObject({ model: str, error: str, status: num.optional(), willRetry: z.boolean(), attempt: num }),
};
