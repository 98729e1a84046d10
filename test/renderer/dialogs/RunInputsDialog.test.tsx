// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyUsage } from '../../../shared/usage';
import { updateCrew } from '../../../renderer/commands/updateCrew';
import { RunInputsDialog } from '../../../renderer/dialogs/RunInputsDialog';
import { setHost } from '../../../renderer/host/hostContext';
import { HostCallError } from '../../../renderer/host/hostError';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
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
  useDocumentStore.setState({ path: PATH });
  useUiStore.setState({ runDialogOpen: true, bottomTab: 'runs' });
});
afterEach(async () => {
  cleanup();
  useUiStore.setState({ runDialogOpen: false });
  useDocumentStore.setState({ path: undefined });
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
    expect(useRunStore.getState().runId).toBe('run_started');
    expect(useUiStore.getState().bottomTab).toBe('trace');
  });

  it('speaks of a flow while its saved file is still being read (the title said "Run crew")', async () => {
    const flow = { version: 1, kind: 'flow', id: 'feedback-loop', name: 'Feedback loop', state: {}, methods: [] };
    useDocumentStore.setState({ path: 'feedback-loop.flow.json', doc: flow as never, saveState: 'saved' });
    let release!: () => void;
    const reading = new Promise<void>((resolve) => (release = resolve));
    hostFor(flow);
    const read = host.handlers['documents.read']!;
    host.handlers['documents.read'] = async (request) => {
      await reading;
      return read(request);
    };
    render(<RunInputsDialog />);
    expect(screen.getByTestId('run-dialog').textContent).toContain('Reading the document');
    expect(screen.getByTestId('run-dialog').textContent).toContain('Run flow');
    expect(screen.getByTestId('run-dialog').textContent).not.toMatch(/crew/i);
    release();
    await screen.findByText('Run Feedback loop');
    expect(screen.getByTestId('run-dialog').textContent).not.toMatch(/crew/i);
    useDocumentStore.setState({ doc: undefined });
  });

  it('requires inputs that have no default, including placeholders the crew uses without declaring', async () => {
    const doc = exampleDocument('research-brief') as { inputs: unknown[]; agents: { goal: string }[] };
    doc.inputs = [{ name: 'topic' }];
    doc.agents[1]!.goal = 'Write for {audience}';
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

describe('RunInputsDialog for the open document', () => {
  /** A host that keeps one document: reads return what was saved last; saves fail while `failSave` is set. */
  function hostKeeping(initial: unknown) {
    let stored = initial;
    const state = { failSave: undefined as string | undefined };
    hostFor(initial);
    host.handlers['documents.read'] = ({ path }) => ({ path, document: stored, text: JSON.stringify(stored), problems: [], modifiedAt: 1 });
    host.handlers['documents.save'] = ({ path, document }) => {
      if (state.failSave) throw new HostCallError('documents.save', { code: 'internal', message: state.failSave });
      stored = document;
      return { path, problems: [], modifiedAt: 2 };
    };
    return state;
  }
  const channels = () => host.calls.map((c) => c.channel).filter((c) => c.startsWith('documents.') || c === 'runs.start');

  afterEach(() => useDocumentStore.getState().close());

  it('saves the pending edits first, so the dialog and the run use what is on the canvas', async () => {
    hostKeeping(exampleDocument('research-brief'));
    await useDocumentStore.getState().load(PATH);
    useDocumentStore.getState().perform(updateCrew({ inputs: [{ name: 'topic', description: 'What the brief is about', default: 'heat pumps' }] }));
    expect(useDocumentStore.getState().saveState).toBe('unsaved');
    render(<RunInputsDialog />);
    const topic = (await screen.findByLabelText(/topic/)) as HTMLInputElement;
    expect(topic.value).toBe('heat pumps');
    expect(channels()).toEqual(['documents.read', 'documents.save', 'documents.read']);
    // An edit that is still waiting for its autosave when Start is pressed is saved before the run starts.
    useDocumentStore.getState().perform(updateCrew({ name: 'Heat pump brief' }));
    fireEvent.click(screen.getByRole('button', { name: /Start run/ }));
    await waitFor(() => expect(host.callsTo('runs.start')).toHaveLength(1));
    expect(channels().slice(-2)).toEqual(['documents.save', 'runs.start']);
    expect(useDocumentStore.getState().saveState).toBe('saved');
  });

  it('refuses to run when the edits cannot be saved, and says why', async () => {
    const state = hostKeeping(exampleDocument('research-brief'));
    await useDocumentStore.getState().load(PATH);
    state.failSave = 'disk full';
    useDocumentStore.getState().perform(updateCrew({ name: 'Renamed' }));
    render(<RunInputsDialog />);
    const error = await screen.findByTestId('run-dialog-error');
    expect(error.textContent).toContain('could not be saved');
    expect(error.textContent).toContain('disk full');
    expect((screen.getByRole('button', { name: /Start run/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(host.callsTo('runs.start')).toEqual([]);
    expect(channels()).toEqual(['documents.read', 'documents.save']);
  });

  it('refuses at Start when a save fails after the dialog opened', async () => {
    const state = hostKeeping(exampleDocument('research-brief'));
    await useDocumentStore.getState().load(PATH);
    render(<RunInputsDialog />);
    await screen.findByLabelText(/topic/);
    state.failSave = 'disk full';
    useDocumentStore.getState().perform(updateCrew({ name: 'Renamed' }));
    fireEvent.click(screen.getByRole('button', { name: /Start run/ }));
    const error = await screen.findByTestId('run-dialog-error');
    expect(error.textContent).toContain('disk full');
    expect(host.callsTo('runs.start')).toEqual([]);
    expect(useUiStore.getState().runDialogOpen).toBe(true);
  });
});

