import { describe, expect, it } from 'vitest';
import { layoutAll } from '../../../renderer/commands/layoutAll';
import { moveNodes } from '../../../renderer/commands/moveNodes';
import { reorderTask } from '../../../renderer/commands/reorderTask';
import { hierarchicalCrew, sequentialCrew } from '../document/crewFixtures';

describe('moving and ordering', () => {
  it('moveNodes saves rounded positions and changes nothing when nothing moved', () => {
    const doc = sequentialCrew();
    const next = moveNodes({ 'agent:writer': { x: 400.4, y: 149.6 } }).perform(doc);
    expect(next).toBe(doc);
    const moved = moveNodes({ 'agent:writer': { x: 500.2, y: 10 }, 'task:brief': { x: 0, y: 300 } }).perform(doc);
    expect(moved.layout!['agent:writer']).toEqual({ x: 500, y: 10 });
    expect(moved.layout!['task:brief']).toEqual({ x: 0, y: 300 });
  });

  it('reorderTask swaps a task with its neighbour, their positions too, and drops context that would point forward', () => {
    const doc = sequentialCrew();
    const up = reorderTask('task:brief', -1).perform(doc);
    expect(up.tasks!.map((t) => t.id)).toEqual(['research', 'brief', 'outline']);
    // brief read outline's output; outline now runs after it.
    expect(up.tasks![1]!.context).toEqual(['research']);
    expect(up.layout!['task:brief']).toEqual({ x: 0, y: 150 });
    expect(up.layout!['task:outline']).toEqual({ x: 0, y: 300 });

    const down = reorderTask('task:research', 1).perform(doc);
    expect(down.tasks!.map((t) => t.id)).toEqual(['outline', 'research', 'brief']);
    expect(down.tasks![2]!.context).toEqual(['research', 'outline']);
  });

  it('a context list emptied by a reorder becomes "none"', () => {
    const doc = sequentialCrew();
    doc.tasks![1] = { ...doc.tasks![1], context: ['research'] };
    const up = reorderTask('task:outline', -1).perform(doc);
    expect(up.tasks![0]).toMatchObject({ id: 'outline', context: 'none' });
  });

  it('cannot move the first task up or the last down', () => {
    const doc = sequentialCrew();
    expect(reorderTask('task:research', -1).perform(doc)).toBe(doc);
    expect(reorderTask('task:brief', 1).perform(doc)).toBe(doc);
  });

  it('auto-layout writes a position for every node: tasks in a column in order, agents beside, manager above them', () => {
    const doc = hierarchicalCrew();
    const next = layoutAll().perform(doc);
    const l = next.layout!;
    expect(Object.keys(l).sort()).toEqual(['agent:analyst', 'agent:copywriter', 'manager', 'task:announce', 'task:pricing']);
    expect(l['task:pricing']!.x).toBe(l['task:announce']!.x);
    expect(l['task:pricing']!.y).toBeLessThan(l['task:announce']!.y);
    expect(l['agent:analyst']!.x).toBeGreaterThan(l['task:pricing']!.x);
    expect(l['manager']!.y).toBeLessThan(Math.min(l['agent:analyst']!.y, l['agent:copywriter']!.y));
    expect(layoutAll().perform(next)).toBe(next);
  });

  it('auto-layout keeps a long crew in order and uses measured sizes', () => {
    const doc = sequentialCrew();
    doc.tasks = Array.from({ length: 12 }, (_, i) => ({ id: `t${i}`, description: 'd', expectedOutput: 'o', agentId: i % 3 === 0 ? 'researcher' : 'writer' }));
    const l = layoutAll({ 'task:t0': { width: 272, height: 400 } }).perform(doc).layout!;
    const ys = doc.tasks.map((t) => l[`task:${t.id}`]!.y);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    expect(ys[1]! - ys[0]!).toBeGreaterThanOrEqual(400);
  });
});
