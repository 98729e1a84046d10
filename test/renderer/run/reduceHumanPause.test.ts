import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../shared/events';
import { pausingHuman } from '../../../runtime/human/humanPause';
import { createRuntime } from '../../../runtime/runtime';
import { foldRunEvents } from '../../../renderer/stores/reduceRunEvent';
import { emptyRunView } from '../../../renderer/stores/runView';
import { crew, scripted, tempWorkspace } from '../../support/crewHarness';

/**
 * A crew paused at a task review (the events a real run makes with a human who answers later, as a team
 * worker's): the trace shows the task paused, waiting for a person, and the question waiting (not
 * cancelled with the agent that asked); after the resume it is answered and the run completes.
 */
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('reduceRunEvent: a crew paused for a person', () => {
  it('keeps the question waiting while the run is paused, and answered after the resume', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const doc = crew({
      agents: [{ id: 'w', role: 'Writer', goal: 'g', llm: scripted({ default: 'A draft.' }) }],
      tasks: [{ id: 'write', description: 'Write it', expectedOutput: 'text', agentId: 'w', humanInput: true }],
    });
    const events: RuntimeEvent[] = [];
    const runtime = createRuntime({ workspace: ws.dir, store: ws.store, human: pausingHuman });
    const first = await runtime.runCrew(doc, { onEvent: (e) => events.push(e) });
    const paused = foldRunEvents(emptyRunView(first.runId, doc), events);
    expect(paused.status).toBe('paused');
    expect(paused.pausedFor).toMatchObject({ methodId: 'write', reason: 'human' });
    const human = [...paused.spans.values()].find((s) => s.kind === 'human')!;
    expect(human.status).toBe('waiting');
    const task = [...paused.spans.values()].find((s) => s.kind === 'task')!;
    expect(task).toMatchObject({ status: 'paused', sublabel: 'Writer · waits for a person' });
    expect(paused.nodeStatus['task:write']).toBe('waiting');

    await runtime.resume(first.runId, { feedback: '', onEvent: (e) => events.push(e) });
    const done = foldRunEvents(emptyRunView(first.runId, doc), events);
    expect(done.status).toBe('completed');
    expect(done.spans.get(human.id)?.status).toBe('done');
    expect([...done.spans.values()].filter((s) => s.status === 'cancelled' || s.status === 'failed')).toEqual([]);
  });
});
