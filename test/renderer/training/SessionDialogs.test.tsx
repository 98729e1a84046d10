// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setHost } from '../../../renderer/host/hostContext';
import { TestDialog } from '../../../renderer/panels/testing/TestDialog';
import { TrainDialog } from '../../../renderer/panels/training/TrainDialog';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useTestStore } from '../../../renderer/stores/testStore';
import { useTrainingStore } from '../../../renderer/stores/trainingStore';
import { useRunStore } from '../../../renderer/stores/runStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FakeHost } from '../run/fakeHost';

let fake: FakeHost;
const doc = { kind: 'crew', id: 'launch-notes', name: 'Launch notes', inputs: [{ name: 'city', default: 'Lisbon' }], agents: [], tasks: [] };

beforeEach(() => {
  fake = new FakeHost({
    'documents.read': ({ path }) => ({ path, document: doc, text: JSON.stringify(doc), problems: [], modifiedAt: 1 }),
    'settings.get': () => ({ settings: { version: 1, models: { profiles: { judge: { provider: 'scripted', model: 'j' } } } }, problems: [], keys: [] }),
    'training.start': () => ({ trainingId: 'train_1', runId: 'run_1' }),
    'training.sessions': () => ({ sessions: [] }),
    'training.versions': () => ({ versions: [] }),
    'tests.start': () => ({ testId: 'test_1', runId: 'run_2' }),
    'tests.list': () => ({ tests: [] }),
  });
  setHost(fake);
  // Open, with nothing to save first.
  useDocumentStore.setState({ path: 'launch.crew.json', doc: undefined, saveState: 'saved' });
  useUiStore.setState({ view: 'canvas' });
  useRunStore.setState({ runId: undefined });
  useTrainingStore.setState({ dialogOpen: true, runLabels: {} });
  useTestStore.setState({ dialogOpen: true });
});

afterEach(cleanup);

describe('Train… and Test… dialogs', () => {
  it('starts a training with iterations, evaluator profile and inputs, then shows the training view and the first run', async () => {
    render(<TrainDialog />);
    const iterations = await screen.findByTestId('train-iterations');
    fireEvent.change(iterations, { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('train-eval-model'), { target: { value: 'judge' } });
    await act(async () => fireEvent.click(screen.getByTestId('train-start')));
    expect(fake.callsTo('training.start')).toEqual([{ path: 'launch.crew.json', iterations: 3, evalModel: 'judge', inputs: { city: 'Lisbon' } }]);
    expect(useUiStore.getState().view).toBe('training');
    expect(useRunStore.getState().runId).toBe('run_1');
    expect(useTrainingStore.getState().runLabels.run_1).toEqual({ trainingId: 'train_1', iteration: 1, iterations: 3 });
    expect(screen.queryByTestId('train-dialog')).toBeNull();
  });

  it('refuses iterations outside 1–50', async () => {
    render(<TrainDialog />);
    fireEvent.change(await screen.findByTestId('train-iterations'), { target: { value: '0' } });
    expect((screen.getByTestId('train-start') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('train-iterations'), { target: { value: '51' } });
    expect((screen.getByTestId('train-start') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows why the host refused a training', async () => {
    fake.handlers['training.start'] = () => {
      throw new Error('evalModel: no model profile "judge"');
    };
    render(<TrainDialog />);
    await screen.findByTestId('train-iterations');
    await act(async () => fireEvent.click(screen.getByTestId('train-start')));
    expect((await screen.findByTestId('train-dialog-error')).textContent).toContain('no model profile');
  });

  it('starts a test with the agents’ own models by default and shows the test view', async () => {
    render(<TestDialog />);
    await screen.findByTestId('test-iterations');
    await act(async () => fireEvent.click(screen.getByTestId('test-start')));
    expect(fake.callsTo('tests.start')).toEqual([{ path: 'launch.crew.json', iterations: 3, inputs: { city: 'Lisbon' } }]);
    expect(useUiStore.getState().view).toBe('tests');
  });
});
