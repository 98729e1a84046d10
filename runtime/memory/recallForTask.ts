import type { RunContext } from '../agent/runContext';
import type { Span } from '../events/span';

export const TASK_RECALL_LIMIT = 5;
/** A standalone agent (a flow's agent step) has no crew of tasks around it and recalls more. */
export const AGENT_RECALL_LIMIT = 20;
/** Below this similarity a memory is unrelated to the task and stays out of its prompt. */
export const TASK_RECALL_MIN_SEMANTIC = 0.15;

/**
 * Before a task: recall the crew's memories by the task description and return them as a prompt
 * block. The `memory.recall` event lists what was injected (ids and scores), so the trace shows which
 * memory reached which prompt. Agents with `memory: false` recall nothing.
 */
export async function recallForTask(
  ctx: RunContext,
  span: Span,
  task: { id: string; description: string },
  agent: { role: string; memory?: boolean },
): Promise<{ heading: string; body: string }[]> {
  if (!ctx.memory || agent.memory === false) return [];
  // What earlier (or concurrent async) tasks are still writing is part of what may be recalled.
  await ctx.memory.drain();
  const matches = await ctx.memory.store.recall({ query: task.description, scope: ctx.memory.scope, limit: ctx.memory.recallLimit, minSemantic: TASK_RECALL_MIN_SEMANTIC });
  span.emit({
    type: 'memory.recall',
    taskId: task.id,
    agentRole: agent.role,
    query: task.description,
    scope: ctx.memory.scope,
    records: matches.map((m) => ({ id: m.record.id, score: Number(m.score.toFixed(4)), content: m.record.content, reasons: m.reasons })),
  });
  if (matches.length === 0) return [];
  return [{ heading: 'Relevant memories from earlier work (use them if they help)', body: matches.map((m) => `- ${m.record.content}`).join('\n') }];
}
