// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CrewCanvas } from '../../../renderer/canvas/CrewCanvas';
import { Palette } from '../../../renderer/canvas/Palette';
import { setHost } from '../../../renderer/host/hostContext';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useRunStore } from '../../../renderer/stores/runStore';
import { emptyRunView } from '../../../renderer/stores/runView';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { hierarchicalCrew, sequentialCrew } from '../document/crewFixtures';
import { MemoryHost } from '../document/memoryHost';

const PATH = 'brief.crew.json';
const store = () => useDocumentStore.getState();

beforeAll(() => {
  // jsdom has no layout: React Flow needs these to exist.
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
  const host = new MemoryHost();
  host.files.set(PATH, typeof content === 'string' ? content : JSON.stringify(content));
  setHost(host);
  act(() => void useDocumentStore.getState().open(PATH));
  await act(() => store().load(PATH));
  return host;
}

beforeEach(() => {
  useUiStore.getState().select([]);
});

afterEach(async () => {
  cleanup();
  await store().flushSave();
});

describe('CrewCanvas', () => {
  it('draws every agent and task with its badges', async () => {
    await open(sequentialCrew());
    render(<CrewCanvas />);
    const brief = screen.getByTestId('crew-node-task:brief');
    expect(within(brief).getByText('Write the brief')).toBeTruthy();
    expect(within(brief).getByTestId('badge-guardrails').textContent).toBe('2');
    expect(within(brief).getByTestId('badge-human')).toBeTruthy();
    expect(within(screen.getByTestId('crew-node-agent:researcher')).getByText('calculator')).toBeTruthy();
    expect(screen.queryByTestId('canvas-problems')).toBeNull();
    // The dot grid is a CSS background (CanvasBackground.tsx), not React Flow's SVG pattern, which was
    // rasterised again wherever a live run changed a node.
    expect(screen.getByTestId('canvas-background')).toBeTruthy();
    expect(document.querySelector('.react-flow pattern')).toBeNull();
  });

  it('shows each problem on the node at fault, and crew-level ones in the banner', async () => {
    const doc = sequentialCrew();
    doc.name = '';
    doc.tasks![1] = { ...doc.tasks![1], agentId: 'ghost' };
    await open(doc);
    render(<CrewCanvas />);
    const outline = screen.getByTestId('crew-node-task:outline');
    expect(within(outline).getByTestId('node-problems').textContent).toMatch(/agentId: no agent with id "ghost"/);
    expect(within(screen.getByTestId('crew-node-task:brief')).queryByTestId('node-problems')).toBeNull();
    expect(screen.getByTestId('canvas-problems').textContent).toMatch(/name/);
  });

  it('shows the text and the error of a file that is not JSON, and writes nothing', async () => {
    const host = await open('not json at all');
    render(<CrewCanvas />);
    expect((screen.getByTestId('canvas-unreadable-text') as HTMLTextAreaElement).value).toBe('not json at all');
    expect(screen.getByTestId('canvas-unreadable-error').textContent).toMatch(/invalid JSON/);
    fireEvent.change(screen.getByTestId('canvas-unreadable-text'), { target: { value: '{"kind":"crew","name":"Fixed"}' } });
    fireEvent.click(screen.getByTestId('canvas-unreadable-apply'));
    expect(store().doc?.name).toBe('Fixed');
    await act(() => store().flushSave());
    expect(host.saved(PATH)).toEqual({ kind: 'crew', name: 'Fixed' });
  });

  it('deletes the selected node with the Delete key and undoes it with Ctrl+Z', async () => {
    await open(sequentialCrew());
    render(<CrewCanvas />);
    act(() => useUiStore.getState().select(['task:outline']));
    fireEvent.keyDown(document.body, { key: 'Delete' });
    expect(store().doc?.tasks?.map((t) => t.id)).toEqual(['research', 'brief']);
    expect(screen.queryByTestId('crew-node-task:outline')).toBeNull();
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(store().doc?.tasks).toHaveLength(3);
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true, shiftKey: true });
    expect(store().doc?.tasks).toHaveLength(2);
  });

  it('copies and pastes the selection with the keyboard', async () => {
    await open(sequentialCrew());
    render(<CrewCanvas />);
    act(() => useUiStore.getState().select(['agent:researcher']));
    fireEvent.keyDown(document.body, { key: 'c', ctrlKey: true });
    fireEvent.keyDown(document.body, { key: 'v', ctrlKey: true });
    expect(store().doc?.agents?.map((a) => a.id)).toEqual(['researcher', 'writer', 'researcher-2']);
    expect(screen.getByTestId('crew-node-agent:researcher-2')).toBeTruthy();
  });

  it('adds nodes from the palette by click', async () => {
    await open(sequentialCrew());
    render(
      <>
        <Palette />
        <CrewCanvas />
      </>,
    );
    fireEvent.click(screen.getByTestId('palette-task'));
    expect(store().doc?.tasks).toHaveLength(4);
    expect(screen.getByTestId('crew-node-task:task-4')).toBeTruthy();
    expect(useUiStore.getState().selectedNodeIds).toEqual(['task:task-4']);
  });

  it('draws the manager for hierarchical crews and overlays live run status on nodes', async () => {
    await open(hierarchicalCrew());
    render(<CrewCanvas />);
    expect(screen.getByTestId('crew-node-manager')).toBeTruthy();
    act(() =>
      useRunStore.setState({
        runId: 'run_live',
        view: {
          ...emptyRunView('run_live'),
          nodeStatus: { 'task:pricing': 'running', 'agent:analyst': 'waiting' },
          nodeCounters: { 'agent:analyst': { toolCalls: 3, retries: 1 } },
        },
      }),
    );
    const pricing = screen.getByTestId('crew-node-task:pricing');
    expect(pricing.dataset.status).toBe('running');
    expect(within(pricing).getByTestId('node-status').textContent).toBe('Running');
    const analyst = screen.getByTestId('crew-node-agent:analyst');
    expect(within(analyst).getByTestId('node-tool-calls').textContent).toBe('3');
    expect(within(analyst).getByTestId('node-retries').textContent).toBe('1');
    act(() => useRunStore.setState({ runId: undefined, view: undefined }));
    expect(screen.getByTestId('crew-node-task:pricing').dataset.status).toBeUndefined();
  });
});
