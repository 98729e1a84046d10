import type { ToolApprovalDecision } from '../../shared/events';
import type { HumanChannel, TaskReviewRequest, ToolApprovalRequest } from '../../runtime/human/humanChannel';

/** Answers from a list, and remembers what it was asked. Running out of answers fails the test loudly. */
export class ScriptedHuman implements HumanChannel {
  readonly reviews: TaskReviewRequest[] = [];
  readonly approvals: ToolApprovalRequest[] = [];

  constructor(
    private readonly feedback: string[] = [],
    private readonly decisions: ToolApprovalDecision[] = [],
  ) {}

  async reviewTask(request: TaskReviewRequest): Promise<string> {
    this.reviews.push(request);
    const next = this.feedback.shift();
    if (next === undefined) throw new Error(`ScriptedHuman has no feedback left for task ${request.taskId}`);
    return next;
  }

  async approveTool(request: ToolApprovalRequest): Promise<ToolApprovalDecision> {
    this.approvals.push(request);
    const next = this.decisions.shift();
    if (next === undefined) throw new Error(`ScriptedHuman has no decision left for tool ${request.tool}`);
    return next;
  }
}
