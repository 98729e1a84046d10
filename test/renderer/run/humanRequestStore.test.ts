import { beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../shared/events';
import type { HostRunSummary, PendingHumanRequest } from '../../../shared/host-api';
import { emptyUsage } from '../../../shared/usage';
import { setHost } from '../../../renderer/host/hostContext';
import { selectPausedRunOf, selectPausedRuns, selectPoppingUp, selectRunQuestions, useHumanRequestStore } from '../../../renderer/stores/humanRequestStore';
import type { PausedQuestionRequest } from '../../../renderer/stores/humanRequests';
import { FakeHost } from './fakeHost';

const store = () => useHumanRequestStore.getState();
const envelope = (runId: string, seq: number, ts = seq) => ({ runId, seq, ts, spanId: `s_${runId}` });

const question: PendingHumanRequest = { requestId: 'h1', runId: 'run_crew', kind: 'tool_approval', agentRole: 'Researcher', prompt: 'allow?', tool: 'read_file', args: { path: 'a' }, requestedAt: 30 };
const budgetEvents: RuntimeEvent[] = [
  { ...envelope('run_budget', 1, 10), type: 'budget.reached', which: 'maxTokens', spent: 120, limit: 100, methodId: 'draft' },
  { ...envelope('run_budget', 2, 11), type: 'run.paused', requestId: 'h1', methodId: 'draft', durationMs: 3, reason: 'budget' },
];
const pausedRun: HostRunSummary = { id: 'run_budget', kind: 'flow', documentId: 'f', name: 'Budget flow', status: 'paused', startedAt: 1, tokenUsage: emptyUsage(), documentPath: 'f.flow.json' };

let host: FakeHost;
let pending: PendingHumanRequest[];
beforeEach(() => {
  pending = [question, { ...question, requestId: 'h_flow', runId: 'run_flow', kind: 'flow_feedback', requestedAt: 5 }];
  host = new FakeHost({
    'human.pending': () => ({ requests: pending }),
    'runs.events': ({ runId }) => ({ events: runId === 'run_budget' ? budgetEvents : [], lastSeq: 2, more: false }),
    'human.answer': () => ({}),
    'runs.resume': ({ runId }) => ({ runId }),
  });
  setHost(host);
  useHumanRequestStore.setState({ requests: [], opened: undefined, answering: undefined, error: undefined });
});

describe('the human request store', () => {
  it('holds live questions and paused runs side by side: reading one kind again keeps the other', async () => {
    await store().sync([pausedRun]);
    await store().load();
    // Oldest first; the flow feedback human.pending lists is left to the run list (it is answered with runs.resume).
    expect(store().requests.map((r) => [r.runId, r.requestId, r.kind])).toEqual([
      ['run_budget', 'h1', 'budget'],
      ['run_crew', 'h1', 'tool_approval'],
    ]);
    expect(selectPausedRunOf('run_budget')(store())).toMatchObject({ kind: 'budget', runName: 'Budget flow', budget: { which: 'maxTokens', spent: 120, limit: 100 }, live: false });
    pending = [];
    await store().load();
    expect(store().requests.map((r) => r.kind)).toEqual(['budget']);
    pending = [question];
    await store().load();
    await store().sync([]);
    expect(store().requests.map((r) => r.kind)).toEqual(['budget', 'tool_approval']);
    await store().sync([{ ...pausedRun, status: 'completed' }]);
    expect(store().requests.map((r) => r.kind)).toEqual(['tool_approval']);
  });

  it('tells apart the same request id in two runs: an answer or a run end takes out only its own', async () => {
    await store().load();
    await store().sync([pausedRun]);
    store().open({ runId: 'run_budget', requestId: 'h1' });
    store().receive({ ...envelope('run_crew', 9), type: 'human.answered', requestId: 'h1', kind: 'tool_approval', decision: 'approve' });
    expect(selectRunQuestions(store())).toEqual([]);
    expect(selectPausedRuns(store()).map((r) => r.runId)).toEqual(['run_budget']);
    expect(store().opened).toBe('run_budget/h1');
    store().receive({ ...envelope('run_budget', 3), type: 'run.cancelled', reason: 'stopped', durationMs: 1 });
    expect(store().requests).toEqual([]);
    expect(store().opened).toBeUndefined();
  });

  it('builds a live budget pause from the budget.reached before it, and it pops up', () => {
    for (const e of budgetEvents) store().receive(e);
    store().receive(budgetEvents[1]!);
    expect(selectPoppingUp(store())).toEqual([expect.objectContaining({ kind: 'budget', live: true, budget: { which: 'maxTokens', spent: 120, limit: 100 } })]);
    store().receive({ ...envelope('run_budget', 4), type: 'run.resumed', requestId: 'h1', pausedForMs: 9 });
    expect(store().requests).toEqual([]);
  });

  it('answers each kind on its own channel', async () => {
    await store().load();
    await store().sync([pausedRun]);
    const [budget] = selectPausedRuns(store());
    const [approval] = selectRunQuestions(store());
    expect(await store().answer(approval!, { decision: 'always' })).toBe(true);
    expect(budget!.kind).toBe('budget');
    expect(await store().answer(budget!, { budget: { maxTokens: 300 } })).toBe(true);
    expect(host.callsTo('human.answer')).toEqual([{ runId: 'run_crew', requestId: 'h1', decision: 'always' }]);
    expect(host.callsTo('runs.resume')).toEqual([{ runId: 'run_budget', budget: { maxTokens: 300 } }]);
    expect(store().requests).toEqual([]);
  });

  it('keeps a paused run whose resume is refused, with the reason', async () => {
    host.handlers['runs.resume'] = () => {
      throw new Error('run run_budget is not paused (it completed)');
    };
    await store().sync([pausedRun]);
    expect(await store().answer(selectPausedRuns(store())[0]!, { budget: { maxTokens: 300 } })).toBe(false);
    expect(store().error).toContain('is not paused');
    expect(store().answering).toBeUndefined();
    expect(selectPausedRuns(store())).toHaveLength(1);
  });

  it('a crew paused at a question (a team run waiting): the live question becomes a paused one, answered with runs.resume', async () => {
    const asked: RuntimeEvent = { ...envelope('run_team', 5, 50), type: 'human.requested', requestId: 'r1', kind: 'task_review', taskId: 'write', agentRole: 'Writer', prompt: 'Write it up', output: 'A draft.' };
    store().receive(asked);
    expect(selectRunQuestions(store())).toHaveLength(1);
    store().receive({ ...envelope('run_team', 9, 51), type: 'run.paused', requestId: 'r1', methodId: 'write', durationMs: 4, reason: 'human' });
    expect(selectRunQuestions(store())).toEqual([]);
    const [paused] = selectPausedRuns(store());
    expect(paused).toMatchObject({ kind: 'task_review', paused: true, runId: 'run_team', requestId: 'r1', output: 'A draft.', agentRole: 'Writer', live: true });
    expect(selectPoppingUp(store())).toEqual([paused]);
    expect(await store().answer(paused as PausedQuestionRequest, { feedback: 'Shorter, please.' })).toBe(true);
    expect(host.callsTo('runs.resume')).toEqual([{ runId: 'run_team', feedback: 'Shorter, please.' }]);
    expect(host.callsTo('human.answer')).toEqual([]);
  });

  it('a crew paused at a tool approval before the app opened is found in its events and answered with a decision', async () => {
    const events: RuntimeEvent[] = [
      { ...envelope('run_tool', 1, 10), type: 'human.requested', requestId: 'r7', kind: 'tool_approval', taskId: 'sum', agentRole: 'Solver', prompt: 'allow?', tool: 'calculator', args: { expression: '2 + 2' } },
      { ...envelope('run_tool', 2, 11), type: 'run.paused', requestId: 'r7', methodId: 'sum', durationMs: 1, reason: 'human' },
    ];
    host.handlers['runs.events'] = () => ({ events, lastSeq: 2, more: false });
    await store().sync([{ ...pausedRun, id: 'run_tool', kind: 'crew', name: 'Solver crew', team: { server: 'http://127.0.0.1:1', status: 'waiting' } }]);
    const [paused] = selectPausedRuns(store());
    expect(paused).toMatchObject({ kind: 'tool_approval', paused: true, tool: 'calculator', args: { expression: '2 + 2' }, runName: 'Solver crew', live: false });
    expect(await store().answer(paused as PausedQuestionRequest, { decision: 'approve' })).toBe(true);
    expect(host.callsTo('runs.resume')).toEqual([{ runId: 'run_tool', decision: 'approve' }]);
  });
});
