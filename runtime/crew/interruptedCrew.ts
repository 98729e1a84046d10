import type { RuntimeEvent } from '../../shared/events';
import { addUsage, emptyUsage, type TokenUsage } from '../../shared/usage';

/** A task a killed process left started and never ended: it is closed as interrupted and runs again. */
export interface InterruptedTask {
  spanId: string;
  parentSpanId?: string;
  taskId: string;
  agentRole: string;
  startedAt: number;
}

/** The tasks of a run that started and have no end event (the process died in them). */
export function interruptedTasks(events: readonly RuntimeEvent[]): InterruptedTask[] {
  const open = new Map<string, InterruptedTask>();
  for (const e of events) {
    if (e.type === 'task.started') open.set(e.spanId, { spanId: e.spanId, parentSpanId: e.parentSpanId, taskId: e.taskId, agentRole: e.agentRole, startedAt: e.ts });
    else if (e.type === 'task.completed' || e.type === 'task.failed' || e.type === 'task.paused') open.delete(e.spanId);
  }
  return [...open.values()];
}

/** What a run's model calls cost so far, from its stored events (a killed process wrote no total). */
export function usageOfEvents(events: readonly RuntimeEvent[]): TokenUsage {
  let usage = emptyUsage();
  for (const e of events) if (e.type === 'llm.completed') usage = addUsage(usage, e.usage);
  return usage;
}
