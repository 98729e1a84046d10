import { describe, expect, it } from 'vitest';
import { addAgent } from '../../../renderer/commands/addAgent';
import type { Command } from '../../../renderer/commands/command';
import type { CrewDraft } from '../../../renderer/commands/crewDraft';
import { deleteNodes } from '../../../renderer/commands/deleteNodes';
import { moveNodes } from '../../../renderer/commands/moveNodes';
import { renameEntity } from '../../../renderer/commands/renameEntity';
import { updateEntity } from '../../../renderer/commands/updateEntity';
import { applyPatch, diffDocuments, PatchMismatch } from '../../../renderer/stores/documentPatch';
import { EMPTY_HISTORY, HISTORY_LIMIT, recordEdit, redoStep, sealHistory, undoStep, type UndoHistory } from '../../../renderer/stores/undoHistory';
import { sequentialCrew } from './crewFixtures';

/** Runs commands through the history as the document store does. */
function edit(doc: CrewDraft, history: UndoHistory, command: Command) {
  const next = command.perform(doc);
  return { doc: next, history: next === doc ? history : recordEdit(history, doc, next, command) };
}

describe('document patches', () => {
  it('turn one document into the other and back, key order included, copying only the changed path', () => {
    const before = sequentialCrew();
    const after = updateEntity('agent:writer', { goal: 'Shorter briefs' }).perform(before);
    const redo = diffDocuments(before, after);
    expect(redo).toEqual([{ path: ['agents', 1, 'goal'], value: 'Shorter briefs' }]);
    const back = applyPatch(after, diffDocuments(after, before));
    expect(JSON.stringify(back)).toBe(JSON.stringify(before));
    expect(back.tasks).toBe(after.tasks);
    expect(back.agents?.[0]).toBe(after.agents?.[0]);
  });

  it('put an object whose keys changed whole, so removing a middle field and undoing it keeps the order', () => {
    const before = sequentialCrew();
    const after = updateEntity('agent:researcher', { goal: undefined }).perform(before);
    expect(Object.keys(after.agents![0]!)).not.toContain('goal');
    const patch = diffDocuments(after, before);
    expect(patch.map((p) => p.path)).toEqual([['agents', 0]]);
    expect(Object.keys(applyPatch(after, patch).agents![0]!)).toEqual(Object.keys(before.agents![0]!));
  });

  it('refuse a document they were not made from', () => {
    const doc = sequentialCrew();
    expect(() => applyPatch({ ...doc, agents: 'none' }, [{ path: ['agents', 1, 'goal'], value: 'x' }])).toThrow(PatchMismatch);
  });
});

describe('the undo history', () => {
  it('undoes and redoes a series of edits, and a new edit drops the redo branch', () => {
    const start = sequentialCrew();
    let s = { doc: start, history: EMPTY_HISTORY };
    const steps: CrewDraft[] = [start];
    for (const command of [addAgent({ x: 5, y: 5 }), renameEntity('task:outline', 'plan'), moveNodes({ 'task:plan': { x: 300, y: 40 } }), deleteNodes(['agent:researcher'])]) {
      s = edit(s.doc, s.history, command);
      steps.push(s.doc);
    }
    expect(s.history.past.map((e) => e.label)).toEqual(['Add agent', expect.stringMatching(/^Rename/), 'Move', expect.stringMatching(/^Delete/)]);
    for (let i = steps.length - 2; i >= 0; i--) {
      s = undoStep(s.history, s.doc)!;
      expect(s.doc).toEqual(steps[i]);
    }
    expect(undoStep(s.history, s.doc)).toBeUndefined();
    for (let i = 1; i < steps.length; i++) {
      s = redoStep(s.history, s.doc)!;
      expect(JSON.stringify(s.doc)).toBe(JSON.stringify(steps[i]));
    }
    expect(redoStep(s.history, s.doc)).toBeUndefined();
    s = undoStep(s.history, s.doc)!;
    s = undoStep(s.history, s.doc)!;
    expect(s.history.future).toHaveLength(2);
    s = edit(s.doc, s.history, updateEntity('agent:writer', { role: 'Editor' }));
    expect(s.history.future).toEqual([]);
    expect(s.history.past).toHaveLength(3);
  });

  it('joins edits with the same coalesce key into one step until sealed; undo and redo seal it too', () => {
    const start = sequentialCrew();
    let s = { doc: start, history: EMPTY_HISTORY };
    for (const role of ['E', 'Ed', 'Edi']) s = edit(s.doc, s.history, updateEntity('agent:writer', { role }, { coalesceKey: 'writer:role' }));
    expect(s.history.past).toHaveLength(1);
    expect(s.history.past[0]!.redo).toEqual([{ path: ['agents', 1, 'role'], value: 'Edi' }]);
    expect(s.history.past[0]!.undo).toEqual([{ path: ['agents', 1, 'role'], value: 'Writer' }]);
    s = { ...s, history: sealHistory(s.history) };
    s = edit(s.doc, s.history, updateEntity('agent:writer', { role: 'Edit' }, { coalesceKey: 'writer:role' }));
    expect(s.history.past).toHaveLength(2);
    s = undoStep(s.history, s.doc)!;
    s = edit(s.doc, s.history, updateEntity('agent:writer', { role: 'Editor' }, { coalesceKey: 'writer:role' }));
    expect(s.history.past).toHaveLength(2);
    s = undoStep(s.history, s.doc)!;
    s = undoStep(s.history, s.doc)!;
    expect(s.doc).toEqual(start);
  });

  it('a drag is one step: the positions it ends at, undone to where it started', () => {
    const start = sequentialCrew();
    const s = edit(start, EMPTY_HISTORY, moveNodes({ 'task:research': { x: 120.4, y: 80.6 }, 'task:brief': { x: 400, y: 10 } }));
    expect(s.history.past).toHaveLength(1);
    expect(s.doc.layout?.['task:research']).toEqual({ x: 120, y: 81 });
    expect(undoStep(s.history, s.doc)!.doc.layout).toEqual(start.layout);
  });

  it(`keeps the last ${HISTORY_LIMIT} steps`, () => {
    let s = { doc: sequentialCrew(), history: EMPTY_HISTORY };
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) s = edit(s.doc, s.history, updateEntity('agent:writer', { goal: `goal ${i}` }));
    expect(s.history.past).toHaveLength(HISTORY_LIMIT);
    while (s.history.past.length > 0) s = undoStep(s.history, s.doc)!;
    expect(s.doc.agents?.[1]!.goal).toBe('goal 4');
  });
});
