import { describe, expect, it } from 'vitest';
import { parseCrewDocument } from '../../../shared/model/parse';
import { copyNodes } from '../../../renderer/commands/clipboard';
import { pasteNodes } from '../../../renderer/commands/pasteNodes';
import { sequentialCrew } from '../document/crewFixtures';

describe('copy and paste', () => {
  it('pastes copies with fresh unique ids and roles, offset, with references between the copies remapped', () => {
    const doc = sequentialCrew();
    const clip = copyNodes(doc, ['agent:writer', 'task:outline', 'task:brief', 'manager'])!;
    expect(clip.agents.map((a) => a.id)).toEqual(['writer']);
    expect(clip.tasks.map((t) => t.id)).toEqual(['outline', 'brief']);

    const next = pasteNodes(clip, { x: 40, y: 40 }).perform(doc);
    expect(next.agents!.map((a) => a.id)).toEqual(['researcher', 'writer', 'writer-2']);
    expect(next.agents![2]!.role).toBe('Writer (copy)');
    expect(next.tasks!.map((t) => t.id)).toEqual(['research', 'outline', 'brief', 'outline-2', 'brief-2']);
    const [outline2, brief2] = next.tasks!.slice(3);
    expect(outline2!.agentId).toBe('writer-2');
    expect(brief2!.agentId).toBe('writer-2');
    // research was not copied but is still in the crew (and earlier): kept; outline → its copy.
    expect(brief2!.context).toEqual(['research', 'outline-2']);
    expect(next.layout!['task:brief-2']).toEqual({ x: 40, y: 340 });
    expect(next.layout!['agent:writer-2']).toEqual({ x: 440, y: 190 });
    expect(parseCrewDocument(next).ok).toBe(true);
  });

  it('pasting twice never repeats an id or a role', () => {
    const doc = sequentialCrew();
    const clip = copyNodes(doc, ['agent:writer'])!;
    const twice = pasteNodes(clip).perform(pasteNodes(clip).perform(doc));
    const ids = twice.agents!.map((a) => a.id);
    const roles = twice.agents!.map((a) => String(a.role).toLowerCase());
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(roles).size).toBe(roles.length);
    expect(ids.every((id) => /^[A-Za-z0-9_-]+$/.test(String(id)))).toBe(true);
  });

  it('the clipboard is a deep copy: later edits to the document do not change it', () => {
    const doc = sequentialCrew();
    const clip = copyNodes(doc, ['task:brief'])!;
    (doc.tasks![2]!.guardrails as unknown[]).push({ type: 'contains', text: 'x' });
    expect(clip.tasks[0]!.guardrails).toHaveLength(2);
    expect(copyNodes(doc, ['manager'])).toBeUndefined();
  });

  it('a pasted task whose agent is gone is left unassigned; context to missing tasks is dropped', () => {
    const doc = sequentialCrew();
    const clip = copyNodes(doc, ['task:brief'])!;
    const without = { ...doc, agents: [doc.agents![0]!], tasks: [doc.tasks![0]!] };
    const next = pasteNodes(clip).perform(without);
    expect(next.tasks![1]!.agentId).toBeUndefined();
    expect(next.tasks![1]!.context).toEqual(['research']);
  });
});
