// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SuggestionVersion, TrainingRecord, TrainingSession } from '../../../shared/training';
import { emptyUsage } from '../../../shared/usage';
import { setHost } from '../../../renderer/host/hostContext';
import { HumanDialogs } from '../../../renderer/dialogs/HumanDialogs';
import { TrainingPanel } from '../../../renderer/panels/training/TrainingPanel';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useHumanRequestStore } from '../../../renderer/stores/humanRequestStore';
import { useTrainingStore } from '../../../renderer/stores/trainingStore';
import { useRunStore } from '../../../renderer/stores/runStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FakeHost } from '../run/fakeHost';

const CREW = 'launch-notes';

function version(n: number, status: SuggestionVersion['status'], suggestions: string[], extra: Partial<SuggestionVersion> = {}): SuggestionVersion {
  return {
    crewId: CREW,
    role: 'Writer',
    version: n,
    status,
    suggestions,
    quality: 6 + n,
    summary: `Summary of v${n}`,
    trainingId: `train_${n}`,
    runIds: [`run_${n}`],
    recordIds: [n * 10],
    edited: false,
    history: [],
    createdAt: 1_700_000_000_000 + n,
    updatedAt: 1_700_000_000_000 + n,
    ...extra,
  };
}

const record = (id: number, runId: string): TrainingRecord => ({
  id,
  trainingId: 'train_2',
  runId,
  crewId: CREW,
  iteration: 1,
  taskId: 'note',
  role: 'Writer',
  initialOutput: 'The app ships soon.',
  feedback: 'Name the city.',
  improvedOutput: 'Launch in Lisbon.',
  createdAt: 1,
});

const session: TrainingSession = { id: 'train_2', crewId: CREW, name: 'Launch notes', iterations: 2, status: 'running', runIds: ['run_a'], startedAt: 1 };

let versions: SuggestionVersion[];
let fake: FakeHost;

beforeEach(() => {
  versions = [version(2, 'active', ['Start with a summary.', 'Name the city.', 'Keep it short.']), version(1, 'disabled', ['Start with a summary.', 'Name the date.'])];
  fake = new FakeHost({
    'training.sessions': () => ({ sessions: [session] }),
    'training.versions': () => ({ versions }),
    'training.records': (r) => ({ records: (r.ids ?? []).map((id) => record(id, 'run_a')) }),
    'training.diff': (r) => ({ diff: { from: r.from, to: r.to, added: ['Keep it short.'], removed: [], changed: [{ before: 'Name the date.', after: 'Name the city.' }], unchanged: ['Start with a summary.'] } }),
    'training.setSuggestions': (r) => {
      versions = versions.map((v) => (v.version === r.version ? { ...v, suggestions: r.suggestions, edited: true } : v));
      return { version: versions.find((v) => v.version === r.version)! };
    },
    'training.activate': (r) => ({ version: versions.find((v) => v.version === r.version)! }),
    'training.disable': (r) => ({ version: versions.find((v) => v.version === r.version)! }),
    'training.rollback': () => ({ version: versions[1]! }),
    'runs.get': () => new Promise(() => undefined),
    'runs.events': () => new Promise(() => undefined),
    'human.pending': () => ({ requests: [] }),
  });
  setHost(fake);
  useTrainingStore.setState({ crewId: undefined, sessions: [], versions: [], selected: undefined, compareWith: undefined, diff: undefined, records: [], recordsFor: undefined, runLabels: {}, actionError: undefined });
  useDocumentStore.setState({ path: 'launch.crew.json', doc: { kind: 'crew', id: CREW, name: 'Launch notes', agents: [{ id: 'writer', role: 'Writer' }], tasks: [] } as never });
  useUiStore.setState({ view: 'training', bottomTab: 'output' });
  useRunStore.setState({ runId: undefined });
});

afterEach(() => {
  cleanup();
  useTrainingStore.getState().attach()();
});

async function renderPanel() {
  render(<TrainingPanel />);
  await screen.findByTestId('training-version-detail');
}

describe('training panel', () => {
  it('shows the role’s versions with status, quality and the active one picked, and the session in progress', async () => {
    await renderPanel();
    const rows = screen.getAllByTestId('training-version');
    expect(rows.map((r) => [r.dataset.version, r.dataset.status])).toEqual([
      ['2', 'active'],
      ['1', 'disabled'],
    ]);
    expect(rows[0]!.textContent).toContain('8/10');
    expect(screen.getByTestId('training-version-detail').dataset.version).toBe('2');
    expect(screen.getByTestId('training-role').textContent).toContain('v2 active · 3 suggestions');
    expect(screen.getByTestId('training-session').textContent).toContain('iteration 1 of 2');
  });

  it('edits a suggestion and saves the whole list through training.setSuggestions', async () => {
    await renderPanel();
    const inputs = screen.getAllByTestId('suggestion-input');
    const save = screen.getByTestId('suggestions-save') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(inputs[1]!, { target: { value: 'Name the city and the venue.' } });
    expect(save.disabled).toBe(false);
    fireEvent.click(screen.getAllByTestId('suggestion-remove')[2]!);
    await act(async () => fireEvent.click(save));
    expect(fake.callsTo('training.setSuggestions')).toEqual([{ crewId: CREW, role: 'Writer', version: 2, suggestions: ['Start with a summary.', 'Name the city and the venue.'] }]);
    await waitFor(() => expect(screen.getAllByTestId('training-edited').length).toBeGreaterThan(0));
  });

  it('refuses to save an empty suggestion', async () => {
    await renderPanel();
    fireEvent.change(screen.getAllByTestId('suggestion-input')[0]!, { target: { value: '  ' } });
    expect((screen.getByTestId('suggestions-save') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('A suggestion must not be empty.')).toBeTruthy();
  });

  it('diffs with another version: older → newer, added and changed lines', async () => {
    await renderPanel();
    await act(async () => fireEvent.change(screen.getByTestId('training-compare'), { target: { value: '1' } }));
    const diff = await screen.findByTestId('version-diff');
    expect(fake.callsTo('training.diff')).toEqual([{ crewId: CREW, role: 'Writer', from: 1, to: 2 }]);
    expect(within(diff).getByTestId('diff-added').textContent).toContain('Keep it short.');
    expect(within(diff).getByTestId('diff-changed').textContent).toContain('Name the date.');
    expect(within(diff).getByTestId('diff-changed').textContent).toContain('Name the city.');
    expect(diff.textContent).toContain('v1 → v2: 1 added · 0 removed · 1 changed · 1 kept');
  });

  it('activates, disables and rolls back through their channels', async () => {
    await renderPanel();
    await act(async () => fireEvent.click(screen.getByTestId('training-disable')));
    expect(fake.callsTo('training.disable')).toEqual([{ crewId: CREW, role: 'Writer', version: 2 }]);
    await act(async () => fireEvent.click(screen.getByTestId('training-rollback')));
    expect(fake.callsTo('training.rollback')).toEqual([{ crewId: CREW, role: 'Writer' }]);
    await act(async () => fireEvent.click(screen.getAllByTestId('training-version')[1]!));
    await act(async () => fireEvent.click(await screen.findByTestId('training-activate')));
    expect(fake.callsTo('training.activate')).toEqual([{ crewId: CREW, role: 'Writer', version: 1 }]);
  });

  it('shows a refused change', async () => {
    fake.handlers['training.rollback'] = () => {
      throw new Error('no earlier version of "Writer" to roll back to');
    };
    await renderPanel();
    await act(async () => fireEvent.click(screen.getByTestId('training-rollback')));
    expect((await screen.findByTestId('training-action-error')).textContent).toContain('no earlier version');
  });

  it('lists the feedback records behind the version; a record’s run opens in the trace', async () => {
    await renderPanel();
    const rec = await screen.findByTestId('feedback-record');
    expect(fake.callsTo('training.records')).toEqual([{ crewId: CREW, role: 'Writer', ids: [20] }]);
    expect(rec.textContent).toContain('Name the city.');
    expect(rec.textContent).toContain('Launch in Lisbon.');
    fireEvent.click(within(rec).getByTestId('feedback-record-run'));
    expect(useRunStore.getState().runId).toBe('run_a');
    expect(useUiStore.getState().bottomTab).toBe('trace');
  });

  it('reloads on training.changed for this crew, not for another', async () => {
    await renderPanel();
    const before = fake.callsTo('training.versions').length;
    versions = [version(3, 'active', ['New one.']), ...versions.map((v) => ({ ...v, status: 'disabled' as const }))];
    await act(async () => fake.push({ kind: 'training.changed', crewId: 'other' }));
    expect(fake.callsTo('training.versions').length).toBe(before);
    await act(async () => fake.push({ kind: 'training.changed', crewId: CREW }));
    await waitFor(() => expect(screen.getAllByTestId('training-version')[0]!.dataset.version).toBe('3'));
  });

  it("follows a session through its events: this crew's sessions reload, another crew's do not", async () => {
    await renderPanel();
    const before = fake.callsTo('training.sessions').length;
    const event = (payload: Record<string, unknown>) => ({ kind: 'event' as const, event: { runId: 'run_eval', spanId: 's1', seq: 2, ts: 1, ...payload } as never });
    await act(async () => fake.push(event({ type: 'training.started', sessionId: 'train_9', crewId: 'other', iterations: 1 })));
    await act(async () => fake.push(event({ type: 'training.completed', sessionId: 'train_9', versions: 1, runIds: [], tokenUsage: emptyUsage() })));
    expect(fake.callsTo('training.sessions').length).toBe(before);
    await act(async () => fake.push(event({ type: 'training.completed', sessionId: session.id, versions: 1, runIds: ['run_a'], tokenUsage: emptyUsage() })));
    await waitFor(() => expect(fake.callsTo('training.sessions').length).toBe(before + 1));
    await act(async () => fake.push(event({ type: 'training.started', sessionId: 'train_10', crewId: CREW, iterations: 2 })));
    await waitFor(() => expect(fake.callsTo('training.sessions').length).toBe(before + 2));
  });
});

describe('review dialog of a training run', () => {
  it('names the training iteration', async () => {
    useTrainingStore.getState().attach();
    useHumanRequestStore.setState({ requests: [] });
    render(<HumanDialogs />);
    await act(async () =>
      fake.push({
        kind: 'event',
        event: { type: 'run.started', runId: 'run_b', spanId: 's0', seq: 1, ts: 1, documentId: CREW, documentName: 'Launch notes', process: 'sequential', inputs: {}, stepIds: ['note'], purpose: { kind: 'training', sessionId: 'train_2', iteration: 2, iterations: 3 } } as never,
      }),
    );
    await act(async () =>
      useHumanRequestStore.setState({
        requests: [{ requestId: 'h1', runId: 'run_b', kind: 'task_review', taskId: 'note', agentRole: 'Writer', prompt: 'Write the note', output: 'The app ships soon.', requestedAt: 2 }],
      }),
    );
    expect((await screen.findByTestId('human-dialog')).textContent).toContain('Training iteration 2 of 3');
  });
});
