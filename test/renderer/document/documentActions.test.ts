import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addAgent } from '../../../renderer/commands/addAgent';
import { copyAction, editAction, pasteAction, redoAction, undoAction } from '../../../renderer/commands/documentAction';
import { WrongDocumentKind } from '../../../renderer/commands/documentKind';
import { addMethod } from '../../../renderer/commands/flow/addMethod';
import { connectMethods } from '../../../renderer/commands/flow/connectMethods';
import { asFlow, type MethodDraft } from '../../../renderer/commands/flow/flowDraft';
import { moveFlowNodes } from '../../../renderer/commands/flow/moveFlowNodes';
import { updateFlow } from '../../../renderer/commands/flow/updateFlow';
import { moveNodes } from '../../../renderer/commands/moveNodes';
import { updateEntity } from '../../../renderer/commands/updateEntity';
import { setHost } from '../../../renderer/host/hostContext';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FlowHost, reviewFlow } from '../flow/flowFixtures';
import { sequentialCrew } from './crewFixtures';

const CREW = 'crews/brief.crew.json';
const FLOW = 'flows/review.flow.json';
const store = () => useDocumentStore.getState();
const crew = () => {
  const doc = store().doc;
  if (doc === undefined || doc.kind === 'flow') throw new Error('no crew open');
  return doc;
};
const flow = () => asFlow(store().doc ?? { kind: 'crew' });
const agentIds = () => (crew().agents ?? []).map((a) => a.id);
const methodIds = () => (flow().methods ?? []).map((m: MethodDraft) => m.id);

let host: FlowHost;

async function open(path: string, content: unknown) {
  host.files.set(path, JSON.stringify(content));
  await store().load(path);
}

beforeEach(() => {
  host = new FlowHost();
  setHost(host);
  useUiStore.getState().select([]);
});

afterEach(async () => {
  await store().flushSave();
  store().close();
});

describe('document actions on a crew', () => {
  beforeEach(() => open(CREW, sequentialCrew()));

  it('undoes and redoes a move of several nodes as one step', () => {
    const before = crew().layout;
    const moved = { 'agent:writer': { x: 900, y: 10 }, 'task:brief': { x: 20.4, y: 700 } };
    expect(store().run(editAction(moveNodes(moved)))).toEqual({ ok: true, changed: true });
    expect(crew().layout?.['agent:writer']).toEqual({ x: 900, y: 10 });
    expect(crew().layout?.['task:brief']).toEqual({ x: 20, y: 700 });
    expect(store().history.past).toHaveLength(1);

    expect(store().run(undoAction())).toEqual({ ok: true, changed: true });
    expect(crew().layout).toEqual(before);
    expect(store().history.future).toHaveLength(1);

    expect(store().run(redoAction())).toEqual({ ok: true, changed: true });
    expect(crew().layout?.['agent:writer']).toEqual({ x: 900, y: 10 });
    expect(crew().layout?.['task:brief']).toEqual({ x: 20, y: 700 });
    expect(store().run(redoAction())).toEqual({ ok: true, changed: false });
  });

  it('pastes a copy as one undoable step, and redoes it with the same ids', () => {
    expect(store().run(copyAction(['agent:writer', 'task:brief']))).toEqual({ ok: true, changed: false });
    expect(store().history.past).toHaveLength(0);
    expect(store().run(pasteAction())).toEqual({ ok: true, changed: true });
    expect(agentIds()).toEqual(['researcher', 'writer', 'writer-2']);
    expect(crew().tasks?.map((t) => t.id)).toEqual(['research', 'outline', 'brief', 'brief-2']);
    expect(crew().layout?.['agent:writer-2']).toEqual({ x: 440, y: 190 });

    store().run(undoAction());
    expect(agentIds()).toEqual(['researcher', 'writer']);
    expect(crew().tasks?.map((t) => t.id)).toEqual(['research', 'outline', 'brief']);
    expect(crew().layout?.['agent:writer-2']).toBeUndefined();

    store().run(redoAction());
    expect(agentIds()).toEqual(['researcher', 'writer', 'writer-2']);
    expect(crew().tasks?.map((t) => t.id)).toEqual(['research', 'outline', 'brief', 'brief-2']);
  });

  it('undoes a paste, then the edits before it, in order', () => {
    store().perform(updateEntity('agent:writer', { goal: 'Shorter briefs' }));
    store().copy(['agent:writer']);
    store().paste();
    store().paste();
    expect(agentIds()).toEqual(['researcher', 'writer', 'writer-2', 'writer-3']);
    // Each paste of one copy lands a step further off.
    expect(crew().layout?.['agent:writer-3']).toEqual({ x: 480, y: 230 });
    store().undo();
    expect(agentIds()).toEqual(['researcher', 'writer', 'writer-2']);
    store().undo();
    expect(agentIds()).toEqual(['researcher', 'writer']);
    expect(crew().agents?.[1]?.goal).toBe('Shorter briefs');
    store().undo();
    expect(crew().agents?.[1]?.goal).toBe('Write briefs');
    expect(store().run(undoAction())).toEqual({ ok: true, changed: false });
    expect(crew()).toEqual(sequentialCrew());
  });

  it('copies nothing from a selection without agents or tasks', () => {
    expect(store().run(copyAction(['manager', 'agent:nobody']))).toMatchObject({ ok: false });
    expect(store().copy([])).toBe(false);
  });
});

describe('document actions on a flow', () => {
  beforeEach(() => open(FLOW, reviewFlow()));

  it('undoes and redoes a move of several methods as one step', () => {
    store().run(editAction(moveFlowNodes({ 'method:write': { x: 0, y: 0 } })));
    const placed = flow().layout;
    const moved = { 'method:check': { x: 500, y: 40 }, 'method:fix': { x: 800, y: 240 } };
    expect(store().run(editAction(moveFlowNodes(moved)))).toEqual({ ok: true, changed: true });
    expect(flow().layout?.['method:check']).toEqual({ x: 500, y: 40 });
    expect(flow().layout?.['method:fix']).toEqual({ x: 800, y: 240 });

    store().run(undoAction());
    expect(flow().layout).toEqual(placed);
    store().run(redoAction());
    expect(flow().layout?.['method:check']).toEqual({ x: 500, y: 40 });
    expect(flow().layout?.['method:fix']).toEqual({ x: 800, y: 240 });
  });

  it('undoes added and connected methods back to the flow as it was read', () => {
    store().perform(addMethod('llm', { x: 2000, y: 20 }));
    const added = String(methodIds().at(-1));
    expect(methodIds()).toHaveLength(6);
    const startTrigger = flow().methods?.at(-1)?.trigger;
    expect(startTrigger).toEqual({ start: true });
    expect(store().perform(connectMethods('method:publish', 'out', `method:${added}`))).toEqual({ ok: true, changed: true });
    expect(flow().methods?.at(-1)?.trigger).toEqual({ listen: 'publish' });
    store().perform(updateFlow({ name: 'Review loop 2' }));
    expect(flow().name).toBe('Review loop 2');

    store().undo();
    expect(flow().name).toBe('Review loop');
    store().undo();
    expect(flow().methods?.at(-1)?.trigger).toEqual(startTrigger);
    store().undo();
    expect(methodIds()).toEqual(['write', 'check', 'fix', 'notify', 'publish']);
    store().redo();
    store().redo();
    expect(methodIds()).toHaveLength(6);
    expect(flow().methods?.at(-1)?.trigger).toEqual({ listen: 'publish' });
  });

  it('refuses to paste copied agents and tasks into a flow, recording nothing', async () => {
    await open(CREW, sequentialCrew());
    expect(store().copy(['agent:writer'])).toBe(true);
    await open(FLOW, reviewFlow());
    const before = store().doc;
    expect(store().copy(['method:write'])).toBe(false);
    expect(store().run(pasteAction())).toEqual({ ok: false, reason: 'Copied agents and tasks cannot be pasted into a flow.' });
    expect(store().doc).toBe(before);
    expect(store().history.past).toHaveLength(0);
  });
});

describe('a command for the other kind of document', () => {
  it('is refused with WrongDocumentKind, leaving a flow and its history alone', async () => {
    await open(FLOW, reviewFlow());
    const before = store().doc;
    const result = store().perform(addAgent());
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBeInstanceOf(WrongDocumentKind);
    expect(!result.ok && result.error).toMatchObject({ expected: 'crew', actual: 'flow' });
    expect(store().doc).toBe(before);
    expect(store().history.past).toHaveLength(0);
    expect(store().rejection).toBeUndefined();
    expect(store().saveState).toBe('saved');
  });

  it('is refused with WrongDocumentKind, leaving a crew alone', async () => {
    await open(CREW, sequentialCrew());
    const before = store().doc;
    const result = store().run(editAction(addMethod('llm', { x: 0, y: 0 })));
    expect(!result.ok && result.error).toBeInstanceOf(WrongDocumentKind);
    expect(!result.ok && result.error).toMatchObject({ expected: 'flow', actual: 'crew' });
    expect(store().doc).toBe(before);
    expect(store().history.past).toHaveLength(0);
  });
});
