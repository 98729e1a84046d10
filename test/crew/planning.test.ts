import { afterEach, describe, expect, it } from 'vitest';
import { agentPrompts, crew, ofType, runCrew, scripted } from '../support/crewHarness';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('planning', () => {
  it('a planner writes a plan per task that is appended to the task description', async () => {
    const planner = scripted({ default: '{"plans": [{"taskId": "outline", "plan": "1. List the sections\\n2. Order them"}]}' }, 'planner');
    const doc = crew({
      planning: { enabled: true, llm: planner },
      agents: [{ id: 'w', role: 'Writer', goal: 'write', llm: scripted({ default: 'Intro, Body, End' }) }],
      tasks: [
        { id: 'outline', description: 'Outline the post', expectedOutput: 'sections', agentId: 'w' },
        { id: 'title', description: 'Title the post', expectedOutput: 'a title', agentId: 'w' },
      ],
    });
    const { result, events, ws } = await runCrew(doc);
    cleanups.push(ws.remove);
    expect(result.status).toBe('completed');
    expect(ofType(events, 'planning.completed')[0]!.plans).toEqual({ outline: '1. List the sections\n2. Order them' });
    const planningCall = ofType(events, 'llm.started').find((e) => e.purpose === 'planning')!;
    expect(planningCall.messages[1]!.content).toContain('id "title"');
    const [first, second] = agentPrompts(events);
    expect(first).toContain('Outline the post\n\nPlan:\n1. List the sections\n2. Order them');
    expect(second).not.toContain('Plan:');
    // The planner's tokens count in the run total but belong to no task.
    expect(result.tokenUsage.requests).toBe(3);
    expect(result.usageByTask.outline!.requests + result.usageByTask.title!.requests).toBe(2);
  });
});
