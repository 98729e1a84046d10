import { describe, expect, it } from 'vitest';
import type { EventOf, RuntimeEvent } from '../../../shared/events';
import { foldRunEvents } from '../../../renderer/stores/reduceRunEvent';
import { emptyRunView, type RunView } from '../../../renderer/stores/runView';
import { exampleDocument, recordedEvents } from './runFixtures';

/**
 * A crew paused at its budget (a real run of the research brief under a 1-token cap, resumed with a
 * higher one: scripts/recordFixtures.ts). The task and agent the cap stopped are paused, not failed.
 */
const events = recordedEvents('run-budget-paused-resumed');
const fold = (upTo: number): RunView => foldRunEvents(emptyRunView(events[0]!.runId, exampleDocument('research-brief')), events.filter((e) => e.seq <= upTo));
const first = <K extends RuntimeEvent['type']>(type: K) => events.find((e): e is EventOf<K> => e.type === type)!;

describe('reduceRunEvent: a task stopped by the budget', () => {
  const paused = first('run.paused');
  const view = fold(paused.seq);
  const taskPaused = first('task.paused');
  const agentPaused = first('agent.paused');

  it('shows the task, its agent and their nodes as paused (none failed), and the run paused at the budget', () => {
    expect(paused.reason).toBe('budget');
    expect(view.status).toBe('paused');
    expect(view.pausedFor).toEqual({ requestId: paused.requestId, methodId: 'research', reason: 'budget' });
    expect(view.tasks.research).toMatchObject({ status: 'paused', agentRole: 'Researcher' });
    expect(view.tasks.research!.error).toBeUndefined();
    const task = view.spans.get(taskPaused.spanId)!;
    expect(task.kind).toBe('task');
    expect(task.status).toBe('paused');
    expect(task.sublabel).toContain('paused at the budget');
    expect(view.spans.get(agentPaused.spanId)).toMatchObject({ kind: 'agent', status: 'paused' });
    expect(view.nodeStatus['task:research']).toBe('paused');
    expect(view.nodeStatus['agent:researcher']).toBe('paused');
    expect([...view.spans.values()].filter((s) => s.status === 'failed')).toEqual([]);
    expect(Object.values(view.nodeStatus)).not.toContain('failed');
  });

  it('after the resume the task runs again in a new span and the run completes; the stopped attempt stays paused', () => {
    const done = fold(events.length);
    expect(done.status).toBe('completed');
    expect(done.tasks.research!.status).toBe('done');
    expect(done.tasks.brief!.status).toBe('done');
    expect(done.nodeStatus['task:research']).toBe('done');
    expect(done.spans.get(taskPaused.spanId)!.status).toBe('paused');
    const researchSpans = [...done.spans.values()].filter((s) => s.kind === 'task' && s.taskId === 'research');
    expect(researchSpans.map((s) => s.status)).toEqual(['paused', 'done']);
    expect([...done.spans.values()].filter((s) => s.status === 'failed' && s.kind !== 'guardrail')).toEqual([]);
  });
});
