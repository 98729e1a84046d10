import { z } from 'zod';
import { HumanRequestKindSchema, str, ToolApprovalDecisionSchema } from './eventParts';

/** The `human.*` events: their payloads (the envelope is added by the emitter). */
export const HUMAN_EVENTS = {
  'human.requested': z.strictObject({
    requestId: str,
    kind: HumanRequestKindSchema,
    taskId: str.optional(),
    agentRole: str,
    prompt: str,
    output: str.optional(),
    tool: str.optional(),
    args: z.unknown().optional(),
    /** Flow feedback: the labels the feedback is classified into, and the one empty feedback picks. */
    outcomes: z.array(str).optional(),
    defaultOutcome: str.optional(),
    methodId: str.optional(),
  }),
  'human.answered': z.strictObject({ requestId: str, kind: HumanRequestKindSchema, feedback: str.optional(), decision: ToolApprovalDecisionSchema.optional(), outcome: str.optional() }),
};
