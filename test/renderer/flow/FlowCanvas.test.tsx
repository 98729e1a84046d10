// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CrewCanvas } from '../../../renderer/canvas/CrewCanvas';
import { Palette } from '../../../renderer/canvas/Palette';
import { asFlow } from '../../../renderer/commands/flow/flowDraft';
import { setHost } from '../../../renderer/host/hostContext';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FlowHost, reviewFlow } from './flowFixtures';

const PATH = 'review.flow.json';
const store = () => useDocumentStore.getState();

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  (globalThis as { DOMMatrixReadOnly?: unknown }).DOMMatrixReadOnly ??= class {
    m22 = 1;
    constructor() {}
  };
});

async function open(content: unknown) {
  const host = new FlowHost();
  host.files.set(PATH, JSON.stringify(content));
  setHost(host);
  act(() => void useDocumentStore.getState().open(PATH));
  await act(() => store().load(PATH));
  return host;
}

beforeEach(() => useUiStore.getState().select([]));
afterEach(async () => {
  cleanup();
  await store().flushSave();
});

describe('flow canvas', () => {
  it('draws methods with name, kind and summary, a labelled handle per route, and gate nodes', async () => {
    await open(reviewFlow());
    render(<CrewCanvas />);
    expect(screen.getByTestId('flow-canvas')).toBeTruthy();
    const check = screen.getByTestId('flow-method-check');
    expect(check.getAttribute('data-role')).toBe('router');
    expect(within(check).getByText('check')).toBeTruthy();
    expect(within(check).getByText('1 rule, otherwise → bad')).toBeTruthy();
    expect(within(check).getByTestId('route-handle-check-good')).toBeTruthy();
    expect(within(check).getByTestId('route-handle-check-bad')).toBeTruthy();
    expect(within(check).getByText('good')).toBeTruthy();
    expect(screen.getByTestId('flow-method-write').getAttribute('data-role')).toBe('start');
    expect(screen.getByTestId('flow-method-fix').getAttribute('data-role')).toBe('listen');
    expect(within(screen.getByTestId('flow-method-fix')).getByText('Script')).toBeTruthy();
    expect(screen.getByTestId('flow-gate-notify').textContent).toBe('OR');
    expect(screen.getByTestId('flow-gate-publish').textContent).toBe('AND');
    expect(screen.getByTestId('flow-gate-publish.1').textContent).toBe('OR');
    expect(screen.queryByTestId('canvas-problems')).toBeNull();
  });

  it('shows a problem on the method at fault', async () => {
    const doc = reviewFlow();
    (asFlow(doc).methods![1]!.body as Record<string, unknown>).default = 'maybe';
    await open(doc);
    render(<CrewCanvas />);
    const check = screen.getByTestId('flow-method-check');
    expect(check.getAttribute('data-invalid')).toBe('true');
    expect(within(check).getByTestId('node-problems').textContent).toContain('body.default: "maybe" is not one of this method\'s routes');
  });

  it('the palette offers every body kind and a router; clicking one adds a method to the canvas', async () => {
    await open(reviewFlow());
    render(
      <>
        <Palette />
        <CrewCanvas />
      </>,
    );
    for (const id of ['llm', 'agent', 'crew', 'human_feedback', 'script', 'set_state', 'router']) expect(screen.getByTestId(`palette-${id}`)).toBeTruthy();
    expect(screen.queryByTestId('palette-task')).toBeNull();
    fireEvent.click(screen.getByTestId('palette-router'));
    const added = await screen.findByTestId('flow-method-route');
    expect(within(added).getByTestId('route-handle-route-yes')).toBeTruthy();
    expect(within(added).getByTestId('route-handle-route-no')).toBeTruthy();
    expect(useUiStore.getState().selectedNodeIds).toEqual(['method:route']);
  });

  it('Delete removes the selected method and its references; undo brings it back', async () => {
    await open(reviewFlow());
    render(<CrewCanvas />);
    act(() => useUiStore.getState().select(['method:fix']));
    fireEvent.keyDown(document.body, { key: 'Delete' });
    expect(screen.queryByTestId('flow-method-fix')).toBeNull();
    expect(asFlow(store().doc!).methods!.find((m) => m.id === 'notify')!.trigger).toEqual({ listen: { route: 'good' } });
    expect(screen.queryByTestId('flow-gate-notify')).toBeNull();
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(screen.getByTestId('flow-method-fix')).toBeTruthy();
    expect(screen.getByTestId('flow-gate-notify')).toBeTruthy();
  });
});
