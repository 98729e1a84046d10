import type { ToolApprovalDecision } from '../../shared/events';
import type { ResumedAgent } from './humanAnswer';

export interface TaskReviewRequest {
  requestId: string;
  taskId: string;
  agentRole: string;
  /** The task description, for the reviewer. */
  prompt: string;
  output: string;
}

export interface ToolApprovalRequest {
  requestId: string;
  agentRole: string;
  taskId?: string;
  tool: string;
  args: unknown;
}

/**
 * How the runtime asks a person. The CLI prompts at the terminal, tests answer from a script,
 * the app shows dialogs.
 */
export interface HumanChannel {
  /** Returns feedback; an empty string accepts the output. */
  reviewTask(request: TaskReviewRequest, signal: AbortSignal): Promise<string>;
  approveTool(request: ToolApprovalRequest, signal: AbortSignal): Promise<ToolApprovalDecision>;
  /**
   * A run resumed after it paused for a person (humanPause.ts): the conversation of the agent that asked
   * and the answer, once, for that agent to go on from where it stood.
   */
  resumeAgent?(taskId: string, agentRole: string): ResumedAgent | undefined;
}

export type { ResumedAgent } from './humanAnswer';

/** Used when nobody can be asked: reviews accept, approvals are denied. */
export const unattendedHuman: HumanChannel = {
  async reviewTask() {
    return '';
  },
  async approveTool() {
    return 'deny';
  },
};
