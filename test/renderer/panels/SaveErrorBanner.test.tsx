// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { updateEntity } from '../../../renderer/commands/updateEntity';
import { setHost } from '../../../renderer/host/hostContext';
import { SaveErrorBanner } from '../../../renderer/panels/SaveErrorBanner';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { hierarchicalCrew, sequentialCrew } from '../document/crewFixtures';
import { MemoryHost } from '../document/memoryHost';

const OPEN = 'brief.crew.json';
const OTHER = 'launch.crew.json';
let host: MemoryHost;
const docs = () => useDocumentStore.getState();

beforeEach(async () => {
  host = new MemoryHost();
  host.files.set(OPEN, JSON.stringify(sequentialCrew()));
  host.files.set(OTHER, JSON.stringify(hierarchicalCrew()));
  setHost(host);
  void useDocumentStore.getState().open(OPEN);
  await docs().load(OPEN);
});

afterEach(() => {
  cleanup();
  docs().close();
});

/** An edit whose save fails, then a click on another crew. */
async function failAndSwitch() {
  host.failSaves = 'disk full';
  act(() => void docs().perform(updateEntity('agent:writer', { role: 'Editor' })));
  act(() => void useDocumentStore.getState().open(OTHER));
  await act(() => docs().load(OTHER));
}

describe('SaveErrorBanner', () => {
  it('is not there while saves work', async () => {
    render(<SaveErrorBanner />);
    act(() => void docs().perform(updateEntity('agent:writer', { role: 'Editor' })));
    await act(() => docs().flushSave());
    expect(screen.queryByTestId('save-error-banner')).toBeNull();
  });

  it('says which document could not be saved and why, and that the other one was not opened', async () => {
    render(<SaveErrorBanner />);
    await failAndSwitch();
    const banner = screen.getByTestId('save-error-banner');
    expect(banner.textContent).toContain(`Could not save ${OPEN}: disk full`);
    expect(banner.textContent).toContain(`${OTHER} was not opened`);
    expect(useDocumentStore.getState().path).toBe(OPEN);
  });

  it('Retry saves the changes and then opens the crew that was waiting', async () => {
    render(<SaveErrorBanner />);
    await failAndSwitch();
    host.failSaves = undefined;
    fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
    await waitFor(() => expect(docs().path).toBe(OTHER));
    expect((host.saved(OPEN) as { agents: { role: string }[] }).agents[1]!.role).toBe('Editor');
    expect(useDocumentStore.getState().path).toBe(OTHER);
    expect(screen.queryByTestId('save-error-banner')).toBeNull();
  });

  it('Discard drops the changes and opens the crew that was waiting', async () => {
    render(<SaveErrorBanner />);
    await failAndSwitch();
    fireEvent.click(screen.getByRole('button', { name: `Discard changes and open ${OTHER}` }));
    await waitFor(() => expect(docs().path).toBe(OTHER));
    expect(docs().saveState).toBe('saved');
    expect((host.saved(OPEN) as { agents: { role: string }[] }).agents[1]!.role).toBe('Writer');
    expect(screen.queryByTestId('save-error-banner')).toBeNull();
  });
});
