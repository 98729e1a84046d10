import { afterEach, describe, expect, it } from 'vitest';
import { ReplayNotPossible, RunNotFound, TaskNotFound } from '../../runtime/errors';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';
import type { RuntimeEvent } from '../../shared/events';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('replay', () => {
  it('replays from task 2 without any model call for task 1, feeding its stored output as context', async () => {
    const llm = scripted({
      rules: [
        { when: { system: 'You are Alpha.' }, reply: 'ALPHA says 1' },
        { when: { system: 'You are Beta.' }, reply: 'BETA says 2' },
        { when: { system: 'You are Gamma.' }, reply: 'GAMMA says 3' },
      ],
    });
    const doc = crew({
      agents: ['Alpha', 'Beta', 'Gamma'].map((role) => ({ id: role.toLowerCase(), role, goal: 'g', llm })),
      tasks: [
        { id: 'one', description: 'first', expectedOutput: 'x', agentId: 'alpha' },
        { id: 'two', description: 'second', expectedOutput: 'x', agentId: 'beta' },
        { id: 'three', description: 'third', expectedOutput: 'x', agentId: 'gamma' },
      ],
    });
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const first = await runCrew(doc, { workspace: ws });
    expect(first.result.status).toBe('completed');

    const events: RuntimeEvent[] = [];
    const replay = await first.runtime.replay(first.result.runId, 'two', { onEvent: (e) => events.push(e) });
    expect(replay.status).toBe('completed');
    expect(replay.runId).not.toBe(first.result.runId);
    const roles = ofType(events, 'llm.started').map((e) => e.agentRole);
    expect(roles).toEqual(['Beta', 'Gamma']); // no call for task one
    expect(ofType(events, 'task.completed')[0]).toMatchObject({ taskId: 'one', raw: 'ALPHA says 1', restoredFrom: first.result.runId });
    expect(ofType(events, 'task.started').find((e) => e.taskId === 'two')!.context).toBe('ALPHA says 1');
    expect(replay.tasks.map((t) => t.raw)).toEqual(['ALPHA says 1', 'BETA says 2', 'GAMMA says 3']);
    expect(ofType(events, 'run.started')[0]!.replayOf).toEqual({ runId: first.result.runId, fromTaskId: 'two' });
    expect(ws.store.getRun(replay.runId)?.replayOf).toEqual({ runId: first.result.runId, fromTaskId: 'two' });
    expect(ws.store.taskOutputs(replay.runId).map((o) => o.taskId)).toEqual(['one', 'two', 'three']);
  });

  it('names the problem for an unknown run or task', async () => {
    const llm = scripted({ default: 'ok' });
    const doc = crew({ agents: [{ id: 'a', role: 'A', goal: 'g', llm }], tasks: [{ id: 'only', description: 'd', expectedOutput: 'x', agentId: 'a' }] });
    const { result, runtime, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    await expect(runtime.replay('run_nope', 'only')).rejects.toBeInstanceOf(RunNotFound);
    await expect(runtime.replay(result.runId, 'missing')).rejects.toThrow(new TaskNotFound('missing', ['only']).message);
  });

  it('refuses to replay past a task that never finished, and says where to start instead', async () => {
    const llm = scripted({ default: 'draft' });
    const doc = crew({
      agents: [{ id: 'a', role: 'A', goal: 'g', llm }],
      tasks: [
        { id: 'one', description: 'd', expectedOutput: 'x', agentId: 'a' },
        { id: 'two', description: 'd', expectedOutput: 'x', agentId: 'a', guardrails: [{ type: 'contains', text: 'NEVER' }], guardrailMaxRetries: 0 },
        { id: 'three', description: 'd', expectedOutput: 'x', agentId: 'a' },
      ],
    });
    const { result, runtime, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.status).toBe('failed');
    const attempt = runtime.replay(result.runId, 'three');
    await expect(attempt).rejects.toBeInstanceOf(ReplayNotPossible);
    await expect(attempt).rejects.toThrow('task "two" did not finish');
    expect(ws.store.listRuns()).toHaveLength(1); // nothing was started
  });
});
