import { describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../shared/events';
import { flowEdgeRun, listenEdgeRun, listenerRun } from '../../../renderer/canvas/nodes/useMethodRun';
import { foldRunEvents } from '../../../renderer/stores/reduceRunEvent';
import { emptyRunView, type RunView } from '../../../renderer/stores/runView';
import { FlowEvents, loopFlow, reviewFlow } from './flowEvents';
import { recordedEvents } from './runFixtures';

const fold = (events: RuntimeEvent[]): RunView => foldRunEvents(emptyRunView(events[0]!.runId), events);

describe('reduceRunEvent over a flow paused for feedback', () => {
  const { events, paused, spans } = reviewFlow();
  const atPause = fold(events.slice(0, paused));

  it('is paused, not ended: the run, the feedback method and its request stay open', () => {
    expect(atPause.status).toBe('paused');
    expect(atPause.process).toBe('flow');
    expect(atPause.documentName).toBe('Review flow');
    expect(atPause.pausedFor).toEqual({ requestId: 'req_1', methodId: 'review' });
    expect(atPause.endedAt).toBeUndefined();
    expect(Object.keys(atPause.book.open).sort()).toEqual([spans.human, spans.review, spans.root].sort());
    expect(atPause.spans.get(spans.root)!.status).toBe('waiting');
    expect(atPause.spans.get(spans.human)!.label).toBe('feedback');
  });

  it('shows the finished method done and the one awaiting feedback waiting', () => {
    expect(atPause.nodeStatus).toEqual({ 'method:draft': 'done', 'method:review': 'waiting' });
    expect(atPause.methods.draft).toMatchObject({ status: 'done', calls: 1, output: 'A draft.', bodyType: 'llm' });
    expect(atPause.methods.review).toMatchObject({ status: 'running', calls: 1 });
    expect(atPause.flowState).toEqual({ topic: 'flows', draft: 'A draft.' });
  });

  it('nests method spans under the run, and the body’s events under the method', () => {
    const run = atPause.spans.get(spans.root)!;
    expect(run.children).toEqual([spans.draft, spans.review]);
    const draft = atPause.spans.get(spans.draft)!;
    expect(draft).toMatchObject({ kind: 'method', label: 'draft', sublabel: 'llm', status: 'done', tokens: 30 });
    expect(draft.children).toEqual([spans.llm]);
    expect(atPause.spans.get(spans.review)!.children).toEqual([spans.human]);
    expect(atPause.triggers.review).toEqual({ from: 'draft', route: undefined, to: 'review', call: 1 });
  });

  it('runs again after the resume, takes the chosen route and completes', () => {
    const view = fold(events);
    expect(view.status).toBe('completed');
    expect(view.pausedFor).toBeUndefined();
    expect(view.routes).toEqual({ review: 'approve' });
    expect(view.nodeStatus).toEqual({ 'method:draft': 'done', 'method:review': 'done', 'method:publish': 'done' });
    expect(view.nodeStatus['method:rewrite']).toBeUndefined();
    expect(view.triggers.publish).toEqual({ from: 'review', route: 'approve', to: 'publish', call: 1 });
    expect(view.spans.get(spans.review)!.sublabel).toBe('human_feedback → approve');
    expect(view.spans.get(spans.human)!.status).toBe('done');
    expect(view.spans.get(spans.root)!.status).toBe('done');
    // The feedback method's span lasts as long as the pause, not its own 10 ms of work.
    expect(view.spans.get(spans.review)!.durationMs).toBeGreaterThan(60_000);
    expect(view.methods.review!.durationMs).toBe(10);
    expect(view.flowState).toEqual({ topic: 'flows', draft: 'A draft.', verdict: 'approve', published: true });
    expect(Object.keys(view.book.open)).toEqual([]);
  });

  it('folds the same whether the resume arrives in a later batch', () => {
    const later = foldRunEvents(fold(events.slice(0, paused)), events.slice(paused));
    const whole = fold(events);
    expect(later.nodeStatus).toEqual(whole.nodeStatus);
    expect(later.methods).toEqual(whole.methods);
    expect(later.status).toBe('completed');
    // The paused view is left as it was.
    expect(atPause.status).toBe('paused');
    expect(atPause.methods.review!.status).toBe('running');
  });

  it('lights the edge of the taken route and not the other', () => {
    const resumed = fold(events.slice(0, paused + 4));
    expect(resumed.status).toBe('running');
    const view = fold(events);
    expect(flowEdgeRun(view, 'review', 'publish', 'approve')).toBe('taken');
    expect(flowEdgeRun(view, 'review', 'rewrite', 'revise')).toBeUndefined();
    expect(flowEdgeRun(view, 'review', 'publish', 'revise')).toBeUndefined();
    expect(flowEdgeRun(view, 'draft', 'review')).toBe('taken');
    expect(flowEdgeRun(atPause, 'draft', 'review')).toBe('active');
    // The same for edges as the flow canvas draws them.
    expect(listenEdgeRun(view, 'method:review', 'method:publish', { listener: 'publish', kind: 'route', route: 'approve' })).toBe('taken');
    expect(listenEdgeRun(view, 'method:review', 'method:rewrite', { listener: 'rewrite', kind: 'route', route: 'revise' })).toBeUndefined();
    expect(listenEdgeRun(view, 'method:draft', 'gate:publish', { listener: 'publish', kind: 'method' })).toBe('taken');
    expect(listenEdgeRun(view, 'gate:rewrite', 'method:rewrite', { listener: 'rewrite', kind: 'gate' })).toBeUndefined();
    expect(listenEdgeRun(view, 'gate:publish', 'method:publish', { listener: 'publish', kind: 'gate' })).toBe('taken');
    // And the gates themselves.
    expect(listenerRun(view, 'publish')).toBe('taken');
    expect(listenerRun(view, 'rewrite')).toBeUndefined();
    expect(listenerRun(atPause, 'review')).toBe('active');
  });

  it('answers the request even when the answer comes from another process under another span id', () => {
    const moved = events.map((e) => (e.type === 'human.answered' ? { ...e, spanId: 'elsewhere' } : e));
    const view = fold(moved);
    expect(view.spans.get(spans.human)!.status).toBe('done');
    expect(view.nodeStatus['method:review']).toBe('done');
  });
});

describe('reduceRunEvent over a flow that loops through a route', () => {
  const { events, spans } = loopFlow();
  const view = fold(events);

  it('counts each call of a method and keeps one span per call', () => {
    expect(view.methods.check).toMatchObject({ calls: 2, status: 'done', route: 'ok', spanId: spans.check2 });
    expect(view.methods.gen!.calls).toBe(1);
    expect(view.spans.get(spans.check1)!.sublabel).toBe('rules → fix');
    expect(view.spans.get(spans.check2)!.sublabel).toBe('rules · call 2 → ok');
    expect(view.spans.get(spans.root)!.children).toEqual([spans.gen, spans.check1, spans.fix, spans.check2, spans.finish]);
  });

  it('remembers the latest route and which method triggered each listener’s latest call', () => {
    expect(view.routes).toEqual({ check: 'ok' });
    expect(view.triggers.check).toEqual({ from: 'fix', route: undefined, to: 'check', call: 2 });
    expect(view.triggers.fix).toEqual({ from: 'check', route: 'fix', to: 'fix', call: 1 });
    expect(view.triggers.finish).toEqual({ from: 'check', route: 'ok', to: 'finish', call: 1 });
    expect(view.status).toBe('completed');
  });

  it('shows a looping method running again while its second call runs', () => {
    const mid = fold(events.slice(0, events.findIndex((e) => e.spanId === spans.check2) + 1));
    expect(mid.nodeStatus['method:check']).toBe('running');
    expect(mid.methods.check!.calls).toBe(2);
    expect(mid.nodeStatus['method:fix']).toBe('done');
  });
});

describe('reduceRunEvent over a failing flow', () => {
  it('marks the failed method and ends what is still open when the run fails', () => {
    const f = new FlowEvents('run_flow_fail');
    const root = f.start('Failing flow', ['a', 'b', 'c']);
    const a = f.method(root, 'a', 'script', 1);
    const b = f.method(root, 'b', 'llm', 1);
    f.emit({ type: 'flow.method.failed', methodId: 'a', methodName: 'a', error: 'ReferenceError: require is not defined (line 1)', errorName: 'ScriptError', durationMs: 3 }, a, root);
    f.emit({ type: 'run.failed', error: 'method "a" failed', errorName: 'FlowMethodError', tokenUsage: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, totalTokens: 0, requests: 0 }, durationMs: 20 }, root);
    const view = fold(f.events);
    expect(view.status).toBe('failed');
    expect(view.methods.a).toMatchObject({ status: 'failed', error: 'ReferenceError: require is not defined (line 1)' });
    expect(view.nodeStatus).toEqual({ 'method:a': 'failed', 'method:b': 'failed' });
    expect(view.methods.b!.status).toBe('failed');
    expect(view.spans.get(b)!.status).toBe('failed');
  });
});

describe('reduceRunEvent over a recorded flow run (crewdeck run, paused, then crewdeck resume --feedback revise)', () => {
  const events = recordedEvents('run-flow-review-revise');
  const pausedAt = events.findIndex((e) => e.type === 'run.paused') + 1;

  it('pauses at the review with the draft done', () => {
    const view = fold(events.slice(0, pausedAt));
    expect(view.status).toBe('paused');
    expect(view.nodeStatus).toEqual({ 'method:draft': 'done', 'method:review': 'waiting' });
    expect(view.pausedFor?.methodId).toBe('review');
  });

  it('takes the revise branch after the resume: rewrite ran, publish did not', () => {
    const view = fold(events);
    expect(view.status).toBe('completed');
    expect(view.routes).toEqual({ review: 'revise' });
    expect(view.nodeStatus).toEqual({ 'method:draft': 'done', 'method:review': 'done', 'method:rewrite': 'done' });
    expect(view.triggers.rewrite).toMatchObject({ from: 'review', route: 'revise' });
    expect(listenEdgeRun(view, 'method:review', 'method:rewrite', { listener: 'rewrite', kind: 'route', route: 'revise' })).toBe('taken');
    expect(listenEdgeRun(view, 'method:review', 'method:publish', { listener: 'publish', kind: 'route', route: 'approve' })).toBeUndefined();
    expect(view.flowState).toMatchObject({ status: 'rewritten' });
    expect(Object.keys(view.book.open)).toEqual([]);
  });
});
