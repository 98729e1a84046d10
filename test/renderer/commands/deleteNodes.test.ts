import { describe, expect, it } from 'vitest';
import { deleteNodes } from '../../../renderer/commands/deleteNodes';
import { hierarchicalCrew, sequentialCrew } from '../document/crewFixtures';

describe('deleteNodes', () => {
  it('deleting an agent clears the assignments of its tasks and its position', () => {
    const doc = sequentialCrew();
    const next = deleteNodes(['agent:writer']).perform(doc);
    expect(next.agents!.map((a) => a.id)).toEqual(['researcher']);
    expect(next.tasks!.map((t) => t.agentId)).toEqual(['researcher', undefined, undefined]);
    expect('agentId' in next.tasks![1]!).toBe(false);
    expect(next.layout!['agent:writer']).toBeUndefined();
    expect(doc.agents).toHaveLength(2);
  });

  it('deleting a task removes it from later tasks’ context; a list left empty becomes "none"', () => {
    const doc = sequentialCrew();
    const once = deleteNodes(['task:research']).perform(doc);
    expect(once.tasks!.map((t) => t.id)).toEqual(['outline', 'brief']);
    expect(once.tasks![1]!.context).toEqual(['outline']);
    const twice = deleteNodes(['task:outline']).perform(once);
    expect(twice.tasks![0]!.context).toBe('none');
    expect(Object.keys(twice.layout!).sort()).toEqual(['agent:researcher', 'agent:writer', 'task:brief']);
  });

  it('deleting the manager agent hands the crew to the built-in manager', () => {
    const doc = hierarchicalCrew();
    doc.manager = { agentId: 'analyst', delegateTo: 'all' };
    const next = deleteNodes(['agent:analyst']).perform(doc);
    expect(next.manager).toEqual({ delegateTo: 'all' });
    expect(next.tasks![0]!.agentId).toBeUndefined();
  });

  it('ignores the built-in manager and unknown ids (no change at all)', () => {
    const doc = hierarchicalCrew();
    expect(deleteNodes(['manager', 'agent:ghost']).perform(doc)).toBe(doc);
  });

  it('deletes several nodes at once, including an entry without an id', () => {
    const doc = sequentialCrew();
    doc.agents = [...doc.agents!, { role: 'Nameless' }];
    const next = deleteNodes(['agent:#2', 'task:outline', 'agent:researcher']).perform(doc);
    expect(next.agents!.map((a) => a.role)).toEqual(['Writer']);
    expect(next.tasks!.map((t) => t.id)).toEqual(['research', 'brief']);
    expect(next.tasks![1]!.context).toEqual(['research']);
    expect(next.tasks![0]!.agentId).toBeUndefined();
  });
});
