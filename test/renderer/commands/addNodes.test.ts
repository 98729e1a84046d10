import { describe, expect, it } from 'vitest';
import { parseCrewDocument } from '../../../shared/model/parse';
import { addAgent } from '../../../renderer/commands/addAgent';
import { addTask } from '../../../renderer/commands/addTask';
import type { CrewDraft } from '../../../renderer/commands/crewDraft';
import { freshId } from '../../../renderer/commands/freshId';
import { sequentialCrew } from '../document/crewFixtures';

describe('addAgent / addTask', () => {
  it('adds an agent with a unique valid id and role, empty fields (placeholders only) flagged until filled, at the drop position', () => {
    const doc = sequentialCrew();
    const next = addAgent({ x: 10.4, y: 20.6 }).perform(doc);
    expect(next).not.toBe(doc);
    expect(doc.agents).toHaveLength(2);
    const added = next.agents![2];
    expect(added).toMatchObject({ id: 'agent-3', role: 'Agent 3', goal: '', backstory: '', tools: [] });
    expect(next.layout!['agent:agent-3']).toEqual({ x: 10, y: 21 });
    const parsed = parseCrewDocument(next);
    // The goal is the one field to fill before a run; no made-up goal goes into a prompt.
    expect(parsed.ok ? [] : parsed.problems.map((p) => p.path)).toEqual(['agents.2.goal']);

    const again = addAgent().perform(next);
    expect(again.agents!.map((a) => a.id)).toEqual(['researcher', 'writer', 'agent-3', 'agent-4']);
    expect(new Set(again.agents!.map((a) => a.role)).size).toBe(4);
    // Without a drop point it goes under the lowest agent.
    expect(again.layout!['agent:agent-4']!.y).toBeGreaterThan(again.layout!['agent:agent-3']!.y);
  });

  it('never reuses an id or role, even when the obvious one is taken', () => {
    const doc: CrewDraft = { agents: [{ id: 'agent-1', role: 'agent 1' }, { id: 'agent-2', role: 'Agent 2' }], tasks: [] };
    const next = addAgent().perform({ ...doc, agents: [doc.agents![0]!] });
    expect(next.agents![1]).toMatchObject({ id: 'agent-2', role: 'Agent 2' });
    const third = addAgent().perform(doc);
    expect(third.agents![2]).toMatchObject({ id: 'agent-3', role: 'Agent 3' });
    expect(freshId('Agent 3', new Set(['agent-3', 'agent-4']))).toBe('agent-5');
    expect(freshId('!!!', new Set())).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('adds a task at the end of the order with placeholders, unassigned', () => {
    const doc = sequentialCrew();
    const next = addTask({ x: 0, y: 900 }).perform(doc);
    const added = next.tasks![3];
    expect(added).toMatchObject({ id: 'task-4', name: 'Task 4' });
    expect(added!.agentId).toBeUndefined();
    // Placeholders, not values: nothing made up goes into a prompt if the person forgets a field.
    expect(added).toMatchObject({ description: '', expectedOutput: '' });
    expect(next.layout!['task:task-4']).toEqual({ x: 0, y: 900 });
    // A sequential crew flags the missing description and the missing agent.
    const result = parseCrewDocument(next);
    expect(result.ok ? [] : result.problems.map((p) => p.path).sort()).toEqual(['tasks.3.agentId', 'tasks.3.description']);
  });

  it('starts a document with no agents or tasks arrays', () => {
    const next = addTask().perform(addAgent().perform({ kind: 'crew' } as CrewDraft));
    expect(next.agents).toHaveLength(1);
    expect(next.tasks).toHaveLength(1);
    expect(Object.keys(next.layout!)).toEqual(['agent:agent-1', 'task:task-1']);
  });
});
