import type { ChatMessageRecord, ToolApprovalDecision, ToolCallRecord } from '../../shared/events';

/** The shapes of a paused question's answer (humanPause.ts), shared by the human channel and the agent. */

/** Where the agent that asked stood: its conversation, and what it was about to do. */
export interface PausedConversation {
  messages: ChatMessageRecord[];
  mode: 'native' | 'react' | 'none';
  /** Model turns it had taken (its `maxIter` goes on counting from here). */
  steps: number;
  /** What it did next: the review of `answer`, the tool calls left of a reply (the first waits for approval), or a ReAct step's call. */
  next:
    | { kind: 'review'; answer: string }
    | { kind: 'calls'; calls: ToolCallRecord[]; answer?: string }
    | { kind: 'react'; tool: string; input: Record<string, unknown>; text: string };
}

/** A person's answer to a paused request: feedback on a review ('' accepts), or a decision on a tool call. */
export type HumanAnswer = { feedback: string } | { decision: ToolApprovalDecision };

/** Where a paused agent stood, and the person's answer to what it asked. */
export interface ResumedAgent {
  conversation: PausedConversation;
  answer: HumanAnswer;
}
