// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PendingHumanRequest } from '../../../shared/host-api';
import { HumanDialogs } from '../../../renderer/dialogs/HumanDialogs';
import { PendingRequestsPill } from '../../../renderer/dialogs/PendingRequestsPill';
import { setHost } from '../../../renderer/host/hostContext';
import { useHumanRequestStore } from '../../../renderer/stores/humanRequestStore';
import type { RunQuestion } from '../../../renderer/stores/humanRequests';
import { useRunStore } from '../../../renderer/stores/runStore';
import { FakeHost } from '../run/fakeHost';

const review: RunQuestion = {
  requestId: 'h-review',
  runId: 'run_a',
  kind: 'task_review',
  taskId: 'brief',
  agentRole: 'Writer',
  prompt: 'Write a three-sentence brief about rooftop solar.',
  output: 'Solar is cheap. Panels are good. Roofs are big.',
  requestedAt: 10,
};
const approval: RunQuestion = {
  requestId: 'h-approval',
  runId: 'run_b',
  kind: 'tool_approval',
  taskId: 'research',
  agentRole: 'Researcher',
  prompt: 'Researcher wants to use read_file',
  tool: 'read_file',
  args: { path: 'data/solar-notes.md' },
  requestedAt: 20,
};

let host: FakeHost;
let detach: (() => void) | undefined;

function hostWith(pending: PendingHumanRequest[]) {
  const waiting = [...pending];
  host = new FakeHost({
    'human.pending': () => ({ requests: [...waiting] }),
    'human.answer': (req) => {
      const i = waiting.findIndex((r) => r.requestId === req.requestId);
      if (i < 0) throw new Error('not waiting');
      waiting.splice(i, 1);
      return {};
    },
    'runs.list': () => ({ runs: [] }),
  });
  setHost(host);
}

beforeEach(() => useHumanRequestStore.setState({ requests: [], opened: undefined, error: undefined, answering: undefined, later: new Set() }));
afterEach(() => {
  detach?.();
  detach = undefined;
  cleanup();
});

describe('HumanDialogs', () => {
  it('shows nothing when nobody is waiting', async () => {
    hostWith([]);
    await act(() => useHumanRequestStore.getState().load());
    render(<HumanDialogs />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the oldest request first and accepts an output with empty feedback', async () => {
    hostWith([approval, review]);
    await act(() => useHumanRequestStore.getState().load());
    render(<HumanDialogs />);
    const dialog = screen.getByTestId('human-dialog');
    expect(dialog.textContent).toContain('Review the answer of Writer');
    expect(screen.getByTestId('human-output').textContent).toBe(review.output);
    expect(dialog.textContent).toContain('1 of 2 waiting');
    fireEvent.click(screen.getByRole('button', { name: 'Accept output' }));
    await waitFor(() => expect(screen.getByTestId('approval-dialog')).toBeTruthy());
    expect(host.callsTo('human.answer')).toEqual([{ runId: 'run_a', requestId: 'h-review', feedback: '' }]);
  });

  it('sends typed feedback, and only when there is some', async () => {
    hostWith([review]);
    await act(() => useHumanRequestStore.getState().load());
    render(<HumanDialogs />);
    expect(document.activeElement).toBe(screen.getByLabelText('Feedback'));
    const send = screen.getByRole('button', { name: 'Send feedback' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Feedback'), { target: { value: 'Add the price per kWh.' } });
    expect(send.disabled).toBe(false);
    fireEvent.click(send);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(host.callsTo('human.answer')).toEqual([{ runId: 'run_a', requestId: 'h-review', feedback: 'Add the price per kWh.' }]);
  });

  it('sends once however often Ctrl+Enter is pressed while the answer is on its way', async () => {
    hostWith([review]);
    await act(() => useHumanRequestStore.getState().load());
    let release!: () => void;
    const answered = host.handlers['human.answer']!;
    host.handlers['human.answer'] = async (req) => {
      await new Promise<void>((r) => (release = r));
      return answered(req);
    };
    render(<HumanDialogs />);
    const feedback = screen.getByLabelText('Feedback');
    fireEvent.change(feedback, { target: { value: 'Shorter, please.' } });
    fireEvent.keyDown(feedback, { key: 'Enter', ctrlKey: true });
    fireEvent.keyDown(feedback, { key: 'Enter', ctrlKey: true });
    fireEvent.keyDown(feedback, { key: 'Enter', metaKey: true });
    await waitFor(() => expect(host.callsTo('human.answer')).toHaveLength(1));
    release();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(host.callsTo('human.answer')).toHaveLength(1);
    expect(useHumanRequestStore.getState().error).toBeUndefined();
  });

  it('asks for tool approval with the arguments and answers with the decision', async () => {
    hostWith([approval]);
    await act(() => useHumanRequestStore.getState().load());
    render(<HumanDialogs />);
    expect(screen.getByTestId('approval-dialog').textContent).toContain('read_file');
    // Nothing is approved by an accidental Enter: the dialog itself has the focus.
    expect(document.activeElement).toBe(screen.getByTestId('approval-dialog'));
    expect(screen.getByTestId('approval-args').textContent).toBe(JSON.stringify(approval.args, null, 2));
    fireEvent.click(screen.getByRole('button', { name: 'Always allow for this run' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(host.callsTo('human.answer')).toEqual([{ runId: 'run_b', requestId: 'h-approval', decision: 'always' }]);
  });

  it('denies a tool', async () => {
    hostWith([approval]);
    await act(() => useHumanRequestStore.getState().load());
    render(<HumanDialogs />);
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(host.callsTo('human.answer')).toEqual([{ runId: 'run_b', requestId: 'h-approval', decision: 'deny' }]));
  });

  it('opens for a request that arrives as an event and closes when it is answered elsewhere', async () => {
    hostWith([]);
    detach = useRunStore.getState().attach();
    render(<HumanDialogs />);
    const base = { runId: 'run_live', spanId: 's7', parentSpanId: 's5', ts: 50 };
    act(() => host.push({ kind: 'event', event: { ...base, seq: 7, type: 'human.requested', requestId: 'h9', kind: 'tool_approval', agentRole: 'Researcher', taskId: 'research', tool: 'calculator', args: { expression: '1+1' }, prompt: 'ok?' } }));
    expect(screen.getByTestId('approval-dialog').textContent).toContain('calculator');
    act(() => host.push({ kind: 'event', event: { ...base, seq: 8, type: 'human.answered', requestId: 'h9', kind: 'tool_approval', decision: 'approve' } }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('puts a request aside with Later and brings it back from the pill', async () => {
    hostWith([review]);
    await act(() => useHumanRequestStore.getState().load());
    detach = useRunStore.getState().attach();
    render(
      <>
        <PendingRequestsPill />
        <HumanDialogs />
      </>,
    );
    expect(screen.queryByTestId('human-pending')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('human-pending').textContent).toContain('1 waiting for you');
    // A second question arrives while the first is put off: it pops up, and the pill goes until it is put off too.
    const base = { runId: 'run_live', spanId: 's7', parentSpanId: 's5', ts: 50 };
    act(() => host.push({ kind: 'event', event: { ...base, seq: 7, type: 'human.requested', requestId: 'h9', kind: 'tool_approval', agentRole: 'Researcher', taskId: 'research', tool: 'calculator', args: { expression: '1+1' }, prompt: 'ok?' } }));
    expect(screen.getByTestId('approval-dialog')).toBeTruthy();
    expect(screen.queryByTestId('human-pending')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.getByTestId('human-pending').textContent).toContain('2 waiting for you');
    fireEvent.click(screen.getByTestId('human-pending'));
    expect(screen.getByTestId('human-dialog')).toBeTruthy();
    expect(screen.queryByTestId('human-pending')).toBeNull();
  });

  it('shows the host error when an answer is refused and keeps the list current', async () => {
    hostWith([review]);
    await act(() => useHumanRequestStore.getState().load());
    host.handlers['human.answer'] = () => {
      throw new Error('the run is no longer waiting for h-review');
    };
    host.handlers['human.pending'] = () => ({ requests: [] });
    render(<HumanDialogs />);
    fireEvent.click(screen.getByRole('button', { name: 'Accept output' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(useHumanRequestStore.getState().error).toContain('no longer waiting');
  });
});
