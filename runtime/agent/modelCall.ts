import type { LlmPurpose } from '../../shared/events';
import { errorMessage } from '../errors';
import type { Span } from '../events/span';
import type { ChatModel, ChatRequest, ChatResponse } from '../llm/chatModel';
import { pricedUsage } from '../llm/pricedUsage';
import type { RunContext } from './runContext';

export interface ModelCallScope {
  purpose: LlmPurpose;
  taskId?: string;
  agentRole?: string;
  /** A flow method's call outside any task (llm bodies, feedback). */
  methodId?: string;
}

/**
 * One traced model call: `llm.started`, streamed `llm.chunk`s, `llm.failed` for each retried
 * failure, then `llm.completed` (or a final `llm.failed`). Usage goes to the run's meter.
 */
export async function callModel(
  ctx: RunContext,
  parent: Span,
  model: ChatModel,
  scope: ModelCallScope,
  request: Omit<ChatRequest, 'onChunk' | 'onRetry' | 'signal'> & { signal?: AbortSignal },
): Promise<ChatResponse> {
  // The run pauses before a call its budget has no room for (the call is not made).
  ctx.budget?.check(parent, { taskId: scope.taskId, methodId: scope.methodId, agentRole: scope.agentRole });
  const span = parent.child();
  const name = `${model.provider}:${model.model}`;
  span.emit({
    type: 'llm.started',
    model: name,
    provider: model.provider,
    purpose: scope.purpose,
    agentRole: scope.agentRole,
    messages: request.messages,
    tools: request.tools ?? [],
  });
  const started = performance.now();
  let attempt = 1;
  try {
    const response = await model.chat({
      ...request,
      site: { purpose: scope.purpose, taskId: scope.taskId, agentRole: scope.agentRole, methodId: scope.methodId },
      signal: request.signal ?? ctx.signal,
      onChunk: (delta) => span.emit({ type: 'llm.chunk', delta }),
      onRetry: (notice) => {
        span.emit({ type: 'llm.failed', model: name, error: notice.error, status: notice.status, willRetry: true, attempt: notice.attempt });
        attempt = notice.attempt + 1;
      },
    });
    const usage = pricedUsage(response.usage, model);
    ctx.meter.add(usage, scope.taskId, scope.agentRole);
    span.emit({
      type: 'llm.completed',
      model: name,
      content: response.content,
      toolCalls: response.toolCalls,
      finishReason: response.finishReason,
      usage,
      latencyMs: Math.round(performance.now() - started),
    });
    return { ...response, usage };
  } catch (error) {
    const status = (error as { status?: number }).status;
    span.emit({ type: 'llm.failed', model: name, error: errorMessage(error), status, willRetry: false, attempt });
    throw error;
  }
}
