import type { EventInput, RuntimeEvent } from '../../../shared/events';

const usage = (total: number) => ({ promptTokens: total - 10, completionTokens: 10, cachedPromptTokens: 0, totalTokens: total, requests: 1 });

/**
 * A long sequential run made of real event shapes: `tasks` tasks, each an agent making `steps`
 * model calls with a tool call after each. Roughly tasks × (4 + steps × 4) events.
 */
export function syntheticRun(runId: string, tasks: number, steps: number): RuntimeEvent[] {
  const events: RuntimeEvent[] = [];
  let seq = 0;
  let span = 0;
  const ts = 1_700_000_000_000;
  const emit = (input: EventInput, spanId: string, parentSpanId?: string) => {
    seq += 1;
    events.push({ ...input, runId, seq, ts: ts + seq, spanId, ...(parentSpanId ? { parentSpanId } : {}) } as RuntimeEvent);
  };
  const root = `s${++span}`;
  const taskIds = Array.from({ length: tasks }, (_, i) => `t${i}`);
  emit({ type: 'run.started', documentId: 'big', documentName: 'Big run', process: 'sequential', inputs: {}, stepIds: taskIds }, root);
  let total = 0;
  taskIds.forEach((taskId, i) => {
    const task = `s${++span}`;
    emit({ type: 'task.started', taskId, index: i, agentRole: 'Worker', description: `Task ${i}`, expectedOutput: 'text', async: false, context: '' }, task, root);
    const agent = `s${++span}`;
    emit({ type: 'agent.started', agentId: 'worker', role: 'Worker', taskId, tools: ['calculator'], model: 'scripted:demo', mode: 'native' }, agent, task);
    let taskTokens = 0;
    for (let s = 0; s < steps; s++) {
      const llm = `s${++span}`;
      emit({ type: 'llm.started', model: 'scripted:demo', provider: 'scripted', purpose: 'agent', agentRole: 'Worker', messages: [{ role: 'user', content: `step ${s}` }], tools: [] }, llm, agent);
      emit({ type: 'llm.completed', model: 'scripted:demo', content: '', toolCalls: [{ id: `c${s}`, name: 'calculator', arguments: '{"expression":"1+1"}' }], finishReason: 'tool_calls', usage: usage(100), latencyMs: 1 }, llm, agent);
      taskTokens += 100;
      const tool = `s${++span}`;
      emit({ type: 'tool.started', tool: 'calculator', args: { expression: '1+1' }, agentRole: 'Worker', callId: `c${s}` }, tool, agent);
      emit({ type: 'tool.completed', tool: 'calculator', result: '2', durationMs: 1, resultAsAnswer: false }, tool, agent);
    }
    emit({ type: 'agent.completed', role: 'Worker', output: `done ${i}`, iterations: steps, tokenUsage: usage(taskTokens), durationMs: steps }, agent, task);
    emit({ type: 'task.completed', taskId, agentRole: 'Worker', raw: `done ${i}`, tokenUsage: usage(taskTokens), durationMs: steps }, task, root);
    total += taskTokens;
  });
  emit({ type: 'run.completed', output: `done ${tasks - 1}`, tokenUsage: usage(total), durationMs: seq }, root);
  return events;
}
