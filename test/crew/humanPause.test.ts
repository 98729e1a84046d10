import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import type { CrewRunResult } from '../../runtime/crew/kickoff';
import { HumanAnswerInvalid, pausingHuman } from '../../runtime/human/humanPause';
import { createRuntime } from '../../runtime/runtime';
import { crew, ofType, scripted, tempWorkspace, traceProblems } from '../support/crewHarness';

/**
 * A crew whose human answers later (a team worker, `crewdeck run --pause-for-humans`): a task review or a
 * tool approval pauses the run; resuming with the answer goes on from where the agent stood, and no
 * completed task runs again.
 */
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function workspace() {
  const ws = tempWorkspace();
  cleanups.push(ws.remove);
  const runtime = createRuntime({ workspace: ws.dir, store: ws.store, human: pausingHuman });
  const events: RuntimeEvent[] = [];
  return { ws, runtime, events, onEvent: (e: RuntimeEvent) => events.push(e) };
}

const researcher = scripted({ default: 'Facts: tides follow the moon.' }, 'research');

function reviewedCrew() {
  // The writer's first draft, then (after the feedback, which its next call sees last) a revision.
  const writer = scripted({ rules: [{ when: { last: '/shorter/' }, reply: 'Tides: moon.' }], default: 'A long draft about tides and the moon.' }, 'writer');
  return crew({
    agents: [
      { id: 'r', role: 'Researcher', goal: 'g', llm: researcher },
      { id: 'w', role: 'Writer', goal: 'g', llm: writer },
    ],
    tasks: [
      { id: 'research', description: 'Find facts', expectedOutput: 'facts', agentId: 'r' },
      { id: 'write', description: 'Write it up', expectedOutput: 'a text', agentId: 'w', humanInput: true },
    ],
  });
}

describe('a crew paused for a person', () => {
  it('a task review pauses the run; feedback continues the same conversation, accepting completes it; no task runs twice', async () => {
    const { ws, runtime, events, onEvent } = workspace();
    const first = (await runtime.runCrew(reviewedCrew(), { onEvent })) as CrewRunResult;
    expect(first.status).toBe('paused');
    expect(first.humanPending).toMatchObject({ kind: 'task_review', taskId: 'write', agentRole: 'Writer', output: 'A long draft about tides and the moon.' });
    expect(ws.store.getRun(first.runId)?.status).toBe('paused');
    expect(ws.store.taskOutputs(first.runId).map((o) => o.taskId)).toEqual(['research']);
    expect(events.at(-1)).toMatchObject({ type: 'run.paused', reason: 'human', requestId: first.humanPending!.requestId, methodId: 'write' });

    // Feedback: the writer goes on from its draft (one more model call, which sees the draft and the feedback).
    const second = (await runtime.resume(first.runId, { feedback: 'Make it shorter.', onEvent })) as CrewRunResult;
    expect(second.status).toBe('paused');
    expect(second.humanPending).toMatchObject({ kind: 'task_review', output: 'Tides: moon.' });
    const revision = ofType(events, 'llm.started').filter((e) => e.agentRole === 'Writer').at(-1)!;
    expect(revision.messages.slice(-2).map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(revision.messages.at(-2)!.content).toBe('A long draft about tides and the moon.');
    expect(revision.messages.at(-1)!.content).toContain('Make it shorter.');

    await expect(runtime.resume(first.runId, { decision: 'deny' })).rejects.toBeInstanceOf(HumanAnswerInvalid);
    const third = (await runtime.resume(first.runId, { decision: 'approve', onEvent })) as CrewRunResult;
    expect(third.status).toBe('completed');
    expect(third.output).toBe('Tides: moon.');

    const calls = ofType(events, 'llm.started');
    expect(calls.filter((e) => e.agentRole === 'Researcher')).toHaveLength(1);
    expect(calls.filter((e) => e.agentRole === 'Writer')).toHaveLength(2);
    expect(ofType(events, 'task.completed').map((e) => e.taskId)).toEqual(['research', 'write']);
    const answered = ofType(events, 'human.answered');
    expect(answered.map((e) => [e.requestId, e.feedback])).toEqual([
      [first.humanPending!.requestId, 'Make it shorter.'],
      [second.humanPending!.requestId, ''],
    ]);
    // One trace across the three sessions: every span opened is closed, the run's end last.
    expect(traceProblems(events)).toEqual([]);
    expect(ws.store.getRun(first.runId)).toMatchObject({ status: 'completed', output: 'Tides: moon.' });
  });

  it('a tool approval pauses the run before the call; approving runs that very call, without asking the model again', async () => {
    const solver = scripted(
      {
        rules: [{ when: { lastRole: 'tool' }, reply: 'The answer is 4.' }],
        default: { toolCalls: [{ name: 'calculator', arguments: { expression: '2 + 2' } }] },
      },
      'solver',
    );
    const doc = crew({
      agents: [{ id: 's', role: 'Solver', goal: 'g', llm: solver, tools: [{ tool: 'calculator', requiresApproval: true }] }],
      tasks: [{ id: 'sum', description: 'Add two and two', expectedOutput: 'a number', agentId: 's' }],
    });
    const { runtime, events, onEvent } = workspace();
    const first = (await runtime.runCrew(doc, { onEvent })) as CrewRunResult;
    expect(first.status).toBe('paused');
    expect(first.humanPending).toMatchObject({ kind: 'tool_approval', tool: 'calculator', args: { expression: '2 + 2' }, agentRole: 'Solver', taskId: 'sum' });
    expect(ofType(events, 'tool.completed')).toHaveLength(0);
    expect(ofType(events, 'tool.blocked')).toMatchObject([{ tool: 'calculator', by: 'approval' }]);

    await expect(runtime.resume(first.runId, { feedback: 'sure' })).rejects.toThrow(/approve the tool "calculator"/);
    const done = (await runtime.resume(first.runId, { decision: 'approve', onEvent })) as CrewRunResult;
    expect(done.status).toBe('completed');
    expect(done.output).toBe('The answer is 4.');
    expect(ofType(events, 'tool.completed')).toMatchObject([{ tool: 'calculator', result: '4' }]);
    // The model asked for the call once; after the approval it only read the result.
    expect(ofType(events, 'llm.started')).toHaveLength(2);
    expect(ofType(events, 'human.requested')).toHaveLength(1);
    expect(ofType(events, 'human.answered')).toMatchObject([{ requestId: first.humanPending!.requestId, decision: 'approve' }]);
    expect(traceProblems(events)).toEqual([]);
  });

  it('a denied call is blocked and the agent goes on without it', async () => {
    const solver = scripted(
      {
        rules: [{ when: { last: '/denied permission/' }, reply: 'I could not compute it.' }],
        default: { toolCalls: [{ name: 'calculator', arguments: { expression: '7 * 6' } }] },
      },
      'solver',
    );
    const doc = crew({
      agents: [{ id: 's', role: 'Solver', goal: 'g', llm: solver, tools: [{ tool: 'calculator', requiresApproval: true }] }],
      tasks: [{ id: 'product', description: 'Multiply', expectedOutput: 'a number', agentId: 's' }],
    });
    const { runtime, events, onEvent } = workspace();
    const first = (await runtime.runCrew(doc, { onEvent })) as CrewRunResult;
    const done = (await runtime.resume(first.runId, { decision: 'deny', onEvent })) as CrewRunResult;
    expect(done).toMatchObject({ status: 'completed', output: 'I could not compute it.' });
    expect(ofType(events, 'tool.blocked').map((e) => e.reason)).toEqual(['waiting for a person to approve the call: the run pauses', 'denied by the user']);
    expect(traceProblems(events)).toEqual([]);
  });
});
