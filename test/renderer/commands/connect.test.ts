import { describe, expect, it } from 'vitest';
import { CommandRejected } from '../../../renderer/commands/command';
import { connectNodes } from '../../../renderer/commands/connect';
import { checkConnection } from '../../../renderer/commands/connectionRule';
import { disconnectEdges } from '../../../renderer/commands/disconnect';
import { hierarchicalCrew, sequentialCrew } from '../document/crewFixtures';

describe('connect', () => {
  it('task → agent assigns the task', () => {
    const doc = sequentialCrew();
    const next = connectNodes('task:research', 'agent:writer').perform(doc);
    expect(next.tasks![0]!.agentId).toBe('writer');
    expect(doc.tasks![0]!.agentId).toBe('researcher');
  });

  it('accepts the drag in either direction between a task and an agent', () => {
    const next = connectNodes('agent:writer', 'task:research').perform(sequentialCrew());
    expect(next.tasks![0]!.agentId).toBe('writer');
  });

  it('earlier task → later task adds a context entry; "none" or omitted context becomes a list', () => {
    const doc = sequentialCrew();
    const fromNone = connectNodes('task:research', 'task:outline').perform(doc);
    expect(fromNone.tasks![1]!.context).toEqual(['research']);
    doc.tasks![1] = { ...doc.tasks![1], context: undefined };
    expect(connectNodes('task:research', 'task:outline').perform(doc).tasks![1]!.context).toEqual(['research']);
  });

  it('an existing connection changes nothing', () => {
    const doc = sequentialCrew();
    expect(connectNodes('task:research', 'task:brief').perform(doc)).toBe(doc);
    expect(connectNodes('task:brief', 'agent:writer').perform(doc)).toBe(doc);
  });

  it('refuses context from a later task, a task to itself, agent to agent, and tasks to the manager, with reasons', () => {
    const doc = sequentialCrew();
    const later = checkConnection(doc, 'task:brief', 'task:research');
    expect(later.ok).toBe(false);
    expect(!later.ok && later.reason).toMatch(/runs after .*earlier task/);
    expect(() => connectNodes('task:brief', 'task:research').perform(doc)).toThrow(CommandRejected);
    expect(checkConnection(doc, 'task:brief', 'task:brief').ok).toBe(false);
    expect(checkConnection(doc, 'agent:writer', 'agent:researcher').ok).toBe(false);

    const h = hierarchicalCrew();
    expect(checkConnection(h, 'task:pricing', 'manager').ok).toBe(false);
    expect(checkConnection(h, 'manager', 'agent:analyst').ok).toBe(false);
    h.manager = { agentId: 'analyst' };
    const toManager = checkConnection(h, 'task:pricing', 'agent:analyst');
    expect(!toManager.ok && toManager.reason).toMatch(/manager/);
  });

  it('disconnect removes an assignment or one context entry ("none" when the list empties)', () => {
    const doc = sequentialCrew();
    const unassigned = disconnectEdges([{ kind: 'assignment', task: 'task:brief' }]).perform(doc);
    expect('agentId' in unassigned.tasks![2]!).toBe(false);
    const one = disconnectEdges([{ kind: 'context', source: 'task:research', target: 'task:brief' }]).perform(doc);
    expect(one.tasks![2]!.context).toEqual(['outline']);
    const both = disconnectEdges([
      { kind: 'context', source: 'task:research', target: 'task:brief' },
      { kind: 'context', source: 'task:outline', target: 'task:brief' },
    ]).perform(doc);
    expect(both.tasks![2]!.context).toBe('none');
    expect(disconnectEdges([{ kind: 'context', source: 'task:brief', target: 'task:research' }]).perform(doc)).toBe(doc);
  });
});
