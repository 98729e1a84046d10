// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyUsage } from '../../../shared/usage';
import { RunInputsDialog } from '../../../renderer/dialogs/RunInputsDialog';
import { setHost } from '../../../renderer/host/hostContext';
import { HostCallError } from '../../../renderer/host/hostError';
import { useRunStore } from '../../../renderer/stores/runStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FakeHost } from '../run/fakeHost';
import { exampleDocument } from '../run/runFixtures';

const PATH = 'research-brief.crew.json';
let host: FakeHost;

function hostFor(document: unknown) {
  host = new FakeHost({
    'documents.read': ({ path }) => ({ path, document, text: JSON.stringify(document), problems: [], modifiedAt: 1 }),
    'settings.get': () => ({ settings: { version: 1, models: { profiles: { local: { provider: 'openai', model: 'llama3' } } } }, problems: [], keys: [] }),
    'runs.start': () => ({ runId: 'run_started' }),
    'runs.get': () => ({
      run: { id: 'run_started', kind: 'crew', documentId: 'research-brief', name: 'Research brief', status: 'running', startedAt: 1, tokenUsage: emptyUsage(), document, inputs: {} },
      taskOutputs: [],
    }),
    'runs.events': () => ({ events: [], lastSeq: 0, more: false }),
  });
  setHost(host);
}

beforeEach(() => {
  useUiStore.setState({ documentPath: PATH, runDialogOpen: true, bottomTab: 'runs' });
});
afterEach(async () => {
  cleanup();
  useUiStore.setState({ runDialogOpen: false, documentPath: undefined });
  await useRunStore.getState().show(undefined);
});

describe('RunInputsDialog', () => {
  it('asks for the crew inputs with their defaults and descriptions, then starts the run and shows it', async () => {
    hostFor(exampleDocument('research-brief'));
    render(<RunInputsDialog />);
    const topic = (await screen.findByLabelText(/topic/)) as HTMLInputElement;
    expect(topic.value).toBe('rooftop solar');
    await waitFor(() => expect(document.activeElement).toBe(topic));
    expect(screen.getByTestId('run-dialog').textContent).toContain('What the brief is about');
    expect(screen.getByTestId('run-dialog').textContent).toContain('Run Research brief');
    fireEvent.change(topic, { target: { value: 'heat pumps' } });
    fireEvent.click(screen.getByRole('button', { name: /Start run/ }));
    await waitFor(() => expect(useUiStore.getState().runDialogOpen).toBe(false));
    expect(host.callsTo('runs.start')).toEqual([{ path: PATH, inputs: { topic: 'heat pumps' } }]);
    expect(useUiStore.getState().runId).toBe('run_started');
    expect(useUiStore.getState().bottomTab).toBe('trace');
  });

  it('requires inputs that have no default, including placeholders the crew uses without declaring', async () => {
    const doc = exampleDocument('research-brief') as { inputs: unknown[]; agents: { goal: string }[] };
    doc.inputs = [{ name: 'topic' }];
    doc.agents[1].goal = 'Write for {audience}';
    hostFor(doc);
    render(<RunInputsDialog />);
    await screen.findByLabelText(/topic/);
    const start = screen.getByRole('button', { name: /Start run/ }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(screen.getByTestId('run-dialog').textContent).toContain('not declared');
    fireEvent.change(screen.getByLabelText(/topic/), { target: { value: 'wind' } });
    expect(start.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/audience/), { target: { value: 'farmers' } });
    expect(start.disabled).toBe(false);
  });

  it('runs every agent with a chosen model profile', async () => {
    hostFor(exampleDocument('research-brief'));
    render(<RunInputsDialog />);
    fireEvent.change(await screen.findByLabelText('Model'), { target: { value: 'local' } });
    fireEvent.click(screen.getByRole('button', { name: /Start run/ }));
    await waitFor(() => expect(host.callsTo('runs.start')).toEqual([{ path: PATH, inputs: { topic: 'rooftop solar' }, model: 'local' }]));
  });

  it('shows what the host refused, problem by problem, and stays open', async () => {
    hostFor(exampleDocument('research-brief'));
    host.handlers['runs.start'] = () => {
      throw new HostCallError('runs.start', { code: 'bad_input', message: 'the crew is invalid', problems: [{ path: 'tasks.1.agentId', message: 'no agent "ghost"' }] });
    };
    render(<RunInputsDialog />);
    await screen.findByLabelText(/topic/);
    fireEvent.click(screen.getByRole('button', { name: /Start run/ }));
    const error = await screen.findByTestId('run-dialog-error');
    expect(error.textContent).toContain('the crew is invalid');
    expect(error.textContent).toContain('tasks.1.agentId');
    expect(useUiStore.getState().runDialogOpen).toBe(true);
  });

  it('closes on Cancel and on Escape without starting anything', async () => {
    hostFor(exampleDocument('research-brief'));
    render(<RunInputsDialog />);
    await screen.findByLabelText(/topic/);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(useUiStore.getState().runDialogOpen).toBe(false);
    expect(host.callsTo('runs.start')).toEqual([]);
  });
});
