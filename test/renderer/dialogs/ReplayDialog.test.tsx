// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyUsage } from '../../../shared/usage';
import { ReplayDialog } from '../../../renderer/dialogs/ReplayDialog';
import { setHost } from '../../../renderer/host/hostContext';
import { useRunStore } from '../../../renderer/stores/runStore';
import { FakeHost } from '../run/fakeHost';
import { exampleDocument, recordedEvents } from '../run/runFixtures';

afterEach(async () => {
  cleanup();
  await useRunStore.getState().show(undefined);
});

function hostFor(outputs: { taskId: string; raw: string }[]) {
  const document = exampleDocument('research-brief');
  const replayed = recordedEvents('run-replay-from-brief');
  const host = new FakeHost({
    'runs.get': ({ runId }) => ({
      run: { id: runId, kind: 'crew', documentId: 'research-brief', name: 'Research brief', status: 'failed', startedAt: 1, tokenUsage: emptyUsage(), document, inputs: {} },
      taskOutputs: outputs.map((o, index) => ({ ...o, index, agentRole: 'Researcher', skipped: false, tokenUsage: emptyUsage() })),
    }),
    'runs.replay': () => ({ runId: replayed[0]!.runId }),
    'runs.events': () => ({ events: replayed, lastSeq: replayed.length, more: false }),
  });
  setHost(host);
  return host;
}

describe('ReplayDialog', () => {
  it('lists the run’s tasks with their stored outputs and replays from the chosen one', async () => {
    const host = hostFor([{ taskId: 'research', raw: '- 10 panels × 400 W = 4 kW peak.' }]);
    let closed = false;
    render(<ReplayDialog runId="run_original" onClose={() => (closed = true)} />);
    const items = await screen.findAllByTestId('replay-item');
    expect(items.map((i) => i.getAttribute('data-task-id'))).toEqual(['research', 'brief']);
    expect(items[0]!.textContent).toContain('10 panels');
    expect(items[1]!.textContent).toContain('no stored output');
    fireEvent.click(screen.getAllByRole('button', { name: 'Replay from here' })[1]!);
    await waitFor(() => expect(closed).toBe(true));
    expect(host.callsTo('runs.replay')).toEqual([{ runId: 'run_original', fromTaskId: 'brief' }]);
    expect(useRunStore.getState().runId).toBe(recordedEvents('run-replay-from-brief')[0]!.runId);
    expect(useRunStore.getState().view?.replayOf).toEqual({ runId: recordedEvents('run-sequential-tools-guardrail')[0]!.runId, fromTaskId: 'brief' });
  });

  it('forks: an earlier task’s output edited in the dialog goes with the replay', async () => {
    const host = hostFor([{ taskId: 'research', raw: '- 10 panels × 400 W = 4 kW peak.' }]);
    let closed = false;
    render(<ReplayDialog runId="run_original" onClose={() => (closed = true)} />);
    await screen.findAllByTestId('replay-item');
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit output' })[0]!);
    const text = screen.getByTestId('replay-edit-text') as HTMLTextAreaElement;
    expect(text.value).toContain('10 panels');
    fireEvent.change(text, { target: { value: '12 panels × 400 W = 4.8 kW peak.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.getAllByTestId('replay-item')[0]!.textContent).toContain('edited: 12 panels');
    fireEvent.click(screen.getAllByRole('button', { name: 'Replay from here' })[1]!);
    await waitFor(() => expect(closed).toBe(true));
    expect(host.callsTo('runs.replay')).toEqual([{ runId: 'run_original', fromTaskId: 'brief', edits: { research: '12 panels × 400 W = 4.8 kW peak.' } }]);
  });

  it('does not offer a task whose earlier tasks have no stored output', async () => {
    hostFor([]);
    render(<ReplayDialog runId="run_original" onClose={() => {}} />);
    const buttons = (await screen.findAllByRole('button', { name: 'Replay from here' })) as HTMLButtonElement[];
    expect(buttons.map((b) => b.disabled)).toEqual([false, true]);
  });
});
