import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addAgent } from '../../../renderer/commands/addAgent';
import { connectNodes } from '../../../renderer/commands/connect';
import { deleteNodes } from '../../../renderer/commands/deleteNodes';
import { moveNodes } from '../../../renderer/commands/moveNodes';
import { updateEntity } from '../../../renderer/commands/updateEntity';
import { setHost } from '../../../renderer/host/hostContext';
import { addMethod } from '../../../renderer/commands/flow/addMethod';
import { AUTOSAVE_DELAY_MS, SAVE_RETRY_DELAYS_MS } from '../../../renderer/stores/autosave';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { hierarchicalCrew, sequentialCrew } from './crewFixtures';
import { MemoryHost } from './memoryHost';

let host: MemoryHost;
const store = () => useDocumentStore.getState();
const PATH = 'crews/brief.crew.json';

async function open(path = PATH, content: unknown = sequentialCrew()) {
  host.files.set(path, typeof content === 'string' ? content : JSON.stringify(content));
  await store().load(path);
}

beforeEach(() => {
  vi.useFakeTimers();
  host = new MemoryHost();
  setHost(host);
  useUiStore.getState().select([]);
});

afterEach(async () => {
  await vi.runOnlyPendingTimersAsync();
  await store().flushSave();
  store().close();
  vi.useRealTimers();
});

describe('document store', () => {
  it('loads a document with its problems and does not write it', async () => {
    await open();
    expect(store().loadState).toBe('ready');
    expect(store().doc?.name).toBe('Research brief');
    expect(store().problems).toEqual([]);
    expect(store().saveState).toBe('saved');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 4);
    expect(host.saves).toEqual([]);
  });

  it('open() shows the canvas with the document, clears the selection, and does not read an open document again', async () => {
    host.files.set(PATH, JSON.stringify(sequentialCrew()));
    useUiStore.getState().setView('memory');
    await store().open(PATH);
    expect(store().path).toBe(PATH);
    expect(useUiStore.getState().view).toBe('canvas');
    useUiStore.getState().select(['agent:writer']);
    await store().open(PATH);
    expect(useUiStore.getState().selectedNodeIds).toEqual([]);
    expect(host.log.filter((l) => l.startsWith('documents.'))).toEqual([`documents.read ${PATH}`]);
    await store().open(undefined);
    expect(store().path).toBeUndefined();
  });

  it('performs commands with undo and redo, each step a patch pair', async () => {
    await open();
    const original = store().doc;
    const originalText = JSON.stringify(original);
    expect(store().perform(updateEntity('agent:writer', { role: 'Editor' })).ok).toBe(true);
    expect(store().perform(deleteNodes(['task:outline']))).toEqual({ ok: true, changed: true });
    expect(store().history.past).toHaveLength(2);
    store().undo();
    expect(store().doc?.tasks).toHaveLength(3);
    expect(store().doc?.agents?.[1]!.role).toBe('Editor');
    store().undo();
    // The same document again, key order included (the file is written as it is).
    expect(JSON.stringify(store().doc)).toBe(originalText);
    // Undo copies only what changed: untouched parts are the very same objects.
    expect(store().doc?.agents?.[0]).toBe(original?.agents?.[0]);
    expect(store().doc?.tasks).toBe(original?.tasks);
    expect(store().history.past).toHaveLength(0);
    expect(store().history.future).toHaveLength(2);
    store().redo();
    store().redo();
    expect(store().doc?.tasks).toHaveLength(2);
    expect(store().history.future).toHaveLength(0);
    // A new edit after undo drops the redo branch.
    store().undo();
    store().perform(addAgent());
    expect(store().history.future).toHaveLength(0);
  });

  it('records a no-op as nothing', async () => {
    await open();
    expect(store().perform(updateEntity('agent:writer', { role: 'Writer' }))).toEqual({ ok: true, changed: false });
    expect(store().history.past).toHaveLength(0);
    expect(store().saveState).toBe('saved');
  });

  it('typing into one field is one undo step until the field is left', async () => {
    await open();
    for (const role of ['W', 'Wr', 'Wri']) store().perform(updateEntity('agent:writer', { role }, { coalesceKey: 'agent:writer:role' }));
    expect(store().history.past).toHaveLength(1);
    store().perform(updateEntity('agent:writer', { goal: 'g' }, { coalesceKey: 'agent:writer:goal' }));
    expect(store().history.past).toHaveLength(2);
    store().sealHistory();
    store().perform(updateEntity('agent:writer', { goal: 'gg' }, { coalesceKey: 'agent:writer:goal' }));
    expect(store().history.past).toHaveLength(3);
    store().undo();
    store().undo();
    expect(store().doc?.agents?.[1]).toMatchObject({ role: 'Wri', goal: 'Write briefs' });
    store().undo();
    expect(store().doc?.agents?.[1]!.role).toBe('Writer');
  });

  it('a refused command changes nothing and says why', async () => {
    await open();
    const result = store().perform(connectNodes('task:brief', 'task:research'));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/earlier task/);
    expect(store().rejection?.message).toMatch(/earlier task/);
    expect(store().history.past).toHaveLength(0);
  });

  it('autosaves once, 500 ms after the last change, and reports saved', async () => {
    await open();
    store().perform(updateEntity('agent:writer', { role: 'E' }, { coalesceKey: 'k' }));
    await vi.advanceTimersByTimeAsync(300);
    store().perform(updateEntity('agent:writer', { role: 'Ed' }, { coalesceKey: 'k' }));
    expect(store().saveState).toBe('unsaved');
    await vi.advanceTimersByTimeAsync(300);
    expect(host.saves).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(host.saves).toHaveLength(1);
    expect(store().saveState).toBe('saved');
    expect((host.saved(PATH) as { agents: { role: string }[] }).agents[1]!.role).toBe('Ed');
  });

  it('saves a document that does not validate, and keeps showing its problems', async () => {
    await open();
    store().perform(updateEntity('agent:writer', { role: '' }));
    expect(store().problems.map((p) => p.path)).toEqual(['agents.1.role']);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 10);
    expect(store().saveState).toBe('saved');
    expect((host.saved(PATH) as { agents: { role: string }[] }).agents[1]!.role).toBe('');
    expect(store().problems.map((p) => p.path)).toEqual(['agents.1.role']);
  });

  it('opens an invalid crew (valid JSON) with its problems', async () => {
    await open(PATH, { kind: 'crew', version: 1, id: 'x', name: 'X', agents: [], tasks: [{ id: 't' }] });
    expect(store().doc).toBeDefined();
    expect(store().problems.map((p) => p.path)).toEqual(expect.arrayContaining(['agents', 'tasks.0.description', 'tasks.0.expectedOutput']));
  });

  it('never overwrites a file that is not JSON; repaired text is adopted and saved', async () => {
    await open(PATH, '{ "kind": "crew", oops');
    expect(store().doc).toBeUndefined();
    expect(store().unreadable?.text).toBe('{ "kind": "crew", oops');
    expect(store().unreadable?.error).toMatch(/invalid JSON/);
    expect(store().problems).toHaveLength(1);
    expect(store().perform(addAgent()).ok).toBe(false);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 3);
    await store().flushSave();
    expect(host.saves).toHaveLength(0);
    expect(host.files.get(PATH)).toBe('{ "kind": "crew", oops');

    expect(store().replaceText('[1, 2]')).toEqual({ ok: false, error: 'the document is not a JSON object' });
    expect(store().replaceText('{ "kind": "crew", "name": "Fixed" }')).toEqual({ ok: true });
    expect(store().doc?.name).toBe('Fixed');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 10);
    expect(host.saved(PATH)).toEqual({ kind: 'crew', name: 'Fixed' });
  });

  it('a failed save shows an error and the next save retries', async () => {
    await open();
    host.failSaves = 'disk full';
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 10);
    expect(store().saveState).toBe('error');
    expect(store().saveError).toMatch(/disk full/);
    host.failSaves = undefined;
    await store().flushSave();
    expect(store().saveState).toBe('saved');
    expect((host.saved(PATH) as { agents: { role: string }[] }).agents[1]!.role).toBe('Editor');
  });

  it('opening another document first saves pending changes of the current one', async () => {
    await open();
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    host.files.set('other.crew.json', JSON.stringify(hierarchicalCrew()));
    await store().load('other.crew.json');
    expect((host.saved(PATH) as { agents: { role: string }[] }).agents[1]!.role).toBe('Editor');
    expect(store().path).toBe('other.crew.json');
    expect(store().history.past).toHaveLength(0);
  });

  it('keeps problems that only the host reports', async () => {
    host.hostOnly = [{ path: 'tasks.0.output.schema', message: 'is not a valid JSON Schema: nope' }];
    await open();
    expect(store().problems).toEqual([{ path: 'tasks.0.output.schema', message: 'is not a valid JSON Schema: nope' }]);
    store().perform(updateEntity('agent:writer', { role: '' }));
    expect(store().problems.map((p) => p.path)).toEqual(['agents.1.role', 'tasks.0.output.schema']);
  });

  it('selects what a command adds and drops what it deletes; selection is not history', async () => {
    await open();
    store().perform(addAgent({ x: 0, y: 0 }));
    expect(useUiStore.getState().selectedNodeIds).toEqual(['agent:agent-3']);
    useUiStore.getState().select(['agent:agent-3', 'task:brief']);
    expect(store().history.past).toHaveLength(1);
    store().perform(deleteNodes(['agent:agent-3']));
    expect(useUiStore.getState().selectedNodeIds).toEqual(['task:brief']);
  });

  it('copies and pastes nodes, each paste further offset and selected', async () => {
    await open();
    expect(store().copy(['agent:writer', 'manager'])).toBe(true);
    store().paste();
    store().paste();
    const agents = store().doc!.agents!.map((a) => a.id);
    expect(agents).toEqual(['researcher', 'writer', 'writer-2', 'writer-3']);
    const layout = store().doc!.layout!;
    expect(layout['agent:writer-2']).toEqual({ x: 440, y: 190 });
    expect(layout['agent:writer-3']).toEqual({ x: 480, y: 230 });
    expect(useUiStore.getState().selectedNodeIds).toEqual(['agent:writer-3']);
    expect(store().copy(['manager'])).toBe(false);
  });

  it('gives every node a saved position at the first edit of a document without a layout', async () => {
    await open(PATH, hierarchicalCrew());
    expect(store().doc?.layout).toBeUndefined();
    store().perform(moveNodes({ 'agent:analyst': { x: 1, y: 2 } }));
    const layout = store().doc!.layout!;
    expect(Object.keys(layout).sort()).toEqual(['agent:analyst', 'agent:copywriter', 'manager', 'task:announce', 'task:pricing']);
    expect(layout['agent:analyst']).toEqual({ x: 1, y: 2 });
    store().undo();
    expect(store().doc?.layout).toBeUndefined();
  });

  it('reports a document that cannot be read', async () => {
    await store().load('missing.crew.json');
    expect(store().loadState).toBe('error');
    expect(store().loadError).toMatch(/no document/);
  });
});

const roleOf = (doc: unknown, i: number) => (doc as { agents: { role: string }[] }).agents[i]!.role;

describe('closing, renaming and deleting the open document', () => {
  it('close() drops the document, its history and the pending autosave', async () => {
    await open();
    useUiStore.getState().select(['agent:writer']);
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    store().close();
    expect(store().path).toBeUndefined();
    expect(store().doc).toBeUndefined();
    expect(store().history.past).toEqual([]);
    expect(store().problems).toEqual([]);
    expect(store().saveState).toBe('saved');
    expect(store().loadState).toBe('idle');
    expect(useUiStore.getState().selectedNodeIds).toEqual([]);
    store().undo();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 4);
    await store().flushSave();
    expect(host.saves).toEqual([]);
  });

  it('a load that is still reading when the document is closed does not reopen it', async () => {
    host.files.set(PATH, JSON.stringify(sequentialCrew()));
    const loading = store().load(PATH);
    store().close();
    await loading;
    expect(store().path).toBeUndefined();
    expect(store().doc).toBeUndefined();
  });

  it('deleting the open document saves its last edits to the trash copy, closes it and never writes it back', async () => {
    await open();
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    await store().deleteDocument();
    expect(host.log.filter((l) => l.startsWith('documents.'))).toEqual([`documents.read ${PATH}`, `documents.save ${PATH}`, `documents.delete ${PATH}`]);
    expect(host.files.has(PATH)).toBe(false);
    expect(store().doc).toBeUndefined();
    expect(store().history.past).toEqual([]);
    await vi.advanceTimersByTimeAsync(SAVE_RETRY_DELAYS_MS.at(-1)! * 2);
    expect(host.files.has(PATH)).toBe(false);
  });

  it('a failing save retried during the delete does not bring the file back', async () => {
    await open();
    host.failSaves = 'disk full';
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 10);
    expect(store().saveState).toBe('error');
    host.failSaves = undefined;
    await store().deleteDocument();
    await vi.advanceTimersByTimeAsync(SAVE_RETRY_DELAYS_MS.at(-1)! * 2);
    expect(host.files.has(PATH)).toBe(false);
  });

  it('renaming the open document keeps it open with its history; later edits go to the new path only', async () => {
    await open();
    useUiStore.getState().select(['agent:writer']);
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    await store().renameTo('renamed.crew.json');
    expect(roleOf(host.saved('renamed.crew.json'), 1)).toBe('Editor');
    expect(host.files.has(PATH)).toBe(false);
    expect(store().path).toBe('renamed.crew.json');
    expect(useUiStore.getState().selectedNodeIds).toEqual(['agent:writer']);
    expect(store().history.past).toHaveLength(1);
    store().undo();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 10);
    expect(roleOf(host.saved('renamed.crew.json'), 1)).toBe('Writer');
    expect(host.files.has(PATH)).toBe(false);
    expect(host.saves.map((s) => s.path)).toEqual([PATH, 'renamed.crew.json']);
  });

  it('an edit made while the rename is on its way is saved to the new path', async () => {
    await open();
    let release!: () => void;
    host.renameGate = new Promise<void>((r) => (release = r));
    const renaming = store().renameTo('renamed.crew.json');
    await vi.advanceTimersByTimeAsync(0);
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 3);
    expect(host.saves).toEqual([]);
    release();
    await renaming;
    await store().flushSave();
    expect(host.files.has(PATH)).toBe(false);
    expect(roleOf(host.saved('renamed.crew.json'), 1)).toBe('Editor');
  });

  it('a refused rename leaves the document where it was, and says why', async () => {
    await open();
    host.files.set('taken.crew.json', '{}');
    await expect(store().renameTo('taken.crew.json')).rejects.toThrow(/already exists/);
    expect(store().path).toBe(PATH);
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 10);
    expect(roleOf(host.saved(PATH), 1)).toBe('Editor');
  });
});

describe('a document that cannot be saved', () => {
  it('retries the save after 1 s, 2 s, 5 s, then every 10 s, until it works', async () => {
    await open();
    host.failSaves = 'disk full';
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(host.saveAttempts).toBe(1);
    expect(store().saveState).toBe('error');
    const attemptsAfter = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      return host.saveAttempts;
    };
    expect(await attemptsAfter(999)).toBe(1);
    expect(await attemptsAfter(1)).toBe(2);
    expect(await attemptsAfter(1999)).toBe(2);
    expect(await attemptsAfter(1)).toBe(3);
    expect(await attemptsAfter(5000)).toBe(4);
    expect(await attemptsAfter(9999)).toBe(4);
    expect(await attemptsAfter(1)).toBe(5);
    expect(await attemptsAfter(10000)).toBe(6);
    host.failSaves = undefined;
    expect(await attemptsAfter(10000)).toBe(7);
    expect(store().saveState).toBe('saved');
    expect(store().saveError).toBeUndefined();
    expect(await attemptsAfter(60_000)).toBe(7);
    expect(roleOf(host.saved(PATH), 1)).toBe('Editor');
  });

  it('opening another document keeps the unsaved one open instead of dropping its edits', async () => {
    await open();
    host.files.set('other.crew.json', JSON.stringify(hierarchicalCrew()));
    host.failSaves = 'disk full';
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    await store().open('other.crew.json');
    expect(store().path).toBe(PATH);
    expect(roleOf(store().doc, 1)).toBe('Editor');
    expect(store().history.past).toHaveLength(1);
    expect(store().saveState).toBe('error');
    expect(store().saveError).toMatch(/disk full/);
    expect(store().blockedOpen).toBe('other.crew.json');
  });

  it('"Retry" saves, then opens the document that was waiting', async () => {
    await open();
    host.files.set('other.crew.json', JSON.stringify(hierarchicalCrew()));
    host.failSaves = 'disk full';
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    await store().load('other.crew.json');
    host.failSaves = undefined;
    await store().retrySave();
    expect(roleOf(host.saved(PATH), 1)).toBe('Editor');
    expect(store().path).toBe('other.crew.json');
    expect(store().blockedOpen).toBeUndefined();
  });

  it('"Discard changes" opens the waiting document without saving; without one it reads the file again', async () => {
    await open();
    host.files.set('other.crew.json', JSON.stringify(hierarchicalCrew()));
    host.failSaves = 'disk full';
    store().perform(updateEntity('agent:writer', { role: 'Editor' }));
    await store().load('other.crew.json');
    await store().discardChanges();
    expect(store().path).toBe('other.crew.json');
    expect(store().saveState).toBe('saved');
    await vi.advanceTimersByTimeAsync(SAVE_RETRY_DELAYS_MS.at(-1)! * 2);
    expect(host.saves).toEqual([]);

    store().perform(updateEntity('agent:analyst', { role: 'Editor' }));
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(store().saveState).toBe('error');
    await store().discardChanges();
    expect(store().path).toBe('other.crew.json');
    expect(store().history.past).toEqual([]);
    expect(store().saveState).toBe('saved');
    expect((store().doc as { agents: { id: string; role: string }[] }).agents.find((a) => a.id === 'analyst')?.role).not.toBe('Editor');
  });
});

describe('flow documents', () => {
  it('are editable: flow commands change them, undo works and the change is autosaved; copied agents are not pasted into them', async () => {
    await open('crew.crew.json', sequentialCrew());
    expect(store().copy(['agent:writer'])).toBe(true);
    await open('pipeline.flow.json', { kind: 'flow', version: 1, id: 'pipeline', name: 'Pipeline', methods: [{ id: 'a', name: 'a', trigger: { start: true }, body: { type: 'llm', prompt: 'Hi' } }] });
    expect(store().doc?.kind).toBe('flow');
    expect(store().paste()).toEqual({ ok: false, reason: 'Copied agents and tasks cannot be pasted into a flow.' });
    expect(store().perform(addMethod('script'))).toEqual({ ok: true, changed: true });
    expect((store().doc as { methods: { id: string }[] }).methods.map((m) => m.id)).toEqual(['a', 'script']);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2);
    await store().flushSave();
    expect((host.saves.at(-1)?.document as { methods: unknown[] }).methods).toHaveLength(2);
    store().undo();
    expect((store().doc as { methods: unknown[] }).methods).toHaveLength(1);
  });
});
