import { describe, expect, it } from 'vitest';
import type { EventOf, RuntimeEvent } from '../../../shared/events';
import { foldRunEvents, reduceRunEvent } from '../../../renderer/stores/reduceRunEvent';
import { emptyRunView, type RunView, type TraceSpan } from '../../../renderer/stores/runView';
import { exampleDocument, recordedEvents } from './runFixtures';
import { syntheticRun } from './syntheticRun';

const fold = (events: RuntimeEvent[], document?: unknown): RunView => foldRunEvents(emptyRunView(events[0]!.runId, document), events);
const upTo = (events: RuntimeEvent[], seq: number) => events.filter((e) => e.seq <= seq);
const kinds = (view: RunView, span: TraceSpan) => span.children.map((id) => view.spans.get(id)!.kind);
const spansOf = (view: RunView, kind: string) => [...view.spans.values()].filter((s) => s.kind === kind);
const ofType = <K extends RuntimeEvent['type']>(events: RuntimeEvent[], type: K) => events.filter((e): e is EventOf<K> => e.type === type);

describe('reduceRunEvent over a sequential run with tool calls and a guardrail retry', () => {
  const events = recordedEvents('run-sequential-tools-guardrail');
  const view = fold(events, exampleDocument('research-brief'));

  it('ends completed with the run output, duration and token totals of the events', () => {
    const end = ofType(events, 'run.completed')[0];
    expect(view.status).toBe('completed');
    expect(view.output).toBe(end!.output);
    expect(view.durationMs).toBe(end!.durationMs);
    expect(view.tokenUsage).toEqual(end!.tokenUsage);
    const llmTotal = ofType(events, 'llm.completed').reduce((sum, e) => sum + e.usage.totalTokens, 0);
    expect(view.tokenUsage.totalTokens).toBe(llmTotal);
    expect(view.lastSeq).toBe(events.length);
    expect(view.eventCount).toBe(events.length);
  });

  it('builds the span tree run → task → agent → model and tool calls, with the retry under its task', () => {
    expect(view.rootIds).toEqual(['s1']);
    const run = view.spans.get('s1')!;
    expect(run.kind).toBe('run');
    expect(run.label).toBe('Research brief');
    expect(kinds(view, run)).toEqual(['task', 'task']);
    const [research, brief] = run.children.map((id) => view.spans.get(id)!);
    expect(research!.label).toBe('Gather the facts');
    expect(kinds(view, research!)).toEqual(['agent']);
    const researcher = view.spans.get(research!.children[0]!)!;
    expect(kinds(view, researcher)).toEqual(['llm', 'tool', 'llm', 'tool', 'llm', 'tool', 'llm']);
    expect(researcher.children.map((id) => view.spans.get(id)!).filter((s) => s.kind === 'tool').map((s) => s.label)).toEqual(['read_file', 'calculator', 'calculator']);
    expect(kinds(view, brief!)).toEqual(['agent', 'guardrail', 'retry', 'agent', 'guardrail', 'guardrail']);
    const guardrails = brief!.children.map((id) => view.spans.get(id)!).filter((s) => s.kind === 'guardrail');
    expect(guardrails.map((g) => g.status)).toEqual(['failed', 'done', 'done']);
    const retry = view.spans.get(brief!.children[2]!)!;
    expect(retry.sublabel).toBe('output must contain "SHIP IT"');
    expect(retry.label).toBe('retry 1/3');
    expect(Object.keys(view.book.open)).toEqual([]);
    expect([...view.spans.values()].every((s) => s.status === 'done' || s.status === 'failed')).toBe(true);
  });

  it('gives every span its depth, parent, duration and inclusive tokens', () => {
    for (const span of view.spans.values()) {
      if (span.parentId) expect(span.depth).toBe(view.spans.get(span.parentId)!.depth + 1);
      expect(span.end).toBeGreaterThanOrEqual(span.start);
    }
    for (const done of ofType(events, 'task.completed')) {
      const span = view.spans.get(done.spanId)!;
      expect(span.tokens).toBe(done.tokenUsage.totalTokens);
      expect(span.durationMs).toBe(done.durationMs);
    }
    for (const done of ofType(events, 'llm.completed')) {
      expect(view.spans.get(done.spanId)!.tokens).toBe(done.usage.totalTokens);
      expect(view.spans.get(done.spanId)!.durationMs).toBe(done.latencyMs);
    }
    expect(view.spans.get('s1')!.tokens).toBe(view.tokenUsage.totalTokens);
  });

  it('marks tasks and agents done and counts tool calls and retries per node', () => {
    expect(view.nodeStatus).toEqual({ 'task:research': 'done', 'task:brief': 'done', 'agent:researcher': 'done', 'agent:writer': 'done' });
    expect(view.nodeCounters['task:research']).toEqual({ toolCalls: 3, retries: 0 });
    expect(view.nodeCounters['agent:researcher']).toEqual({ toolCalls: 3, retries: 0 });
    expect(view.nodeCounters['task:brief']).toEqual({ toolCalls: 0, retries: 1 });
    expect(view.nodeCounters['agent:writer']).toEqual({ toolCalls: 0, retries: 1 });
    expect(view.activeDelegations).toEqual([]);
  });

  it('shows nodes running while their spans are open', () => {
    const mid = fold(upTo(events, 6), exampleDocument('research-brief'));
    expect(mid.status).toBe('running');
    expect(mid.nodeStatus).toEqual({ 'task:research': 'running', 'agent:researcher': 'running' });
    expect(mid.nodeCounters['agent:researcher']!.toolCalls).toBe(1);
    expect(mid.spans.get('s5')!.status).toBe('running');
    const between = fold(upTo(events, 19), exampleDocument('research-brief'));
    expect(between.nodeStatus['task:research']).toBe('done');
    expect(between.nodeStatus['task:brief']).toBeUndefined();
  });

  it('records task outputs in order', () => {
    expect(view.stepIds).toEqual(['research', 'brief']);
    const completed = ofType(events, 'task.completed');
    expect(view.tasks.research!.raw).toBe(completed[0]!.raw);
    expect(view.tasks.brief!.raw).toBe(completed[1]!.raw);
    expect(view.tasks.brief!.outputFile).toBe('out/brief.md');
    expect(view.tasks.brief!.restored).toBe(false);
  });
});

describe('reduceRunEvent over a hierarchical run with delegation', () => {
  const events = recordedEvents('run-hierarchical-delegation');
  const doc = exampleDocument('product-launch');
  const view = fold(events, doc);

  it('maps the built-in manager to the manager node and workers to their agent nodes', () => {
    expect(view.nodeStatus).toEqual({
      'task:pricing': 'done',
      'task:announcement': 'done',
      manager: 'done',
      'agent:analyst': 'done',
      'agent:copywriter': 'done',
    });
  });

  it('shows a delegation from the manager to the coworker while it is open, from the moment it starts', () => {
    const started = ofType(events, 'delegation.started')[0];
    const atStart = fold(upTo(events, started!.seq), doc);
    expect(atStart.activeDelegations).toEqual([{ from: 'manager', to: 'agent:analyst', spanId: started!.spanId }]);
    expect(atStart.nodeStatus.manager).toBe('running');
    const coworker = fold(upTo(events, started!.seq + 1), doc);
    expect(coworker.nodeStatus['agent:analyst']).toBe('running');
    expect(coworker.activeDelegations).toEqual([{ from: 'manager', to: 'agent:analyst', spanId: started!.spanId }]);
    const ended = ofType(events, 'delegation.completed')[0];
    expect(fold(upTo(events, ended!.seq), doc).activeDelegations).toEqual([]);
    expect(fold(upTo(events, ended!.seq), doc).nodeStatus['agent:analyst']).toBe('done');
    expect(view.activeDelegations).toEqual([]);
  });

  it('without the document, learns the coworker from its agent span', () => {
    const started = ofType(events, 'delegation.started')[0];
    expect(fold(upTo(events, started!.seq)).activeDelegations).toEqual([]);
    expect(fold(upTo(events, started!.seq + 1)).activeDelegations).toEqual([{ from: 'manager', to: 'agent:analyst', spanId: started!.spanId }]);
  });

  it('nests the coworker under delegation under the delegate_work tool call', () => {
    const delegations = spansOf(view, 'delegation');
    expect(delegations.map((d) => d.label)).toEqual(['Crew Manager → Market Analyst', 'Crew Manager → Copywriter']);
    const first = delegations[0];
    const tool = view.spans.get(first!.parentId!)!;
    expect(tool.kind).toBe('tool');
    expect(tool.label).toBe('delegate_work');
    expect(view.spans.get(tool.parentId!)!.agentNode).toBe('manager');
    const coworker = view.spans.get(first!.children[0]!)!;
    expect(coworker.kind).toBe('agent');
    expect(coworker.agentNode).toBe('agent:analyst');
    expect(kinds(view, coworker)).toEqual(['llm', 'tool', 'llm']);
  });

  it('counts delegation calls for the manager and the coworker’s own calls for the coworker', () => {
    expect(view.nodeCounters.manager).toEqual({ toolCalls: 2, retries: 0 });
    expect(view.nodeCounters['agent:analyst']).toEqual({ toolCalls: 1, retries: 0 });
    expect(view.nodeCounters['task:pricing']).toEqual({ toolCalls: 2, retries: 0 });
    expect(view.nodeCounters['agent:copywriter']).toBeUndefined();
  });

  it('sums tokens of the coworker into the task that delegated', () => {
    for (const done of ofType(events, 'task.completed')) expect(view.spans.get(done.spanId)!.tokens).toBe(done.tokenUsage.totalTokens);
    expect(view.tokenUsage.totalTokens).toBe(ofType(events, 'run.completed')[0]!.tokenUsage.totalTokens);
  });
});

describe('reduceRunEvent over a run that waits for people', () => {
  const events = recordedEvents('run-human-review-approval');
  const doc = exampleDocument('research-brief');

  it('marks the agent and task waiting while a tool approval is open', () => {
    const requested = ofType(events, 'human.requested');
    const approval = requested.find((r) => r.kind === 'tool_approval')!;
    const waiting = fold(upTo(events, approval.seq), doc);
    expect(waiting.nodeStatus).toEqual({ 'task:research': 'waiting', 'agent:researcher': 'waiting' });
    const span = waiting.spans.get(approval.spanId)!;
    expect(span.kind).toBe('human');
    expect(span.status).toBe('waiting');
    expect(span.label).toBe('approve read_file');
    expect(waiting.spans.get(span.parentId!)!.kind).toBe('tool');
    const answered = fold(upTo(events, approval.seq + 1), doc);
    expect(answered.nodeStatus).toEqual({ 'task:research': 'running', 'agent:researcher': 'running' });
    expect(answered.spans.get(approval.spanId)!.status).toBe('done');
  });

  it('marks the writer waiting during a task review', () => {
    const review = ofType(events, 'human.requested').find((r) => r.kind === 'task_review')!;
    const waiting = fold(upTo(events, review.seq), doc);
    expect(waiting.nodeStatus['agent:writer']).toBe('waiting');
    expect(waiting.nodeStatus['task:brief']).toBe('waiting');
    expect(waiting.nodeStatus['task:research']).toBe('done');
  });

  it('ends with every human span answered and every node done', () => {
    const view = fold(events, doc);
    const humans = spansOf(view, 'human');
    expect(humans).toHaveLength(4);
    expect(humans.every((h) => h.status === 'done' && h.events.length === 2)).toBe(true);
    expect(Object.values(view.nodeStatus).every((s) => s === 'done')).toBe(true);
    expect(view.book.human).toEqual({});
  });
});

describe('reduceRunEvent over a failed run', () => {
  const events = recordedEvents('run-failed-guardrail');
  const view = fold(events, exampleDocument('research-brief'));

  it('fails the run, the task, and keeps the error', () => {
    const failed = ofType(events, 'run.failed')[0];
    expect(view.status).toBe('failed');
    expect(view.error).toBe(failed!.error);
    expect(view.output).toBeUndefined();
    expect(view.tokenUsage).toEqual(failed!.tokenUsage);
    expect(view.nodeStatus['task:brief']).toBe('failed');
    expect(view.nodeStatus['task:research']).toBe('done');
    expect(view.nodeStatus['agent:writer']).toBe('done');
    expect(view.tasks.brief!.status).toBe('failed');
    expect(view.tasks.brief!.error).toContain('failed its guardrails');
    expect(view.nodeCounters['task:brief']!.retries).toBe(1);
    expect(spansOf(view, 'guardrail').map((g) => g.status)).toEqual(['failed', 'failed']);
    expect(view.spans.get('s1')!.status).toBe('failed');
  });

  it('closes spans left open when a run ends', () => {
    const cut = upTo(events, 21); // writer agent running
    const cancelled: RuntimeEvent = { type: 'run.cancelled', reason: 'stopped', durationMs: 5, runId: events[0]!.runId, seq: 22, ts: events[20]!.ts + 5, spanId: 's1' };
    const view = fold([...cut, cancelled]);
    expect(view.status).toBe('cancelled');
    expect(view.nodeStatus['agent:writer']).toBe('failed');
    expect(view.nodeStatus['task:brief']).toBe('failed');
    expect(Object.keys(view.book.open)).toEqual([]);
    expect(view.spans.get('s12')!.status).toBe('cancelled');
  });
});

describe('reduceRunEvent over a replay', () => {
  const events = recordedEvents('run-replay-from-brief');
  const view = fold(events, exampleDocument('research-brief'));

  it('shows the restored task as a done span of one event and links the original run', () => {
    expect(view.replayOf).toEqual({ runId: recordedEvents('run-sequential-tools-guardrail')[0]!.runId, fromTaskId: 'brief' });
    const restored = view.spans.get(events[1]!.spanId)!;
    expect(restored.kind).toBe('task');
    expect(restored.status).toBe('done');
    expect(restored.events).toHaveLength(1);
    expect(restored.sublabel).toContain('restored');
    expect(restored.label).toBe('Gather the facts');
    expect(view.tasks.research!.name).toBe('Gather the facts');
    expect(view.tasks.research!.restored).toBe(true);
    expect(view.tasks.brief!.restored).toBe(false);
    expect(view.nodeStatus['task:research']).toBe('done');
    expect(view.nodeStatus['agent:researcher']).toBeUndefined();
  });
});

describe('folding', () => {
  const events = recordedEvents('run-hierarchical-delegation');
  const doc = exampleDocument('product-launch');

  it('gives the same view one event at a time as in one batch', () => {
    let stepwise = emptyRunView(events[0]!.runId, doc);
    for (const e of events) stepwise = reduceRunEvent(stepwise, e);
    const batch = fold(events, doc);
    expect({ ...stepwise, version: 0 }).toEqual({ ...batch, version: 0 });
  });

  it('leaves the previous view as it was', () => {
    const before = fold(upTo(events, 10), doc);
    const snapshot = JSON.stringify({ ...before, spans: [...before.spans.entries()] });
    const after = foldRunEvents(before, events.slice(10));
    expect(JSON.stringify({ ...before, spans: [...before.spans.entries()] })).toBe(snapshot);
    expect(after.spans.get('s3')!.children.length).toBeGreaterThan(before.spans.get('s3')!.children.length);
    expect(before.spans.get('s1')!.status).toBe('running');
    expect(after.spans.get('s1')!.status).toBe('done');
  });

  it('ignores events it has already folded', () => {
    const view = fold(events, doc);
    expect(foldRunEvents(view, events.slice(5, 20))).toBe(view);
    expect(foldRunEvents(view, events).eventCount).toBe(events.length);
  });

  it('folds a 10,000-event run into one tree', () => {
    const big = syntheticRun('run_big', 50, 49);
    expect(big.length).toBeGreaterThanOrEqual(10_000);
    const view = fold(big);
    expect(view.spans.size).toBe(1 + 50 * 2 + 50 * 49 * 2);
    expect(view.nodeCounters['agent:worker']!.toolCalls).toBe(50 * 49);
    expect(view.spans.get('s1')!.tokens).toBe(50 * 49 * 100);
    expect(view.status).toBe('completed');
  });
});

describe('reduceRunEvent over a run cancelled while it waited for an approval', () => {
  const events = recordedEvents('run-cancelled-waiting-approval');
  const doc = exampleDocument('research-brief');

  it('stops waiting when the tool call that asked ends, before the run does', () => {
    const toolFailed = ofType(events, 'tool.failed')[0];
    const requested = ofType(events, 'human.requested')[0];
    expect(fold(upTo(events, requested!.seq), doc).nodeStatus['agent:researcher']).toBe('waiting');
    const after = fold(upTo(events, toolFailed!.seq), doc);
    expect(after.spans.get(requested!.spanId)!.status).toBe('cancelled');
    expect(after.nodeStatus['agent:researcher']).toBe('running');
    expect(after.book.human).toEqual({});
    const agentFailed = fold(upTo(events, toolFailed!.seq + 1), doc);
    expect(agentFailed.nodeStatus['agent:researcher']).toBe('failed');
  });

  it('ends cancelled with the reason and nothing left open', () => {
    const view = fold(events, doc);
    expect(view.status).toBe('cancelled');
    expect(view.error).toBe('cancelled from the app');
    expect(view.nodeStatus).toEqual({ 'task:research': 'failed', 'agent:researcher': 'failed' });
    expect(Object.keys(view.book.open)).toEqual([]);
    expect(view.spans.get('s5')!.status).toBe('failed');
  });
});
