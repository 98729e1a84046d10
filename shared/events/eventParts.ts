import { z } from 'zod';

/** The parts several event families share (the catalog's building blocks). */

export const str = z.string();
export const num = z.number();

/**
 * How a lenient reading of a model's reply changed what the model literally wrote, so a user can see why
 * an answer, a JSON value, a route or a tool call is not exactly the reply text (README "Local models").
 */
export const ReadAsSchema = z.enum([
  /** The text after the last of several "Final Answer:" markers. */
  'last-final-answer',
  /** An unmatched code fence after the final answer was dropped. */
  'fenced-final-answer',
  /** JSON read from inside a code fence. */
  'fenced-json',
  /** JSON read from among prose or markdown emphasis around it. */
  'json-in-prose',
  /** Malformed JSON repaired (jsonrepair). */
  'repaired-json',
  /** Tool arguments written as a JSON string holding the object (`"{\"a\": 1}"`), read as the object. */
  'json-in-string',
  /** An outcome name written with other case, quotes or punctuation ("Approved."). */
  'outcome-name',
  /** An outcome from an "Outcome: X" line. */
  'outcome-line',
  /** The only declared outcome word in a free-text reply. */
  'outcome-word',
  /** A tool call the model wrote as JSON text instead of a native tool call. */
  'text-tool-call',
  /** A tool name written with `**`, backticks, quotes or other case. */
  'tool-name-cleaned',
  /** CrewAI's name of a delegation tool ("Delegate work to coworker"). */
  'crewai-tool-name',
  /** JSON written by a conversion call from a prose reply (`llm.started` purpose `conversion`). */
  'converted-json',
]);
export type ReadAs = z.infer<typeof ReadAsSchema>;
export const readAs = z.array(ReadAsSchema);

export const ToolCallRecordSchema = z.strictObject({
  id: str,
  name: str,
  /** Arguments as the model sent them (raw JSON text). */
  arguments: str,
});
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

export const ChatMessageRecordSchema = z.strictObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: str,
  toolCalls: z.array(ToolCallRecordSchema).optional(),
  toolCallId: str.optional(),
});
export type ChatMessageRecord = z.infer<typeof ChatMessageRecordSchema>;

export const HumanRequestKindSchema = z.enum(['task_review', 'tool_approval', 'flow_feedback']);
export type HumanRequestKind = z.infer<typeof HumanRequestKindSchema>;
export const ToolApprovalDecisionSchema = z.enum(['approve', 'deny', 'always']);
export type ToolApprovalDecision = z.infer<typeof ToolApprovalDecisionSchema>;
