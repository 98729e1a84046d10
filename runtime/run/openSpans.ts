import type { EventInput, EventOf, RuntimeEvent } from '../../shared/events';
import { Span, type RunEventLog } from '../events/span';

/** The start events a killed process can leave without their end (the run's own root span aside). */
export type OpenSpanStart = EventOf<
  'task.started' | 'agent.started' | 'llm.started' | 'tool.started' | 'delegation.started' | 'guardrail.started' | 'planning.started' | 'memory.write.staged' | 'flow.method.started' | 'flow.item.started'
>;

const CLOSABLE = new Set<string>(['task.started', 'agent.started', 'llm.started', 'tool.started', 'delegation.started', 'guardrail.started', 'planning.started', 'memory.write.staged', 'flow.method.started', 'flow.item.started']);

/** Whether `e` ends the span it is on (a failed call that is retried does not). */
function endsSpan(e: RuntimeEvent): boolean {
  if (e.type === 'llm.failed') return !e.willRetry;
  if (e.type === 'run.paused') return false;
  return /\.(completed|failed|cancelled|blocked|cached|passed|answered|committed|discarded|paused)$/.test(e.type);
}

/**
 * The spans a run's stored events opened and never closed (the process died in them), in the order
 * they started. The run's root span and a question put to a person (`human.requested`) are not among
 * them: the first ends with the run, the second has no end but its answer.
 */
export function openSpans(events: readonly RuntimeEvent[]): OpenSpanStart[] {
  const open = new Map<string, OpenSpanStart>();
  for (const e of events) {
    if (CLOSABLE.has(e.type)) open.set(e.spanId, e as OpenSpanStart);
    else if (endsSpan(e)) open.delete(e.spanId);
  }
  return [...open.values()];
}

/**
 * Ends the spans a dead process left open, innermost first, each with its own kind's failure event
 * (`errorName: "Interrupted"` where the event has one) and `why` as the error: the trace is whole again
 * before the run goes on (resume) or ends (cancel).
 */
export function closeOpenSpans(log: RunEventLog, open: readonly OpenSpanStart[], stoppedAt: number, why: string): void {
  for (const start of [...open].reverse()) {
    const durationMs = Math.max(0, stoppedAt - start.ts);
    new Span(log, start.spanId, start.parentSpanId).emit(failureOf(start, why, durationMs));
  }
}

function failureOf(start: OpenSpanStart, error: string, durationMs: number): EventInput {
  const errorName = 'Interrupted';
  switch (start.type) {
    case 'task.started':
      return { type: 'task.failed', taskId: start.taskId, agentRole: start.agentRole, error, errorName, durationMs };
    case 'agent.started':
      return { type: 'agent.failed', role: start.role, error, errorName, durationMs };
    case 'llm.started':
      return { type: 'llm.failed', model: start.model, error, willRetry: false, attempt: 1 };
    case 'tool.started':
      return { type: 'tool.failed', tool: start.tool, error, durationMs };
    case 'delegation.started':
      return { type: 'delegation.failed', kind: start.kind, manager: start.manager, requestedCoworker: start.requestedCoworker, error, validRoles: [] };
    case 'guardrail.started':
      return { type: 'guardrail.failed', taskId: start.taskId, index: start.index, guardrailType: start.guardrailType, attempt: start.attempt, reason: error };
    case 'planning.started':
      return { type: 'planning.failed', error };
    case 'memory.write.staged':
      return { type: 'memory.write.discarded', taskId: start.taskId, attempt: start.attempt, reason: error, dropped: start.saved.length + (start.extract ? 1 : 0) };
    case 'flow.method.started':
      return { type: 'flow.method.failed', methodId: start.methodId, methodName: start.methodName, error, errorName, durationMs };
    case 'flow.item.started':
      return { type: 'flow.item.failed', methodId: start.methodId, methodName: start.methodName, index: start.index, total: start.total, error, durationMs };
  }
}
