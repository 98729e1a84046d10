import type { RuntimeEvent } from '../../shared/events';

/** One reviewed agent answer, as the events of a training run tell it. */
export interface CapturedReview {
  runId: string;
  taskId: string;
  role: string;
  initialOutput: string;
  /** Every non-empty feedback the reviewer gave, in order, joined by blank lines. */
  feedback: string;
  improvedOutput: string;
}

interface OpenExecution {
  taskId: string;
  role: string;
  initialOutput?: string;
  feedback: string[];
}

/**
 * Follows a run's events and turns each agent execution that a human reviewed into a record: the first
 * answer shown for review, the feedback given, and the answer the agent finished with
 * (`agent.completed`). Executions whose answer was accepted without feedback give no record.
 */
export class RecordCapture {
  private readonly executions = new Map<string, OpenExecution>();
  /** human.requested span → agent span. */
  private readonly reviews = new Map<string, string>();

  constructor(private readonly onRecord: (review: CapturedReview) => void) {}

  readonly handle = (event: RuntimeEvent): void => {
    switch (event.type) {
      case 'agent.started':
        this.executions.set(event.spanId, { taskId: event.taskId, role: event.role, feedback: [] });
        return;
      case 'human.requested': {
        if (event.kind !== 'task_review' || event.parentSpanId === undefined) return;
        const execution = this.executions.get(event.parentSpanId);
        if (!execution) return;
        this.reviews.set(event.spanId, event.parentSpanId);
        execution.initialOutput ??= event.output ?? '';
        return;
      }
      case 'human.answered': {
        const agentSpan = this.reviews.get(event.spanId);
        if (event.kind !== 'task_review' || agentSpan === undefined) return;
        this.reviews.delete(event.spanId);
        const feedback = event.feedback?.trim() ?? '';
        if (feedback) this.executions.get(agentSpan)?.feedback.push(feedback);
        return;
      }
      case 'agent.completed': {
        const execution = this.executions.get(event.spanId);
        this.executions.delete(event.spanId);
        if (!execution || execution.initialOutput === undefined || execution.feedback.length === 0) return;
        this.onRecord({
          runId: event.runId,
          taskId: execution.taskId,
          role: execution.role,
          initialOutput: execution.initialOutput,
          feedback: execution.feedback.join('\n\n'),
          improvedOutput: event.output,
        });
        return;
      }
      case 'agent.failed':
      case 'agent.paused':
        this.executions.delete(event.spanId);
        return;
      default:
        return;
    }
  };
}
