import { z } from 'zod';
import type { CrewDocument } from '../../shared/model/crew';
import { callModel } from '../agent/modelCall';
import type { RunContext } from '../agent/runContext';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import { readJsonShaped } from '../reading/jsonValue';
import { errorMessage } from '../errors';

const PlanReply = z.object({ plans: z.array(z.unknown()) });

/**
 * Before kickoff, a planner model writes a step plan for every task; each plan is appended to its
 * task's description. A reply that cannot be read leaves the tasks unchanged (and says so in the trace).
 */
export async function planTasks(ctx: RunContext, parent: Span, doc: CrewDocument, planner: ChatModel): Promise<CrewDocument> {
  const span = parent.child();
  span.emit({ type: 'planning.started', model: `${planner.provider}:${planner.model}` });
  const agents = new Map(doc.agents.map((a) => [a.id, a]));
  const taskList = doc.tasks
    .map((t, i) => {
      const agent = t.agentId ? agents.get(t.agentId) : undefined;
      return `Task ${i + 1} (id "${t.id}")\nDescription: ${t.description}\nExpected output: ${t.expectedOutput}${agent ? `\nAgent: ${agent.role} — goal: ${agent.goal}` : ''}`;
    })
    .join('\n\n');
  const ask = callModel(ctx, span, planner, { purpose: 'planning' }, {
    messages: [
      { role: 'system', content: 'You are a planning expert. You write concise step-by-step plans for the tasks of an AI agent crew.' },
      {
        role: 'user',
        content: `Write a step-by-step plan for each of these tasks.\n\n${taskList}\n\nReply with JSON only: {"plans": [{"taskId": "<id>", "plan": "<steps>"}]}`,
      },
    ],
    responseFormat: { type: 'json_object' },
  });
  let response: Awaited<typeof ask>;
  try {
    response = await ask;
  } catch (error) {
    span.emit({ type: 'planning.failed', error: errorMessage(error) });
    throw error;
  }
  const parsed = readJsonShaped(response.content, PlanReply);
  const plans: Record<string, string> = {};
  if (parsed.ok) {
    for (const item of parsed.value.plans) {
      const { taskId, plan } = (item ?? {}) as { taskId?: unknown; plan?: unknown };
      if (typeof taskId === 'string' && typeof plan === 'string' && plan.trim()) plans[taskId] = plan.trim();
    }
  }
  span.emit({ type: 'planning.completed', plans, ...(parsed.ok && parsed.readAs.length ? { readAs: parsed.readAs } : {}) });
  return {
    ...doc,
    tasks: doc.tasks.map((t) => (plans[t.id] ? { ...t, description: `${t.description}\n\nPlan:\n${plans[t.id]}` } : t)),
  };
}
