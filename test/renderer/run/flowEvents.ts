import type { EventInput, RuntimeEvent } from '../../../shared/events';
import { emptyUsage } from '../../../shared/usage';

/** Writes flow event sequences by hand: envelopes (seq, ts, span ids) are filled in. */
export class FlowEvents {
  readonly events: RuntimeEvent[] = [];
  private seq = 0;
  private spanCount = 0;
  ts = 1_700_000_000_000;

  constructor(readonly runId = 'run_flow_1') {}

  span(): string {
    return `f${++this.spanCount}`;
  }

  emit(input: EventInput, spanId: string, parentSpanId?: string, stepMs = 10): RuntimeEvent {
    this.seq += 1;
    this.ts += stepMs;
    const e = { ...input, runId: this.runId, seq: this.seq, ts: this.ts, spanId, ...(parentSpanId ? { parentSpanId } : {}) } as RuntimeEvent;
    this.events.push(e);
    return e;
  }

  start(name: string, methodIds: string[]): string {
    const root = this.span();
    this.emit({ type: 'run.started', documentId: name.toLowerCase().replace(/\s+/g, '-'), documentName: name, process: 'flow', inputs: {}, stepIds: methodIds }, root);
    return root;
  }

  /** Opens a method span; returns its id. */
  method(root: string, methodId: string, bodyType: string, call: number, triggeredBy?: string, input?: string): string {
    const span = this.span();
    this.emit(
      { type: 'flow.method.started', methodId, methodName: methodId, bodyType, trigger: triggeredBy ? `listen: ${triggeredBy}` : 'start', triggeredBy, input, call },
      span,
      root,
    );
    return span;
  }

  done(span: string, root: string, methodId: string, output: string, state: Record<string, unknown>, changed: string[], route?: string): void {
    this.emit({ type: 'flow.method.completed', methodId, methodName: methodId, output, route, state, changed, durationMs: 10 }, span, root);
  }

  route(span: string, root: string, methodId: string, route: string, reason: string): void {
    this.emit({ type: 'flow.route', methodId, methodName: methodId, route, reason }, span, root);
  }

  completeRun(root: string, output: string): void {
    this.emit({ type: 'run.completed', output, tokenUsage: emptyUsage(), durationMs: this.ts - this.events[0]!.ts }, root);
  }
}

/**
 * draft (llm, start) → review (human_feedback router: approve | revise) → publish (on approve) or
 * rewrite (on revise). Paused at review; `resumed` adds the answer "approve" and the rest.
 */
export function reviewFlow(runId = 'run_flow_review') {
  const f = new FlowEvents(runId);
  const root = f.start('Review flow', ['draft', 'review', 'publish', 'rewrite']);
  const draft = f.method(root, 'draft', 'llm', 1);
  const llm = f.span();
  f.emit({ type: 'llm.started', model: 'scripted:demo', provider: 'scripted', purpose: 'agent', messages: [{ role: 'user', content: 'Write a draft' }], tools: [] }, llm, draft);
  f.emit({ type: 'llm.completed', model: 'scripted:demo', content: 'A draft.', toolCalls: [], finishReason: 'stop', usage: { ...emptyUsage(), totalTokens: 30, requests: 1 }, latencyMs: 5 }, llm, draft);
  f.done(draft, root, 'draft', 'A draft.', { topic: 'flows', draft: 'A draft.' }, ['draft']);
  const review = f.method(root, 'review', 'human_feedback', 1, 'draft', 'A draft.');
  const human = f.span();
  f.emit(
    { type: 'human.requested', requestId: 'req_1', kind: 'flow_feedback', agentRole: 'review', prompt: 'Is the draft good?', output: 'A draft.', outcomes: ['approve', 'revise'], defaultOutcome: 'approve', methodId: 'review' },
    human,
    review,
  );
  f.emit({ type: 'run.paused', requestId: 'req_1', methodId: 'review', durationMs: 40 }, root);
  const paused = f.events.length;

  f.emit({ type: 'run.resumed', requestId: 'req_1', pausedForMs: 60_000 }, root, undefined, 60_000);
  f.emit({ type: 'human.answered', requestId: 'req_1', kind: 'flow_feedback', feedback: 'approve', outcome: 'approve' }, human, review);
  f.route(review, root, 'review', 'approve', 'the feedback "approve" names the outcome approve');
  f.done(review, root, 'review', 'approve', { topic: 'flows', draft: 'A draft.', verdict: 'approve' }, ['verdict'], 'approve');
  const publish = f.method(root, 'publish', 'set_state', 1, 'approve', 'approve');
  f.done(publish, root, 'publish', 'published', { topic: 'flows', draft: 'A draft.', verdict: 'approve', published: true }, ['published']);
  f.completeRun(root, 'published');
  return { events: f.events, paused, spans: { root, draft, llm, review, human, publish } };
}

/** gen (start) → check (rules router: fix | ok, listens to gen or fix) → fix (on fix) → check again → finish (on ok). */
export function loopFlow(runId = 'run_flow_loop') {
  const f = new FlowEvents(runId);
  const root = f.start('Loop flow', ['gen', 'check', 'fix', 'finish']);
  const gen = f.method(root, 'gen', 'set_state', 1);
  f.done(gen, root, 'gen', 'n=0', { n: 0 }, ['n']);
  const check1 = f.method(root, 'check', 'rules', 1, 'gen', 'n=0');
  f.route(check1, root, 'check', 'fix', 'state.n lt 1');
  f.done(check1, root, 'check', 'fix', { n: 0 }, [], 'fix');
  const fix = f.method(root, 'fix', 'script', 1, 'fix', 'fix');
  f.done(fix, root, 'fix', 'n=1', { n: 1 }, ['n']);
  const check2 = f.method(root, 'check', 'rules', 2, 'fix', 'n=1');
  f.route(check2, root, 'check', 'ok', 'default route');
  f.done(check2, root, 'check', 'ok', { n: 1 }, [], 'ok');
  const finish = f.method(root, 'finish', 'set_state', 1, 'ok', 'ok');
  f.done(finish, root, 'finish', 'finished', { n: 1, done: true }, ['done']);
  f.completeRun(root, 'finished');
  return { events: f.events, spans: { root, gen, check1, fix, check2, finish } };
}
