import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { FlowDocumentSchema, type FlowDocumentInput } from '../../shared/model/flow';
import { createRuntime } from '../../runtime/runtime';
import type { FlowRunResult } from '../../runtime/flow/flowRunTypes';
import { ofType, scripted, tempWorkspace, traceProblems } from '../support/crewHarness';

let ws: ReturnType<typeof tempWorkspace> | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

function flow(input: Partial<FlowDocumentInput>) {
  return FlowDocumentSchema.parse({ kind: 'flow', version: 1, id: 'f', name: 'Test flow', ...input });
}

async function run(doc: ReturnType<typeof flow>, inputs: Record<string, string> = {}) {
  ws ??= tempWorkspace('crewdeck-flow-');
  const events: RuntimeEvent[] = [];
  const runtime = createRuntime({ workspace: ws.dir, store: ws.store });
  const result = await runtime.runFlow(doc, { inputs, onEvent: (e) => events.push(e) });
  return { result, events, runtime };
}

const order = (events: RuntimeEvent[]) => ofType(events, 'flow.method.completed').map((e) => e.methodName);
const setTo = (value: string) => ({ type: 'set_state' as const, set: { last: value } });
const script = (code: string) => ({ type: 'script' as const, code });

describe('flow engine', () => {
  it('runs start methods, then listeners; the output is the last method to complete', async () => {
    const { result, events } = await run(
      flow({
        methods: [
          { id: 'a', name: 'a', trigger: { start: true }, body: script('return "from a";') },
          { id: 'b', name: 'b', trigger: { listen: 'a' }, body: script('state.seen = input; return input + " then b";') },
        ],
      }),
    );
    expect(result.status).toBe('completed');
    expect(result.output).toBe('from a then b');
    expect(result.state).toEqual({ seen: 'from a' });
    expect(order(events)).toEqual(['a', 'b']);
    const b = ofType(events, 'flow.method.started').find((e) => e.methodName === 'b')!;
    expect(b).toMatchObject({ triggeredBy: 'a', input: 'from a', trigger: 'listen: a' });
    expect(ofType(events, 'flow.method.completed').find((e) => e.methodName === 'b')!.changed).toEqual(['seen']);
    expect(traceProblems(events)).toEqual([]);
  });

  it('`or` fires on the first member, `and` only after all members', async () => {
    const slow = (name: string, ms: number) => ({
      id: name,
      name,
      trigger: { start: true as const },
      body: { type: 'llm' as const, prompt: name, llm: scripted({ default: { content: `${name} done`, delayMs: ms } }) },
    });
    const { events, result } = await run(
      flow({
        methods: [
          slow('fast', 10),
          slow('slow', 150),
          { id: 'either', name: 'either', trigger: { listen: { or: ['fast', 'slow'] } }, body: setTo('{input}') },
          { id: 'both', name: 'both', trigger: { listen: { and: ['fast', 'slow'] } }, body: setTo('both') },
        ],
      }),
    );
    expect(result.status).toBe('completed');
    const completed = order(events);
    // `either` ran once, right after the fast branch, before the slow one finished; `both` waited for both.
    expect(completed.filter((n) => n === 'either')).toHaveLength(1);
    expect(completed.indexOf('either')).toBeLessThan(completed.indexOf('slow'));
    expect(completed.indexOf('both')).toBeGreaterThan(completed.indexOf('slow'));
    expect(ofType(events, 'flow.method.started').find((e) => e.methodName === 'either')!.input).toBe('fast done');
  });

  it('routes: listeners of the chosen route run, the others do not', async () => {
    const { events, result } = await run(
      flow({
        state: { initial: { score: 8 } },
        methods: [
          { id: 'judge', name: 'judge', trigger: { start: true }, routes: ['good', 'bad'], body: { type: 'rules', rules: [{ when: { path: 'state.score', op: 'gte', value: 7 }, route: 'good' }], default: 'bad' } },
          { id: 'ship', name: 'ship', trigger: { listen: { route: 'good' } }, body: script('return "shipped";') },
          { id: 'fix', name: 'fix', trigger: { listen: { route: 'bad' } }, body: script('return "fixed";') },
        ],
      }),
    );
    expect(result.output).toBe('shipped');
    expect(order(events)).toEqual(['judge', 'ship']);
    expect(ofType(events, 'flow.route')[0]).toMatchObject({ methodName: 'judge', route: 'good', reason: 'rule 1 holds: state.score gte 7' });
  });

  it('a loop through routes stops at maxMethodCalls with a clear error', async () => {
    const { events, result } = await run(
      flow({
        maxMethodCalls: 7,
        state: { initial: { n: 0 } },
        methods: [
          { id: 'count', name: 'count', trigger: { listen: { or: ['begin', { route: 'again' }] } }, body: script('state.n = state.n + 1; return String(state.n);') },
          { id: 'begin', name: 'begin', trigger: { start: true }, body: setTo('go') },
          { id: 'check', name: 'check', trigger: { listen: 'count' }, routes: ['again', 'stop'], body: { type: 'rules', rules: [{ when: { path: 'state.n', op: 'gte', value: 1000 }, route: 'stop' }], default: 'again' } },
        ],
      }),
    );
    expect(result.status).toBe('failed');
    expect(result.error?.name).toBe('FlowLoopLimit');
    expect(result.error?.message).toMatch(/made 7 method calls, its maxMethodCalls; "count" would be one more \(triggered by "check"\)/);
    expect(ofType(events, 'flow.method.started')).toHaveLength(7);
    expect(result.state.n).toBe(3);
    expect(events.at(-1)!.type).toBe('run.failed');
  });

  it('a state that breaks the schema fails the method and names the field', async () => {
    const { result, events } = await run(
      flow({
        state: { schema: { type: 'object', properties: { score: { type: 'number' } } }, initial: { score: 1 } },
        methods: [{ id: 's', name: 'scorer', trigger: { start: true }, body: script('state.score = "high"; return "x";') }],
      }),
    );
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/the state after "scorer" breaks the state schema: .*score.*number/);
    expect(ofType(events, 'flow.method.failed')[0]!.methodName).toBe('scorer');
  });

  it('a script cannot reach require, process or the network, and an endless loop is stopped by its time limit', async () => {
    for (const code of ['return typeof require + typeof process + typeof fetch + typeof globalThis.XMLHttpRequest;']) {
      const { result } = await run(flow({ methods: [{ id: 's', name: 's', trigger: { start: true }, body: script(code) }] }));
      expect(result.output).toBe('undefinedundefinedundefinedundefined');
    }
    const escape = await run(flow({ methods: [{ id: 's', name: 's', trigger: { start: true }, body: script('return require("fs").readdirSync("/");') }] }));
    expect(escape.result.status).toBe('failed');
    expect(escape.result.error?.message).toMatch(/ReferenceError: .*require.* at line 1/);

    const endless = await run(flow({ methods: [{ id: 's', name: 'spin', trigger: { start: true }, body: { type: 'script', code: 'while (true) {}', timeoutMs: 300 } }] }));
    expect(endless.result.status).toBe('failed');
    expect(endless.result.error).toMatchObject({ name: 'ScriptTimeout', message: 'script timed out after 300 ms' });

    const line = await run(flow({ methods: [{ id: 's', name: 's', trigger: { start: true }, body: script('const a = 1;\nconst b = 2;\nnull.boom;') }] }));
    expect(line.result.error?.message).toMatch(/TypeError: .* at line 3/);
  });

  it('human feedback pauses the flow; resume classifies the answer and takes that branch without re-running anything', async () => {
    const classifier = scripted({ rules: [{ when: { last: 'too long' }, reply: '{"outcome": "revise", "reason": "asks for changes"}' }] });
    const doc = flow({
      methods: [
        { id: 'draft', name: 'draft', trigger: { start: true }, body: { type: 'llm', prompt: 'Draft it', llm: scripted({ default: 'DRAFT v1' }) } },
        {
          id: 'review',
          name: 'review',
          trigger: { listen: 'draft' },
          routes: ['approve', 'revise'],
          body: { type: 'human_feedback', message: 'Is this draft good?', defaultOutcome: 'approve', llm: classifier },
        },
        { id: 'publish', name: 'publish', trigger: { listen: { route: 'approve' } }, body: script('return "published: " + input;') },
        { id: 'rewrite', name: 'rewrite', trigger: { listen: { route: 'revise' } }, body: script('return "rewriting after: " + input;') },
      ],
    });
    const first = await run(doc);
    expect(first.result.status).toBe('paused');
    expect(first.result.pending).toMatchObject({ methodName: 'review', message: 'Is this draft good?', output: 'DRAFT v1', outcomes: ['approve', 'revise'], defaultOutcome: 'approve' });
    expect(first.events.at(-1)).toMatchObject({ type: 'run.paused', methodId: 'review' });
    expect(ws!.store.getRun(first.result.runId)!.status).toBe('paused');

    const later: RuntimeEvent[] = [];
    const resumed = await first.runtime.resume(first.result.runId, { feedback: 'It is too long, cut it down', onEvent: (e) => later.push(e) });
    expect(resumed.status).toBe('completed');
    // The review passes on what was reviewed; the feedback is in the state.
    expect(resumed.output).toBe('rewriting after: DRAFT v1');
    expect('state' in resumed && resumed.state).toEqual({ review_feedback: 'It is too long, cut it down' });
    // The resumed run reports the whole run's tokens: the draft's call before the pause and the classification after.
    expect(resumed.tokenUsage.requests).toBe(2);
    expect(resumed.tokenUsage.totalTokens).toBeGreaterThan(first.result.tokenUsage.totalTokens);
    expect(later[0]).toMatchObject({ type: 'run.resumed', seq: first.events.at(-1)!.seq + 1 });
    expect(ofType(later, 'human.answered')[0]).toMatchObject({ outcome: 'revise', feedback: 'It is too long, cut it down' });
    expect(ofType(later, 'flow.route')[0]!.reason).toBe('classified from the feedback: asks for changes');
    // Nothing before the review ran again.
    expect(ofType(later, 'flow.method.started').map((e) => e.methodName)).toEqual(['rewrite']);
    expect(ws!.store.getRun(first.result.runId)!.status).toBe('completed');
    // One run, one well-formed trace across both processes' worth of events.
    expect(traceProblems([...first.events, ...later])).toEqual([]);
    await expect(first.runtime.resume(first.result.runId, { feedback: 'again' })).rejects.toThrow(/is completed; only paused or interrupted flows can be resumed/);
  });

  it.each([
    ['a bare outcome', 'approved', 'approved', 'classified from the feedback', undefined],
    ['an "Outcome:" line', 'Outcome: approved', 'approved', 'classified from the feedback', ['outcome-line']],
    ['fenced JSON', '```json\n{"outcome":"approved"}\n```', 'approved', 'classified from the feedback', ['fenced-json']],
    ['a quoted, capitalised name', '"Approved."', 'approved', 'classified from the feedback', ['outcome-name']],
    ['both outcomes', 'It could be approved or rejected.', 'rejected', "the model's answer names more than one outcome (approved, rejected): the default outcome \"rejected\"", undefined],
    ['no outcome', 'Hard to say.', 'rejected', "the model's answer named no outcome: the default outcome \"rejected\"", undefined],
  ])('a classifier replying with %s routes as read, with the raw reply on flow.route', async (_shape, reply, route, reason, readAs) => {
    const doc = flow({
      methods: [
        {
          id: 'review',
          name: 'review',
          trigger: { start: true },
          routes: ['approved', 'rejected'],
          body: { type: 'human_feedback', message: 'Page someone?', defaultOutcome: 'rejected', llm: scripted({ default: reply }) },
        },
        { id: 'page', name: 'page', trigger: { listen: { route: 'approved' } }, body: script('return "paged";') },
        { id: 'wait', name: 'wait', trigger: { listen: { route: 'rejected' } }, body: script('return "waited";') },
      ],
    });
    const first = await run(doc);
    const events: RuntimeEvent[] = [];
    const resumed = await first.runtime.resume(first.result.runId, { feedback: 'Yes, page the on-call engineer', onEvent: (e) => events.push(e) });
    expect(resumed.output).toBe(route === 'approved' ? 'paged' : 'waited');
    const [routed] = ofType(events, 'flow.route');
    expect(routed).toMatchObject({ route, reason, rawReply: reply });
    expect(routed!.readAs).toEqual(readAs);
  });

  it('two resumes racing for one paused flow (two windows, the app and the CLI): one continues it, the other is refused', async () => {
    const doc = flow({
      methods: [
        { id: 'review', name: 'review', trigger: { start: true }, body: { type: 'human_feedback', message: 'Go?' } },
        { id: 'after', name: 'after', trigger: { listen: 'review' }, body: script('return "after " + input;') },
      ],
    });
    const first = await run(doc);
    expect(first.result.status).toBe('paused');
    const events: RuntimeEvent[] = [];
    const other = createRuntime({ workspace: ws!.dir, store: ws!.store });
    const outcomes = await Promise.allSettled([
      first.runtime.resume(first.result.runId, { feedback: 'one', onEvent: (e) => events.push(e) }),
      other.resume(first.result.runId, { feedback: 'two', onEvent: (e) => events.push(e) }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/is running; only paused or interrupted flows can be resumed/);
    expect(ofType(events, 'run.resumed')).toHaveLength(1);
    expect(ofType(events, 'flow.method.completed').map((e) => e.methodName)).toEqual(['review', 'after']);
    expect(ws!.store.getRun(first.result.runId)!.status).toBe('completed');
  });

  it('empty feedback takes the default outcome; naming an outcome takes it without a model call', async () => {
    const doc = flow({
      methods: [
        { id: 'review', name: 'review', trigger: { start: true }, routes: ['yes', 'no'], body: { type: 'human_feedback', message: 'Go?', defaultOutcome: 'no' } },
        { id: 'y', name: 'y', trigger: { listen: { route: 'yes' } }, body: script('return "went";') },
        { id: 'n', name: 'n', trigger: { listen: { route: 'no' } }, body: script('return "stayed";') },
      ],
    });
    const a = await run(doc);
    const empty = await a.runtime.resume(a.result.runId, { feedback: '' });
    expect(empty.output).toBe('stayed');
    const b = await run(doc);
    const events: RuntimeEvent[] = [];
    const named = await b.runtime.resume(b.result.runId, { feedback: 'YES', onEvent: (e) => events.push(e) });
    expect(named.output).toBe('went');
    expect(ofType(events, 'llm.started')).toHaveLength(0);
  });

  it('with learn, feedback becomes lessons in memory, and the next review revises the output with them before asking', async () => {
    const reviewer = scripted({
      rules: [
        { when: { system: 'long-term memory' }, reply: '{"memories": [{"content": "Lead with the price of the offer", "categories": ["style"]}]}' },
        { when: { system: 'revise a draft' }, reply: 'Only 9 euros: our solar lamp lights your garden all night.' },
      ],
    });
    const doc = flow({
      methods: [
        { id: 'draft', name: 'draft', trigger: { start: true }, body: { type: 'llm', prompt: 'Write the ad', llm: scripted({ default: 'Our solar lamp lights your garden all night, for 9 euros.' }) } },
        { id: 'review', name: 'review', trigger: { listen: 'draft' }, body: { type: 'human_feedback', message: 'Good ad?', learn: true, llm: reviewer } },
      ],
    });
    const first = await run(doc);
    expect(feedbackPending(first.result).output).toBe('Our solar lamp lights your garden all night, for 9 euros.');
    const answered: RuntimeEvent[] = [];
    await first.runtime.resume(first.result.runId, { feedback: 'Put the price first, people scan for it', onEvent: (e) => answered.push(e) });
    expect(ofType(answered, 'memory.write.decision')[0]).toMatchObject({ action: 'insert', content: 'Lead with the price of the offer' });

    const second = await run(doc);
    const recall = ofType(second.events, 'memory.recall')[0];
    expect(recall!.scope).toBe('/flow/f/method/review');
    expect(recall!.records.map((r) => r.content)).toEqual(['Lead with the price of the offer']);
    expect(feedbackPending(second.result).output).toBe('Only 9 euros: our solar lamp lights your garden all night.');
    expect(feedbackPending(second.result).message).toContain('Revised with 1 lesson from earlier feedback');
  });
});

/** The pending feedback request of a paused flow (not a budget pause). */
function feedbackPending(result: FlowRunResult) {
  const pending = result.pending;
  if (!pending || pending.kind === 'budget') throw new Error(`expected a flow waiting for feedback, got ${JSON.stringify(pending)}`);
  return pending;
}
