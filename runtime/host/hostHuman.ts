import type { ToolApprovalDecision } from '../../shared/events';
import type { PendingHumanRequest } from '../../shared/host-api';
import { RunCancelled } from '../errors';
import type { HumanChannel } from '../human/humanChannel';

interface Waiting {
  request: PendingHumanRequest;
  settle(answer: { feedback?: string; decision?: ToolApprovalDecision }): void;
}

/**
 * Human requests of runs hosted for the app: each waits until the renderer answers it through
 * `human.answer` (or its run is cancelled). The `human.requested` event tells the renderer to ask.
 */
export class HostHuman {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly now: () => number = Date.now) {}

  pending(): PendingHumanRequest[] {
    return [...this.waiting.values()].map((w) => w.request).sort((a, b) => a.requestedAt - b.requestedAt);
  }

  /** Settles a waiting request; says why not when there is none (answered already, run ended) or the answer does not fit. */
  answer(runId: string, requestId: string, answer: { feedback?: string; decision?: ToolApprovalDecision }): 'answered' | 'not_waiting' | 'wrong_kind' {
    const waiting = this.waiting.get(key(runId, requestId));
    if (!waiting) return 'not_waiting';
    const fits = waiting.request.kind === 'task_review' ? answer.feedback !== undefined : answer.decision !== undefined;
    if (!fits) return 'wrong_kind';
    waiting.settle(answer);
    return 'answered';
  }

  /** The channel one run asks through. */
  forRun(runId: string): HumanChannel {
    return {
      reviewTask: async (request, signal) => {
        const answer = await this.wait(
          { requestId: request.requestId, runId, kind: 'task_review', taskId: request.taskId, agentRole: request.agentRole, prompt: request.prompt, output: request.output, requestedAt: this.now() },
          signal,
        );
        return answer.feedback ?? '';
      },
      approveTool: async (request, signal) => {
        const answer = await this.wait(
          {
            requestId: request.requestId,
            runId,
            kind: 'tool_approval',
            taskId: request.taskId,
            agentRole: request.agentRole,
            prompt: `${request.agentRole} wants to use ${request.tool}`,
            tool: request.tool,
            args: request.args,
            requestedAt: this.now(),
          },
          signal,
        );
        return answer.decision ?? 'deny';
      },
    };
  }

  private wait(request: PendingHumanRequest, signal: AbortSignal): Promise<{ feedback?: string; decision?: ToolApprovalDecision }> {
    const id = key(request.runId, request.requestId);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(id);
        reject(signal.reason instanceof Error ? signal.reason : new RunCancelled('cancelled while waiting for a person'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        request,
        settle: (answer) => {
          signal.removeEventListener('abort', onAbort);
          this.waiting.delete(id);
          resolve(answer);
        },
      });
    });
  }
}

const key = (runId: string, requestId: string) => `${runId}\u0000${requestId}`;
