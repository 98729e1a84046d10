import { describe, expect, it } from 'vitest';
import { CommandRejected } from '../../../renderer/commands/command';
import { renameEntity } from '../../../renderer/commands/renameEntity';
import { setProcess } from '../../../renderer/commands/setProcess';
import { updateCrew } from '../../../renderer/commands/updateCrew';
import { updateEntity } from '../../../renderer/commands/updateEntity';
import { hierarchicalCrew, sequentialCrew } from '../document/crewFixtures';

describe('field edits', () => {
  it('updateEntity sets and removes fields of an agent or task without touching others', () => {
    const doc = sequentialCrew();
    const next = updateEntity('agent:writer', { role: 'Editor', maxIter: 5 }).perform(doc);
    expect(next.agents![1]).toMatchObject({ id: 'writer', role: 'Editor', maxIter: 5, goal: 'Write briefs' });
    expect(next.agents![0]).toBe(doc.agents![0]);
    expect(next.tasks).toBe(doc.tasks);
    const removed = updateEntity('task:brief', { humanInput: undefined }).perform(doc);
    expect('humanInput' in removed.tasks![2]!).toBe(false);
  });

  it('an edit that changes nothing returns the same document', () => {
    const doc = sequentialCrew();
    expect(updateEntity('agent:writer', { role: 'Writer' }).perform(doc)).toBe(doc);
    expect(updateEntity('task:brief', { guardrails: [{ type: 'contains', text: 'SHIP IT' }, { type: 'length', max: 600 }] }).perform(doc)).toBe(doc);
    expect(updateCrew({ name: 'Research brief' }).perform(doc)).toBe(doc);
    expect(updateEntity('agent:ghost', { role: 'x' }).perform(doc)).toBe(doc);
  });

  it('carries the coalesce key so the store can merge typing', () => {
    expect(updateEntity('agent:writer', { role: 'W' }, { coalesceKey: 'agent:writer:role' }).coalesceKey).toBe('agent:writer:role');
  });

  it('refuses to change an id by a plain update', () => {
    expect(() => updateEntity('agent:writer', { id: 'w' }).perform(sequentialCrew())).toThrow(CommandRejected);
  });

  it('renaming an agent updates task assignments, manager.agentId and the saved position', () => {
    const doc = hierarchicalCrew();
    doc.manager = { agentId: 'analyst' };
    doc.layout = { 'agent:analyst': { x: 5, y: 6 } };
    const next = renameEntity('agent:analyst', 'pricer').perform(doc);
    expect(next.agents![0]!.id).toBe('pricer');
    expect(next.tasks![0]!.agentId).toBe('pricer');
    expect(next.manager).toEqual({ agentId: 'pricer' });
    expect(next.layout).toEqual({ 'agent:pricer': { x: 5, y: 6 } });
  });

  it('renaming a task updates context lists', () => {
    const next = renameEntity('task:research', 'facts').perform(sequentialCrew());
    expect(next.tasks![0]!.id).toBe('facts');
    expect(next.tasks![2]!.context).toEqual(['facts', 'outline']);
    expect(next.layout!['task:facts']).toEqual({ x: 0, y: 0 });
    expect(next.layout!['task:research']).toBeUndefined();
  });

  it('refuses invalid and taken ids', () => {
    const doc = sequentialCrew();
    expect(() => renameEntity('task:research', 'has space').perform(doc)).toThrow(/letters, digits/);
    expect(() => renameEntity('task:research', 'brief').perform(doc)).toThrow(/already has the id "brief"/);
    // An agent may share an id with a task: they are separate namespaces.
    expect(renameEntity('agent:writer', 'brief').perform(doc).agents![1]!.id).toBe('brief');
  });

  it('switching to sequential drops the manager; to hierarchical keeps everything', () => {
    const doc = hierarchicalCrew();
    const seq = setProcess('sequential').perform(doc);
    expect(seq.process).toBe('sequential');
    expect('manager' in seq).toBe(false);
    const back = setProcess('hierarchical').perform(seq);
    expect(back.process).toBe('hierarchical');
    expect(setProcess('hierarchical').perform(doc)).toBe(doc);
  });
});
