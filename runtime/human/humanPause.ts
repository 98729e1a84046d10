import type { ToolApprovalDecision } from '../../shared/events';
import type { HumanAnswer, PausedConversation, ResumedAgent } from './humanAnswer';
import type { HumanChannel, TaskReviewRequest, ToolApprovalRequest } from './humanChannel';

export type { HumanAnswer, PausedConversation } from './humanAnswer';

/**
 * A person's answer that does not come now: a run whose human is "later" (a team worker, `crewdeck run
 * --pause-for-humans`) pauses at a task review or a tool approval, like a flow at its feedback step or a
 * crew at its budget: the run ends `paused` with what it waits for in its checkpoint, holds no process,
 * and `resume` with the answer continues it — completed tasks are never run again, and the agent that
 * asked goes on from where it stood (its conversation is kept with the request).
 */

/** What a run paused for a person waits for (kept in its checkpoint). */
export type HumanPending = {
  requestId: string;
  taskId?: string;
  agentRole: string;
  prompt: string;
  /** The `human.requested` span (answered when the run resumes) and its parent. */
  spanId: string;
  parentSpanId?: string;
  /** Kept when the asking agent can go on where it stood (not a delegated coworker's question). */
  conversation?: PausedConversation;
} & ({ kind: 'task_review'; output: string } | { kind: 'tool_approval'; tool: string; args: unknown });

/** Thrown by a channel whose human answers later: the run pauses at this request. */
export class HumanInputPending extends Error {
  override name = 'HumanInputPending';
  constructor(readonly pending: HumanPending) {
    super(pending.kind === 'task_review' ? `waiting for a person to review the answer of ${pending.agentRole}` : `waiting for a person to approve ${pending.agentRole}'s call of the tool "${pending.tool}"`);
  }

  /** The same request, placed: its span, and the asking agent's conversation (when it can go on from it). */
  at(place: { spanId: string; parentSpanId?: string; conversation?: PausedConversation }): HumanInputPending {
    return new HumanInputPending({ ...this.pending, ...place });
  }
}

/** A paused request's answer is not one it takes (feedback for an approval, a decision for a review). */
export class HumanAnswerInvalid extends Error {
  override name = 'HumanAnswerInvalid';
}

/** The human of runs that must not wait in-process: every question pauses the run. */
export const pausingHuman: HumanChannel = {
  async reviewTask(request: TaskReviewRequest) {
    throw new HumanInputPending({ kind: 'task_review', requestId: request.requestId, taskId: request.taskId, agentRole: request.agentRole, prompt: request.prompt, output: request.output, spanId: '' });
  },
  async approveTool(request: ToolApprovalRequest) {
    throw new HumanInputPending({
      kind: 'tool_approval',
      requestId: request.requestId,
      ...(request.taskId !== undefined ? { taskId: request.taskId } : {}),
      agentRole: request.agentRole,
      prompt: `${request.agentRole} wants to use the tool "${request.tool}". Allow this call?`,
      tool: request.tool,
      args: request.args,
      spanId: '',
    });
  },
};

/**
 * The answer to `pending` from what a resume gives: a review takes feedback ('' or "approve" accepts the
 * answer), an approval a decision. Refused (HumanAnswerInvalid) when what is given does not fit.
 */
export function answerOf(pending: HumanPending, given: { feedback?: string; decision?: ToolApprovalDecision }, runId: string): HumanAnswer {
  if (pending.kind === 'task_review') {
    const feedback = given.feedback ?? (given.decision === 'approve' ? '' : undefined);
    return checkAnswer(pending, feedback !== undefined ? { feedback } : given.decision !== undefined ? { decision: given.decision } : undefined, runId);
  }
  return checkAnswer(pending, given.decision !== undefined ? { decision: given.decision } : given.feedback !== undefined ? { feedback: given.feedback } : undefined, runId);
}

/** Checks that `answer` fits `pending` (a review takes feedback, an approval a decision). */
export function checkAnswer(pending: HumanPending, answer: HumanAnswer | undefined, runId: string): HumanAnswer {
  const how = pending.kind === 'task_review' ? 'with feedback (an empty feedback accepts the answer)' : 'with a decision: approve, deny or always';
  if (!answer) throw new HumanAnswerInvalid(`run ${runId} waits for a person (${pending.prompt}); answer request ${pending.requestId} ${how}`);
  if (pending.kind === 'task_review' && !('feedback' in answer)) throw new HumanAnswerInvalid(`request ${pending.requestId} is a review of ${pending.agentRole}'s answer: answer it ${how}`);
  if (pending.kind === 'tool_approval' && !('decision' in answer)) throw new HumanAnswerInvalid(`request ${pending.requestId} asks to approve the tool "${pending.tool}": answer it ${how}`);
  return answer;
}

/**
 * The human of a run resumed with the answer to its paused request: the agent that asked goes on from its
 * conversation with the answer (once); a request asked again instead (a delegated coworker's, whose task
 * runs again) gets the answer when it is the same question; every other question goes to `inner`.
 */
export function resumingHuman(inner: HumanChannel, pending: HumanPending, answer: HumanAnswer): HumanChannel {
  let used = false;
  const take = <T>(value: T): T => {
    used = true;
    return value;
  };
  return {
    resumeAgent(taskId, agentRole): ResumedAgent | undefined {
      if (used || !pending.conversation || pending.taskId !== taskId || pending.agentRole !== agentRole) return undefined;
      return take({ conversation: pending.conversation, answer });
    },
    async reviewTask(request, signal) {
      const same = pending.kind === 'task_review' && request.taskId === pending.taskId && request.agentRole === pending.agentRole && request.output === pending.output;
      if (!used && same && 'feedback' in answer) return take(answer.feedback);
      return inner.reviewTask(request, signal);
    },
    async approveTool(request, signal) {
      const same = pending.kind === 'tool_approval' && request.tool === pending.tool && request.agentRole === pending.agentRole && stableJson(request.args) === stableJson(pending.args);
      if (!used && same && 'decision' in answer) return take(answer.decision);
      return inner.approveTool(request, signal);
    },
  };
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v));
}
