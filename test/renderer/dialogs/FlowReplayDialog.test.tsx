// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyUsage } from '../../../shared/usage';
import { ReplayDialog } from '../../../renderer/dialogs/ReplayDialog';
import { setHost } from '../../../renderer/host/hostContext';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useRunStore } from '../../../renderer/stores/runStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FakeHost } from '../run/fakeHost';
import { recordedEvents } from '../run/runFixtures';

afterEach(async () => {
  cleanup();
  await useRunStore.getState().show(undefined);
  useDocumentStore.getState().close();
});

/** The review flow of scripts/recordFixtures.ts: draft → review (answered "revise") → rewrite; publish never ran. */
const document = {
  kind: 'flow',
  version: 1,
  id: 'review-flow',
  name: 'Review flow',
  state: { initial: { topic: 'numbers', status: 'draft' } },
  methods: [
    { id: 'draft', name: 'draft', trigger: { start: true }, body: { type: 'llm', prompt: 'Write a one-line draft about {state.topic}.' } },
    { id: 'review', name: 'review', trigger: { listen: 'draft' }, routes: ['approve', 'revise'], body: { type: 'human_feedback', message: 'Ready?' } },
    { id: 'publish', name: 'publish', trigger: { listen: { route: 'approve' } }, body: { type: 'set_state', set: { status: 'published' } } },
    { id: 'rewrite', name: 'rewrite', trigger: { listen: { route: 'revise' } }, body: { type: 'set_state', set: { status: 'rewritten' } } },
  ],
};

function flowHost(documentPath?: string) {
  const events = recordedEvents('run-flow-review-revise');
  const host = new FakeHost({
    'runs.get': ({ runId }) => ({
      run: { id: runId, kind: 'flow', documentId: 'review-flow', name: 'Review flow', status: 'completed', startedAt: 1, tokenUsage: emptyUsage(), document, inputs: {}, ...(documentPath ? { documentPath } : {}) },
      taskOutputs: [],
    }),
    'documents.read': ({ path }) => ({ path, document, text: JSON.stringify(document), problems: [], modifiedAt: 1 }),
    'runs.events': () => ({ events, lastSeq: events.length, more: false }),
    'runs.replay': () => ({ runId: events[0]!.runId }),
    'runs.list': () => ({ runs: [] }),
  });
  setHost(host);
  return host;
}

describe('ReplayDialog for a flow run', () => {
  it('lists the methods in the order they ran, with the state each started with, and forks with the edited fields', async () => {
    const host = flowHost();
    let closed = false;
    render(<ReplayDialog runId="run_flow" onClose={() => (closed = true)} />);
    const items = await screen.findAllByTestId('replay-item');
    expect(items.map((i) => i.getAttribute('data-method-id'))).toEqual(['draft', 'review', 'rewrite', 'publish']);
    expect(items[0]!.textContent).toContain('Draft: six times seven is 42.');
    expect(items[3]!.textContent).toContain('did not run');
    const replayButtons = screen.getAllByRole('button', { name: 'Replay from here' }) as HTMLButtonElement[];
    expect(replayButtons.map((b) => b.disabled)).toEqual([false, false, false, true]);

    // The review started with the state after the draft.
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit state' })[1]!);
    const fields = screen.getAllByTestId('replay-state-value') as HTMLInputElement[];
    expect(fields.map((f) => [f.dataset.key, f.value])).toEqual([
      ['topic', 'numbers'],
      ['status', 'draft'],
    ]);
    fireEvent.change(fields[0]!, { target: { value: 'letters' } });
    fireEvent.change(fields[1]!, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.getAllByTestId('replay-item')[1]!.textContent).toContain('state edited: topic, status');

    fireEvent.click(screen.getAllByRole('button', { name: 'Replay from here' })[1]!);
    await waitFor(() => expect(closed).toBe(true));
    // Text stays text; "2" reads as JSON, a number (as crewdeck replay --set-state).
    expect(host.callsTo('runs.replay')).toEqual([{ runId: 'run_flow', fromMethodId: 'review', state: { topic: 'letters', status: 2 } }]);
    expect(useRunStore.getState().runId).toBe(recordedEvents('run-flow-review-revise')[0]!.runId);
  });

  it('sends no state when nothing was changed', async () => {
    const host = flowHost();
    render(<ReplayDialog runId="run_flow" onClose={() => {}} />);
    await screen.findAllByTestId('replay-item');
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit state' })[2]!);
    fireEvent.click(screen.getAllByRole('button', { name: 'Replay from here' })[2]!);
    await waitFor(() => expect(host.callsTo('runs.replay')).toEqual([{ runId: 'run_flow', fromMethodId: 'rewrite' }]));
  });

  it('opens the flow on the canvas with the fork shown live, as a flow run started from the canvas is', async () => {
    const host = flowHost('flows/review.flow.json');
    // Replay from… is in the Runs tab, with no document (or another one) on the canvas.
    useUiStore.getState().setBottomTab('runs');
    expect(useDocumentStore.getState().path).toBeUndefined();
    render(<ReplayDialog runId="run_flow" onClose={() => {}} />);
    await screen.findAllByTestId('replay-item');
    fireEvent.click(screen.getAllByRole('button', { name: 'Replay from here' })[1]!);
    const forkId = recordedEvents('run-flow-review-revise')[0]!.runId;
    await waitFor(() => expect(useDocumentStore.getState().path).toBe('flows/review.flow.json'));
    await waitFor(() => expect(useDocumentStore.getState().doc?.kind).toBe('flow'));
    expect(host.callsTo('documents.read')).toEqual([{ path: 'flows/review.flow.json' }]);
    expect(useUiStore.getState().view).toBe('canvas');
    expect(useUiStore.getState().bottomTab).toBe('trace');
    expect(useRunStore.getState().runId).toBe(forkId);
  });
});
