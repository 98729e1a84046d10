// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFlowDocument } from '../../../shared/model/parse';
import { setHost } from '../../../renderer/host/hostContext';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { addMethod } from '../../../renderer/commands/flow/addMethod';
import { connectMethods, planConnection } from '../../../renderer/commands/flow/connectMethods';
import { disconnectListens } from '../../../renderer/commands/flow/disconnectListen';
import { deleteFlowNodes } from '../../../renderer/commands/flow/deleteFlowNodes';
import { setGateOp } from '../../../renderer/commands/flow/setGateOp';
import { addRoute, removeRoute, renameRoute } from '../../../renderer/commands/flow/editRoutes';
import { renameMethod, renameMethodId } from '../../../renderer/commands/flow/renameMethod';
import { setBodyKind } from '../../../renderer/commands/flow/setBodyKind';
import { setTrigger } from '../../../renderer/commands/flow/setTrigger';
import { asFlow, type MethodDraft } from '../../../renderer/commands/flow/flowDraft';
import { FlowHost, reviewFlow } from './flowFixtures';

const PATH = 'review.flow.json';
const store = () => useDocumentStore.getState();
const methods = () => asFlow(store().doc!).methods as MethodDraft[];
const method = (id: string) => methods().find((m) => m.id === id)!;
const trigger = (id: string) => method(id).trigger;
let host: FlowHost;

beforeEach(async () => {
  host = new FlowHost();
  host.files.set(PATH, JSON.stringify(reviewFlow()));
  setHost(host);
  useUiStore.getState().select([]);
  await store().load(PATH);
});

afterEach(async () => {
  await store().flushSave();
});

describe('flow editing commands (through the document store)', () => {
  it('loads a flow as editable, with no problems, and autosaves an edit', async () => {
    expect(store().problems).toEqual([]);
    // Dropped on free canvas (nothing selected): kept where it was dropped, as another start method.
    expect(store().perform(addMethod('llm', { x: 2000, y: 20 }))).toEqual({ ok: true, changed: true });
    await store().flushSave();
    const saved = host.saves.at(-1)!.document as ReturnType<typeof asFlow>;
    expect(saved.methods!.at(-1)).toMatchObject({ id: 'call-model', name: 'call_model', trigger: { start: true }, body: { type: 'llm' } });
    expect(saved.layout!['method:call-model']).toEqual({ x: 2000, y: 20 });
    // Every node got a saved position on the first edit (nothing jumps later).
    expect(Object.keys(saved.layout!)).toEqual(expect.arrayContaining(['method:write', 'method:check', 'gate:notify', 'gate:publish.1']));
    // The new method is selected.
    expect(useUiStore.getState().selectedNodeIds).toEqual(['method:call-model']);
  });

  it('palette: every body kind and the router add a method that validates, with fresh unique ids and names', () => {
    for (const kind of ['crew', 'agent', 'llm', 'human_feedback', 'script', 'set_state', 'router', 'router'] as const) store().perform(addMethod(kind));
    const added = methods().slice(5);
    expect(added.map((m) => [m.id, m.name, (m.body as { type: string }).type])).toEqual([
      ['run-crew', 'run_crew', 'crew'],
      ['ask-agent', 'ask_agent', 'agent'],
      ['call-model', 'call_model', 'llm'],
      ['review', 'review', 'human_feedback'],
      ['script', 'script', 'script'],
      ['set-state', 'set_state', 'set_state'],
      ['route', 'route', 'rules'],
      ['route-2', 'route_2', 'rules'],
    ]);
    expect(added.at(-1)!.routes).toEqual(['yes', 'no']);
    expect(store().problems).toEqual([]);
    // Added without a drop point: each right of the one before (flows read left to right).
    const layout = asFlow(store().doc!).layout!;
    expect(layout['method:route-2']!.x).toBeGreaterThan(layout['method:route']!.x);
    expect(layout['method:route-2']!.y).toBe(layout['method:route']!.y);
  });

  it('connecting makes a start method listen, a second connection makes an "or", undo/redo restore each step', () => {
    store().perform(addMethod('llm'));
    expect(trigger('call-model')).toEqual({ start: true });
    store().perform(connectMethods('method:fix', 'out', 'method:call-model'));
    expect(trigger('call-model')).toEqual({ listen: 'fix' });
    store().perform(connectMethods('method:check', 'route:good', 'method:call-model'));
    expect(trigger('call-model')).toEqual({ listen: { or: ['fix', { route: 'good' }] } });
    // The same reference again changes nothing.
    expect(store().perform(connectMethods('method:fix', 'out', 'method:call-model'))).toEqual({ ok: true, changed: false });
    // Dropping on a gate adds a member to that gate.
    store().perform(connectMethods('method:write', 'out', 'gate:publish.1'));
    expect(trigger('publish')).toEqual({ listen: { and: ['notify', { or: ['write', 'fix'] }] } });
    store().perform(connectMethods('method:check', 'route:bad', 'gate:publish.1'));
    expect(trigger('publish')).toEqual({ listen: { and: ['notify', { or: ['write', 'fix', { route: 'bad' }] }] } });
    expect(store().problems).toEqual([]);

    store().undo();
    expect(trigger('publish')).toEqual({ listen: { and: ['notify', { or: ['write', 'fix'] }] } });
    store().undo();
    expect(trigger('call-model')).toEqual({ listen: 'fix' });
    store().undo();
    expect(trigger('call-model')).toEqual({ start: true });
    store().redo();
    store().redo();
    expect(trigger('call-model')).toEqual({ listen: { or: ['fix', { route: 'good' }] } });
  });

  it('refuses connections that make no sense, and says why', () => {
    const flow = asFlow(store().doc!);
    expect(planConnection(flow, 'method:fix', 'out', 'method:fix')).toEqual({ ok: false, reason: 'A method cannot listen to itself.' });
    expect(planConnection(flow, 'method:fix', 'out', 'method:write')).toMatchObject({ ok: false, reason: expect.stringContaining('only start method') });
    expect(planConnection(flow, 'method:check', 'route:maybe', 'method:fix')).toMatchObject({ ok: false });
    expect(store().perform(connectMethods('method:fix', 'out', 'method:fix'))).toEqual({ ok: false, reason: 'A method cannot listen to itself.' });
    expect(store().rejection?.message).toBe('A method cannot listen to itself.');
  });

  it('disconnecting removes the reference; a gate left with one member collapses; no condition left makes a start method', () => {
    store().perform(disconnectListens([{ listener: 'notify', path: [0] }]));
    expect(trigger('notify')).toEqual({ listen: { route: 'good' } });
    store().perform(disconnectListens([{ listener: 'publish', path: [1, 0] }]));
    expect(trigger('publish')).toEqual({ listen: { and: ['notify', 'fix'] } });
    store().perform(disconnectListens([{ listener: 'fix', path: [] }]));
    expect(trigger('fix')).toEqual({ start: true });
    store().undo();
    expect(trigger('fix')).toEqual({ listen: { route: 'bad' } });
    // Several edges of one listener at once (places refer to the condition before any removal).
    store().perform(disconnectListens([{ listener: 'publish', path: [0] }, { listener: 'publish', path: [1] }]));
    expect(trigger('publish')).toEqual({ start: true });
  });

  it('switches a gate between or and and', () => {
    store().perform(setGateOp('notify', [], 'and'));
    expect(trigger('notify')).toEqual({ listen: { and: ['fix', { route: 'good' }] } });
    store().perform(setGateOp('publish', [1], 'and'));
    expect(trigger('publish')).toEqual({ listen: { and: ['notify', { and: ['write', 'fix'] }] } });
    store().undo();
    store().undo();
    expect(trigger('notify')).toEqual({ listen: { or: ['fix', { route: 'good' }] } });
  });

  it('deleting a method removes references to it; deleting a gate removes its part of the condition', () => {
    store().perform(deleteFlowNodes(['method:fix']));
    expect(methods().map((m) => m.id)).toEqual(['write', 'check', 'notify', 'publish']);
    expect(trigger('notify')).toEqual({ listen: { route: 'good' } });
    expect(trigger('publish')).toEqual({ listen: { and: ['notify', 'write'] } });
    expect(store().problems).toEqual([]);
    store().undo();
    store().perform(deleteFlowNodes(['gate:publish.1']));
    expect(trigger('publish')).toEqual({ listen: 'notify' });
    // Deleting the router drops its routes from the listeners.
    store().perform(deleteFlowNodes(['method:check']));
    expect(trigger('fix')).toEqual({ start: true });
    expect(trigger('notify')).toEqual({ listen: 'fix' });
  });

  it('renaming a route updates the rules, the default and the listeners; removing one drops them', () => {
    store().perform(renameRoute('method:check', 'good', 'approved'));
    expect(method('check').routes).toEqual(['approved', 'bad']);
    expect((method('check').body as { rules: { route: string }[] }).rules[0]!.route).toBe('approved');
    expect(trigger('notify')).toEqual({ listen: { or: ['fix', { route: 'approved' }] } });
    store().perform(renameRoute('method:check', 'bad', 'rework'));
    expect((method('check').body as { default: string }).default).toBe('rework');
    expect(trigger('fix')).toEqual({ listen: { route: 'rework' } });
    expect(store().problems).toEqual([]);
    expect(store().perform(renameRoute('method:check', 'rework', 'approved'))).toMatchObject({ ok: false });
    expect(store().perform(renameRoute('method:check', 'rework', 'no way'))).toMatchObject({ ok: false });

    store().perform(addRoute('method:check'));
    expect(method('check').routes).toEqual(['approved', 'rework', 'route-3']);
    store().perform(removeRoute('method:check', 'approved'));
    expect(method('check').routes).toEqual(['rework', 'route-3']);
    expect((method('check').body as { rules: unknown[] }).rules).toEqual([]);
    expect(trigger('notify')).toEqual({ listen: 'fix' });
    expect(store().problems).toEqual([]);
  });

  it('renaming a method updates its listeners; renaming its id moves its position', () => {
    store().perform(renameMethod('method:write', 'draft'));
    expect(trigger('check')).toEqual({ listen: 'draft' });
    expect(trigger('publish')).toEqual({ listen: { and: ['notify', { or: ['draft', 'fix'] }] } });
    expect(store().perform(renameMethod('method:write', 'check'))).toMatchObject({ ok: false });
    expect(store().perform(renameMethod('method:write', '1bad'))).toMatchObject({ ok: false });
    const before = asFlow(store().doc!).layout!['method:write'];
    store().perform(renameMethodId('method:write', 'draft'));
    expect(asFlow(store().doc!).layout!['method:draft']).toEqual(before);
    expect(asFlow(store().doc!).layout!['method:write']).toBeUndefined();
    expect(store().problems).toEqual([]);
  });

  it('changing the body kind keeps name and trigger; a router that cannot route any more loses its routes', () => {
    store().perform(setBodyKind('method:fix', 'agent'));
    expect(method('fix')).toMatchObject({ name: 'fix', trigger: { listen: { route: 'bad' } }, body: { type: 'agent' } });
    store().perform(setBodyKind('method:check', 'script'));
    expect(method('check').routes).toEqual(['good', 'bad']);
    store().perform(setBodyKind('method:check', 'llm'));
    expect(method('check').routes).toBeUndefined();
    expect(trigger('fix')).toEqual({ start: true });
    expect(trigger('notify')).toEqual({ listen: 'fix' });
    // fix starts the flow now, and its prompt reads {input}: nothing triggers a start method, so that is a problem on it.
    expect(store().problems).toEqual([{ path: 'methods.2.body.prompt', message: expect.stringContaining('{input} has no value in a start method') }]);
    store().perform(setBodyKind('method:check', 'rules'));
    expect(method('check').routes).toEqual(['yes', 'no']);
    const parsed = parseFlowDocument(store().doc);
    expect(parsed.ok ? [] : parsed.problems.map((p) => p.path)).toEqual(['methods.2.body.prompt']);
  });

  it('the trigger JSON escape hatch; the only start method cannot be made to listen', () => {
    expect(store().perform(setTrigger('method:write', { listen: 'fix' }))).toMatchObject({ ok: false, reason: expect.stringContaining('only start method') });
    store().perform(setTrigger('method:fix', { listen: { and: ['write', 'check'] } }));
    expect(trigger('fix')).toEqual({ listen: { and: ['write', 'check'] } });
    store().perform(setTrigger('method:fix', { listen: 'nobody' }));
    expect(store().problems.map((p) => p.path)).toEqual(['methods.2.trigger.listen']);
  });
});
