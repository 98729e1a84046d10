// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Inspector } from '../../../renderer/panels/Inspector';
import { asFlow, type MethodDraft } from '../../../renderer/commands/flow/flowDraft';
import { setTrigger } from '../../../renderer/commands/flow/setTrigger';
import { setHost } from '../../../renderer/host/hostContext';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FlowHost, reviewFlow } from './flowFixtures';

const PATH = 'review.flow.json';
const store = () => useDocumentStore.getState();
const method = (id: string) => (asFlow(store().doc!).methods as MethodDraft[]).find((m) => m.id === id)!;
const body = (id: string) => method(id).body as Record<string, unknown>;

beforeEach(async () => {
  const host = new FlowHost();
  host.files.set(PATH, JSON.stringify(reviewFlow()));
  setHost(host);
  useUiStore.getState().select([]);
  await store().load(PATH);
});
afterEach(async () => {
  cleanup();
  await store().flushSave();
});

const select = (ids: string[]) => act(() => useUiStore.getState().select(ids));

describe('flow inspector', () => {
  it('edits flow-level fields: name, persist, max method calls, initial state as JSON', () => {
    render(<Inspector />);
    fireEvent.change(screen.getByTestId('field-flow-name'), { target: { value: 'Review loop 2' } });
    fireEvent.click(screen.getByTestId('field-flow-persist'));
    fireEvent.change(screen.getByTestId('field-flow-maxMethodCalls'), { target: { value: '12' } });
    fireEvent.change(screen.getByTestId('field-flow-state-initial'), { target: { value: '{"draft": "x", "n": 1}' } });
    expect(asFlow(store().doc!)).toMatchObject({ name: 'Review loop 2', persist: false, maxMethodCalls: 12, state: { initial: { draft: 'x', n: 1 } } });
    fireEvent.change(screen.getByTestId('field-flow-state-initial'), { target: { value: '{"draft": ' } });
    expect(screen.getByTestId('json-error').textContent).toContain('Not valid JSON');
    expect(asFlow(store().doc!).state).toEqual({ initial: { draft: 'x', n: 1 } });
  });

  it('script body: a code box with line numbers where Tab inserts spaces, and the sandbox contract', () => {
    select(['method:fix']);
    render(<Inspector />);
    const code = screen.getByTestId('field-body-code') as HTMLTextAreaElement;
    fireEvent.change(code, { target: { value: 'const a = 1;\nreturn a;' } });
    expect(body('fix').code).toBe('const a = 1;\nreturn a;');
    expect(code.closest('.flow-code')!.querySelector('.flow-code-lines')!.textContent).toBe('1\n2');
    code.setSelectionRange(13, 13);
    fireEvent.keyDown(code, { key: 'Tab' });
    expect(body('fix').code).toBe('const a = 1;\n  return a;');
    expect(screen.getByTestId('script-contract').textContent).toMatch(/state.*input.*return/);
  });

  it('rules body: edit a rule’s test and route, add a rule, change the default; problems show under the field', () => {
    select(['method:check']);
    render(<Inspector />);
    fireEvent.change(screen.getByTestId('rule-0-path'), { target: { value: 'state.score' } });
    fireEvent.change(screen.getByTestId('rule-0-op'), { target: { value: 'gte' } });
    fireEvent.change(screen.getByTestId('rule-0-value'), { target: { value: '7' } });
    fireEvent.change(screen.getByTestId('rule-0-route'), { target: { value: 'bad' } });
    expect(body('check').rules).toEqual([{ when: { path: 'state.score', op: 'gte', value: 7 }, route: 'bad' }]);
    fireEvent.click(screen.getByTestId('add-rule'));
    expect((body('check').rules as unknown[]).length).toBe(2);
    fireEvent.change(screen.getByTestId('field-body-default'), { target: { value: 'good' } });
    expect(body('check').default).toBe('good');
    fireEvent.change(screen.getByTestId('rule-0-path'), { target: { value: 'score' } });
    expect(store().problems.map((p) => p.path)).toEqual(['methods.1.body.rules.0.when.path']);
    const rule = screen.getByTestId('rule-0');
    expect(within(rule).getByRole('alert').textContent).toContain('must be "state.<field>"');
  });

  it('renaming a route in the inspector updates its listeners', () => {
    select(['method:check']);
    render(<Inspector />);
    const route = screen.getByTestId('route-name-1');
    fireEvent.change(route, { target: { value: 'rework' } });
    fireEvent.keyDown(route, { key: 'Enter' });
    expect(method('check').routes).toEqual(['good', 'rework']);
    expect(method('fix').trigger).toEqual({ listen: { route: 'rework' } });
    expect(body('check').default).toBe('rework');
  });

  it('switching the body kind keeps name and trigger and shows the new kind’s editor', () => {
    select(['method:fix']);
    render(<Inspector />);
    fireEvent.change(screen.getByTestId('field-body-kind'), { target: { value: 'set_state' } });
    expect(method('fix')).toMatchObject({ name: 'fix', trigger: { listen: { route: 'bad' } }, body: { type: 'set_state' } });
    fireEvent.change(screen.getByTestId('body-set-key-0'), { target: { value: 'fixed' } });
    fireEvent.change(screen.getByTestId('body-set-value-0'), { target: { value: '{input}' } });
    expect(body('fix').set).toEqual({ fixed: '{input}' });
    fireEvent.change(screen.getByTestId('field-body-kind'), { target: { value: 'human_feedback' } });
    fireEvent.click(screen.getByTestId('feedback-add-outcome'));
    expect(body('fix').outcomes).toEqual(['approved', 'rejected', 'outcome-3']);
    fireEvent.change(screen.getByTestId('field-body-defaultOutcome'), { target: { value: 'rejected' } });
    fireEvent.click(screen.getByTestId('field-body-learn'));
    expect(body('fix')).toMatchObject({ defaultOutcome: 'rejected', learn: true });
    fireEvent.change(screen.getByTestId('field-body-kind'), { target: { value: 'crew' } });
    fireEvent.change(screen.getByTestId('field-body-file'), { target: { value: 'crews/brief.crew.json' } });
    fireEvent.click(screen.getByTestId('body-inputs-add'));
    fireEvent.change(screen.getByTestId('body-inputs-value-0'), { target: { value: '{state.topic}' } });
    expect(body('fix')).toEqual({ type: 'crew', file: 'crews/brief.crew.json', inputs: { field1: '{state.topic}' } });
    expect(store().problems).toEqual([]);
  });

  it('shows the listen condition readably, switches a gate between or and and', () => {
    select(['method:publish']);
    render(<Inspector />);
    expect(screen.getByTestId('method-condition').getAttribute('data-condition')).toBe('notify and (write or fix)');
    cleanup();
    select(['gate:publish.1']);
    render(<Inspector />);
    fireEvent.click(screen.getByTestId('gate-op-and'));
    expect(method('publish').trigger).toEqual({ listen: { and: ['notify', { and: ['write', 'fix'] }] } });
    expect(screen.getByTestId('gate-op-and').getAttribute('aria-pressed')).toBe('true');
  });

  it('"Listens to" is one editor: chips of methods and routes, × removes one, Add… adds one, or/and per group', () => {
    select(['method:notify']);
    render(<Inspector />);
    // No second editor of the same value (the JSON box is gone).
    expect(screen.queryByTestId('field-method-listen')).toBeNull();
    const editor = screen.getByTestId('method-condition');
    expect(within(editor).getAllByTestId('listen-chip').map((c) => c.textContent?.replace('×', ''))).toEqual(['fix', 'routegood']);
    // Offered: the other methods and the other routers' routes not listened to yet.
    const add = screen.getByTestId('listen-add') as HTMLSelectElement;
    expect([...add.options].map((o) => o.textContent)).toEqual(['+ Add…', 'write', 'check', 'publish', 'route bad']);
    fireEvent.change(add, { target: { value: 'r:bad' } });
    expect(method('notify').trigger).toEqual({ listen: { or: ['fix', { route: 'good' }, { route: 'bad' }] } });
    fireEvent.click(screen.getByTestId('listen-op-and'));
    expect(method('notify').trigger).toEqual({ listen: { and: ['fix', { route: 'good' }, { route: 'bad' }] } });
    fireEvent.click(screen.getByTestId('listen-remove-good'));
    fireEvent.click(screen.getByTestId('listen-remove-fix'));
    expect(method('notify').trigger).toEqual({ listen: { route: 'bad' } });
    // The last reference stays: a listener must listen to something.
    expect((screen.getByTestId('listen-remove-bad') as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    // A nested group is edited in place: switch its or/and, add to it.
    select(['method:publish']);
    render(<Inspector />);
    fireEvent.click(screen.getByTestId('listen-op-and-1'));
    expect(method('publish').trigger).toEqual({ listen: { and: ['notify', { and: ['write', 'fix'] }] } });
    fireEvent.change(screen.getByTestId('listen-add-1'), { target: { value: 'm:check' } });
    expect(method('publish').trigger).toEqual({ listen: { and: ['notify', { and: ['write', 'fix', 'check'] }] } });
    expect(store().problems).toEqual([]);
  });

  it('a start method that also listens ({ start: true, listen: … }, CrewAI @start("retry")): "Also runs when" adds, removes down to none, and unchecking start keeps it', () => {
    select(['method:write']);
    render(<Inspector />);
    expect((screen.getByTestId('field-method-start') as HTMLInputElement).checked).toBe(true);
    const editor = screen.getByTestId('method-condition');
    expect(within(editor).queryAllByTestId('listen-chip')).toEqual([]);
    fireEvent.change(screen.getByTestId('listen-add'), { target: { value: 'r:bad' } });
    expect(method('write').trigger).toEqual({ start: true, listen: { route: 'bad' } });
    expect((screen.getByTestId('field-method-start') as HTMLInputElement).checked).toBe(true);
    // The one reference of a start's extra condition may go (a plain listener's may not).
    expect((screen.getByTestId('listen-remove-bad') as HTMLButtonElement).disabled).toBe(false);
    fireEvent.change(screen.getByTestId('listen-add'), { target: { value: 'm:fix' } });
    expect(method('write').trigger).toEqual({ start: true, listen: { or: [{ route: 'bad' }, 'fix'] } });
    expect(store().problems).toEqual([]);
    // A new or-gate is what the inspector shows now (as on the canvas); back to the method.
    cleanup();
    select(['method:write']);
    render(<Inspector />);
    fireEvent.click(screen.getByTestId('listen-remove-fix'));
    fireEvent.click(screen.getByTestId('listen-remove-bad'));
    expect(method('write').trigger).toEqual({ start: true });
    // Still the only start method: it cannot become a plain listener.
    fireEvent.click(screen.getByTestId('field-method-start'));
    expect(method('write').trigger).toEqual({ start: true });
    expect(screen.getByRole('alert').textContent).toContain('only start method');
    cleanup();
    // A document that already has the trigger shows it; unchecking start keeps what it listens to.
    act(() => void store().perform(setTrigger('method:fix', { start: true, listen: { route: 'bad' } })));
    expect(method('fix').trigger).toEqual({ start: true, listen: { route: 'bad' } });
    select(['method:fix']);
    render(<Inspector />);
    expect((screen.getByTestId('field-method-start') as HTMLInputElement).checked).toBe(true);
    expect(within(screen.getByTestId('method-condition')).getAllByTestId('listen-chip').map((c) => c.textContent?.replace('×', ''))).toEqual(['routebad']);
    fireEvent.click(screen.getByTestId('field-method-start'));
    expect(method('fix').trigger).toEqual({ listen: { route: 'bad' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('the start toggle: the only start method cannot stop being one; a listener can become one', () => {
    select(['method:write']);
    render(<Inspector />);
    fireEvent.click(screen.getByTestId('field-method-start'));
    expect(method('write').trigger).toEqual({ start: true });
    expect(screen.getByRole('alert').textContent).toContain('only start method');
    cleanup();
    select(['method:fix']);
    render(<Inspector />);
    fireEvent.click(screen.getByTestId('field-method-start'));
    expect(method('fix').trigger).toEqual({ start: true });
  });
});
