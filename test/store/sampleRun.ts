import { RunEventLog } from '../../runtime/events/span';
import type { RuntimeEvent } from '../../shared/events';
import type { NewRun } from '../../runtime/store/types';

/** Shared by the store tests and the child process they kill: same inputs, same events. */
export const T0 = 1_700_000_000_000;

export function sampleRun(id: string, startedAt = T0): NewRun {
  return {
    id,
    kind: 'crew',
    documentId: 'research-crew',
    name: 'Research crew',
    document: { kind: 'crew', version: 1, id: 'research-crew', agents: [{ id: 'a1', role: 'Researcher' }], tasks: [] },
    documentPath: 'crews/research.crew.json',
    inputs: { topic: 'tide pools' },
    startedAt,
  };
}

/** A log with a deterministic clock (one millisecond per event). */
export function sampleLog(runId: string): RunEventLog {
  let tick = 0;
  return new RunEventLog(runId, () => T0 + ++tick);
}

const usage = { promptTokens: 12, completionTokens: 7, cachedPromptTokens: 2, totalTokens: 19, requests: 1 };

/** Emits a realistic run: nested spans, optional fields present and absent, nested JSON, unicode. */
export function emitSampleRun(log: RunEventLog, tasks: number, { finish = true } = {}): RuntimeEvent[] {
  const emitted: RuntimeEvent[] = [];
  const stop = log.listen((e) => emitted.push(e));
  const run = log.root();
  run.emit({
    type: 'run.started',
    documentId: 'research-crew',
    documentName: 'Research crew',
    process: 'sequential',
    inputs: { topic: 'tide pools' },
    stepIds: Array.from({ length: tasks }, (_, i) => `t${i + 1}`),
  });
  for (let i = 0; i < tasks; i++) {
    const taskId = `t${i + 1}`;
    const task = run.child();
    task.emit({
      type: 'task.started',
      taskId,
      index: i,
      agentRole: 'Researcher',
      description: `Find facts about tide pools (part ${i + 1}) — «naïve» 🦀`,
      expectedOutput: 'A list',
      async: false,
      context: '',
    });
    const agent = task.child();
    const llm = agent.child();
    llm.emit({
      type: 'llm.started',
      model: 'scripted',
      provider: 'scripted',
      purpose: 'agent',
      agentRole: 'Researcher',
      messages: [
        { role: 'system', content: 'You are a researcher.' },
        { role: 'user', content: 'Go.\nLine two "quoted"' },
      ],
      tools: [{ name: 'search', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } } } }],
    });
    llm.emit({
      type: 'llm.completed',
      model: 'scripted',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'search', arguments: '{"q":"tide"}' }],
      finishReason: 'tool_calls',
      usage,
      latencyMs: 3,
    });
    const tool = agent.child();
    tool.emit({ type: 'tool.started', tool: 'search', args: { q: 'tide', limit: 3, nested: [null, true, 1.5] }, agentRole: 'Researcher', callId: 'call_1' });
    tool.emit({ type: 'tool.completed', tool: 'search', result: 'anemones, crabs', durationMs: 1, resultAsAnswer: false });
    task.emit({
      type: 'task.completed',
      taskId,
      agentRole: 'Researcher',
      raw: '{"facts":["anemones"]}',
      json: { facts: ['anemones'], count: 1, none: null },
      tokenUsage: usage,
      durationMs: 5,
    });
  }
  if (finish) run.emit({ type: 'run.completed', output: 'done', tokenUsage: usage, durationMs: 10 });
  stop();
  return emitted;
}
