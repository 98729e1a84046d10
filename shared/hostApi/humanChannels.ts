import { z } from 'zod';
import { empty, RequestId, RunId, type ChannelSchemas } from './requestFields';

export const PendingHumanRequestSchema = z.object({
  requestId: z.string(),
  runId: z.string(),
  kind: z.enum(['task_review', 'tool_approval', 'flow_feedback']),
  taskId: z.string().optional(),
  agentRole: z.string(),
  prompt: z.string(),
  output: z.string().optional(),
  tool: z.string().optional(),
  args: z.unknown().optional(),
  /** Flow feedback: the outcome labels and the one empty feedback picks. */
  outcomes: z.array(z.string()).optional(),
  defaultOutcome: z.string().optional(),
  requestedAt: z.number(),
});
export type PendingHumanRequest = z.infer<typeof PendingHumanRequestSchema>;

/** What runs wait on a person for: task reviews, tool approvals, flow feedback. */
export const HUMAN_CHANNELS = {
  'human.pending': { request: empty, response: z.object({ requests: z.array(PendingHumanRequestSchema) }) },
  /** Request ids are unique within a run; `human.requested` events carry the same ids. */
  'human.answer': {
    request: z.union([
      z.strictObject({ runId: RunId, requestId: RequestId, feedback: z.string().max(100_000) }),
      z.strictObject({ runId: RunId, requestId: RequestId, decision: z.enum(['approve', 'deny', 'always']) }),
    ]),
    response: empty,
  },
} as const satisfies ChannelSchemas;
