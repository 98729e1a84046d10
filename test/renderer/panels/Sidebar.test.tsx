// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { updateEntity } from '../../../renderer/commands/updateEntity';
import { setHost } from '../../../renderer/host/hostContext';
import { Sidebar } from '../../../renderer/panels/Sidebar';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useWorkspaceStore } from '../../../renderer/stores/workspaceStore';
import { sequentialCrew } from '../document/crewFixtures';
import { MemoryHost } from '../document/memoryHost';

const OPEN = 'brief.crew.json';
const OTHER = 'other.crew.json';
let host: MemoryHost;
const docs = () => useDocumentStore.getState();

beforeEach(async () => {
  host = new MemoryHost();
  host.files.set(OPEN, JSON.stringify(sequentialCrew()));
  host.files.set(OTHER, JSON.stringify(sequentialCrew()));
  setHost(host);
  await useWorkspaceStore.getState().refreshDocuments();
  void useDocumentStore.getState().open(OPEN);
  await docs().load(OPEN);
  // The person edited the open crew; the autosave has not run yet.
  docs().perform(updateEntity('agent:writer', { role: 'Editor' }));
  vi.spyOn(window, 'alert').mockImplementation(() => undefined);
  vi.spyOn(window, 'confirm').mockImplementation(() => true);
});

afterEach(async () => {
  cleanup();
  await docs().flushSave();
  docs().close();
  vi.restoreAllMocks();
});

const item = (path: string) => screen.getAllByTestId('document-item').find((el) => el.dataset.path === path)!;

function startRename(path: string, to: string): HTMLInputElement {
  fireEvent.doubleClick(item(path));
  const input = screen.getByTestId('rename-input') as HTMLInputElement;
  fireEvent.change(input, { target: { value: to } });
  return input;
}

describe('Sidebar: renaming and deleting crews', () => {
  it('renames the open crew in place: it stays open with its undo history, and edits go to the new file', async () => {
    render(<Sidebar />);
    const input = startRename(OPEN, 'renamed.crew.json');
    fireEvent.submit(input.closest('form')!);
    await waitFor(() => expect(item('renamed.crew.json')).toBeTruthy());
    expect(docs().path).toBe('renamed.crew.json');
    expect(useDocumentStore.getState().path).toBe('renamed.crew.json');
    expect(docs().history.past).toHaveLength(1);
    expect((host.saved('renamed.crew.json') as { agents: { role: string }[] }).agents[1]!.role).toBe('Editor');
    expect(host.files.has(OPEN)).toBe(false);
    expect(item('renamed.crew.json').getAttribute('aria-current')).toBe('true');
    expect(window.alert).not.toHaveBeenCalled();
  });

  it('shows a refused rename under the field, without an alert; Escape gives up', async () => {
    render(<Sidebar />);
    const input = startRename(OPEN, OTHER);
    fireEvent.submit(input.closest('form')!);
    const error = await screen.findByTestId('rename-error');
    expect(error.textContent).toContain('already exists');
    expect(window.alert).not.toHaveBeenCalled();
    expect(docs().path).toBe(OPEN);
    fireEvent.keyDown(screen.getByTestId('rename-input'), { key: 'Escape' });
    expect(screen.queryByTestId('rename-input')).toBeNull();
    expect(item(OPEN)).toBeTruthy();
  });

  it('renames a crew that is not open without touching the open one', async () => {
    render(<Sidebar />);
    fireEvent.submit(startRename(OTHER, 'third.crew.json').closest('form')!);
    await waitFor(() => expect(item('third.crew.json')).toBeTruthy());
    expect(docs().path).toBe(OPEN);
    expect(docs().saveState).toBe('unsaved');
  });

  it('asks in a dialog before deleting; deleting the open crew closes it and nothing writes it back', async () => {
    render(<Sidebar />);
    fireEvent.click(screen.getByRole('button', { name: `Delete ${OPEN}` }));
    const dialog = screen.getByTestId('delete-dialog');
    expect(dialog.textContent).toContain(OPEN);
    expect(window.confirm).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('delete-dialog')).toBeNull();
    expect(host.files.has(OPEN)).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: `Delete ${OPEN}` }));
    fireEvent.click(screen.getByTestId('confirm-delete'));
    await waitFor(() => expect(screen.queryByTestId('delete-dialog')).toBeNull());
    expect(host.files.has(OPEN)).toBe(false);
    expect(docs().path).toBeUndefined();
    expect(docs().doc).toBeUndefined();
    expect(docs().history.past).toEqual([]);
    expect(useDocumentStore.getState().path).toBeUndefined();
    // Not a wait for the autosave's timer: the flush sends any save still scheduled now (the edit from
    // beforeEach) and resolves once every save sent so far has answered; only then is the file looked at.
    await act(() => docs().flushSave());
    expect(host.files.has(OPEN)).toBe(false);
    expect(screen.getAllByTestId('document-item').map((el) => el.dataset.path)).toEqual([OTHER]);
  });

  it('keeps the dialog open with the reason when the delete fails', async () => {
    render(<Sidebar />);
    fireEvent.click(screen.getByRole('button', { name: `Delete ${OTHER}` }));
    host.files.delete(OTHER);
    fireEvent.click(screen.getByTestId('confirm-delete'));
    const error = await screen.findByTestId('delete-error');
    expect(error.textContent).toContain(`no document ${OTHER}`);
    expect(screen.getByTestId('delete-dialog')).toBeTruthy();
    expect(docs().path).toBe(OPEN);
  });
});
