// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../renderer/App';
import { updateEntity } from '../../../renderer/commands/updateEntity';
import { setHost } from '../../../renderer/host/hostContext';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { sequentialCrew } from '../document/crewFixtures';
import { MemoryHost } from '../document/memoryHost';

const OPEN = 'brief.crew.json';
let host: MemoryHost;
const docs = () => useDocumentStore.getState();

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

beforeEach(() => {
  host = new MemoryHost();
  host.files.set(OPEN, JSON.stringify(sequentialCrew()));
  setHost(host);
});

afterEach(() => {
  cleanup();
  docs().close();
  void useDocumentStore.getState().open(undefined);
});

async function openInApp() {
  render(<App />);
  act(() => void useDocumentStore.getState().open(OPEN));
  await waitFor(() => expect(docs().loadState).toBe('ready'));
  act(() => void docs().perform(updateEntity('agent:writer', { role: 'Editor' })));
}

describe('App and the open document', () => {
  it('closes the document when no document is shown any more: no inspector, no undo, nothing saved later', async () => {
    await openInApp();
    const undo = screen.getByRole('button', { name: 'Undo' }) as HTMLButtonElement;
    expect(undo.disabled).toBe(false);
    act(() => void useDocumentStore.getState().open(undefined));
    expect(docs().path).toBeUndefined();
    expect(undo.disabled).toBe(true);
    expect(within(screen.getByTestId('inspector')).getByText('Open a crew to inspect it.')).toBeTruthy();
    // Instead of waiting out the autosave's delay: a flush sends whatever save is still scheduled now,
    // and resolves once every save sent so far has answered (autosave.ts); documents.save is only sent from there.
    await act(() => docs().flushSave());
    expect(host.saves).toEqual([]);
  });

  it('deleting the open crew from the sidebar empties the canvas and the inspector', async () => {
    await openInApp();
    fireEvent.click(screen.getByRole('button', { name: `Delete ${OPEN}` }));
    fireEvent.click(screen.getByTestId('confirm-delete'));
    await waitFor(() => expect(screen.getByText('Open a crew')).toBeTruthy());
    expect(within(screen.getByTestId('inspector')).getByText('Open a crew to inspect it.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Undo' }) as HTMLButtonElement).disabled).toBe(true);
    expect(host.files.has(OPEN)).toBe(false);
  });

  it('renaming the open crew keeps it on the canvas, undoable, without reading it again', async () => {
    await openInApp();
    const reads = host.log.filter((l) => l.startsWith('documents.read')).length;
    fireEvent.doubleClick(await screen.findByTitle(`${OPEN} — double-click to rename`));
    const input = screen.getByTestId('rename-input');
    fireEvent.change(input, { target: { value: 'renamed.crew.json' } });
    fireEvent.submit(input.closest('form')!);
    await waitFor(() => expect(useDocumentStore.getState().path).toBe('renamed.crew.json'));
    expect(docs().path).toBe('renamed.crew.json');
    expect((screen.getByRole('button', { name: 'Undo' }) as HTMLButtonElement).disabled).toBe(false);
    expect(host.log.filter((l) => l.startsWith('documents.read')).length).toBe(reads);
    expect(screen.getByTestId('crew-canvas')).toBeTruthy();
  });
});
