// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventOf, RuntimeEvent } from '../../../shared/events';
import type { HostRunSummary } from '../../../shared/host-api';
import { emptyUsage } from '../../../shared/usage';
import { HumanDialogs } from '../../../renderer/dialogs/HumanDialogs';
import { setHost } from '../../../renderer/host/hostContext';
import { FlowInbox } from '../../../renderer/panels/FlowInbox';
import { RunsPanel } from '../../../renderer/panels/RunsPanel';
import { selectPausedRuns, selectRunQuestions, useHumanRequestStore } from '../../../renderer/stores/humanRequestStore';
import { useRunStore } from '../../../renderer/stores/runStore';
import { FakeHost } from '../run/fakeHost';
import { reviewFlow } from '../run/flowEvents';

const { events, paused } = reviewFlow('run_paused_flow');
const atPause = events.slice(0, paused);

function summary(id: string, over: Partial<HostRunSummary> = {}): HostRunSummary {
  return { id, kind: 'flow', documentId: 'review-flow', name: 'Review flow', status: 'paused', startedAt: 1_700_000_000_000, tokenUsage: emptyUsage(), documentPath: 'review.flow.json', ...over };
}

let host: FakeHost;
let detach: (() => void) | undefined;
let runs: HostRunSummary[];

function hostWith(list: HostRunSummary[], logs: Record<string, RuntimeEvent[]>) {
  runs = list;
  host = new FakeHost({
    'human.pending': () => ({ requests: [] }),
    'runs.list': () => ({ runs }),
    'runs.events': ({ runId }) => ({ events: logs[runId] ?? [], lastSeq: logs[runId]?.length ?? 0, more: false }),
    'runs.get': ({ runId }) => ({ run: { ...summary(runId), document: undefined, inputs: {} }, taskOutputs: [] }),
    'runs.resume': ({ runId }) => {
      runs = runs.map((r) => (r.id === runId ? { ...r, status: 'running' } : r));
      return { runId };
    },
    'runs.cancel': ({ runId }) => {
      runs = runs.map((r) => (r.id === runId ? { ...r, status: 'cancelled' } : r));
      return { cancelled: true };
    },
  });
  setHost(host);
}

beforeEach(() => {
  useHumanRequestStore.setState({ requests: [], opened: undefined, answering: undefined, error: undefined });
});
afterEach(async () => {
  detach?.();
  detach = undefined;
  cleanup();
  await useRunStore.getState().show(undefined);
});

describe('the inbox of paused flows', () => {
  it('comes from the run list and the paused run’s events (as after a restart), and does not pop up by itself', async () => {
    hostWith([summary('run_paused_flow'), summary('run_done', { status: 'completed' })], { run_paused_flow: atPause });
    render(
      <>
        <FlowInbox />
        <HumanDialogs />
      </>,
    );
    detach = useRunStore.getState().attach();
    const item = await screen.findByTestId('flow-inbox-item');
    expect(screen.getByTestId('flow-inbox-count').textContent).toBe('1');
    expect(item.dataset.runId).toBe('run_paused_flow');
    expect(item.textContent).toContain('Review flow');
    expect(item.textContent).toContain('approve / revise');
    expect(screen.queryByTestId('flow-feedback-dialog')).toBeNull();
    // Only the paused run's events were read.
    expect(host.callsTo('runs.events').map((c) => (c as { runId: string }).runId)).toEqual(['run_paused_flow']);

    fireEvent.click(item);
    const dialog = await screen.findByTestId('flow-feedback-dialog');
    expect(within(dialog).getByTestId('flow-feedback-message').textContent).toBe('Is the draft good?');
    expect(within(dialog).getByTestId('flow-feedback-output').textContent).toBe('A draft.');
    const buttons = within(dialog).getAllByTestId('flow-feedback-outcome');
    expect(buttons.map((b) => b.dataset.outcome)).toEqual(['approve', 'revise']);
    expect(within(dialog).getByTestId('flow-feedback-hint').textContent).toContain('default outcome “approve”');
    expect(within(dialog).getByTestId('flow-feedback-send').textContent).toBe('Continue with “approve”');

    fireEvent.click(buttons[1]!);
    await waitFor(() => expect(host.callsTo('runs.resume')).toEqual([{ runId: 'run_paused_flow', feedback: 'revise' }]));
    expect(host.callsTo('human.answer')).toEqual([]);
    await waitFor(() => expect(screen.queryByTestId('flow-feedback-dialog')).toBeNull());
    await waitFor(() => expect(screen.queryByTestId('flow-inbox')).toBeNull());
    // The continued run is shown.
    await waitFor(() => expect(useRunStore.getState().runId).toBe('run_paused_flow'));
  });

  it('pops the dialog for a flow that pauses while the app is open; free text and an empty answer go to runs.resume as they are', async () => {
    hostWith([], {});
    render(<HumanDialogs />);
    detach = useRunStore.getState().attach();
    const requested = atPause.find((e): e is EventOf<'human.requested'> => e.type === 'human.requested')!;
    act(() => host.push({ kind: 'event', event: requested }));
    const dialog = await screen.findByTestId('flow-feedback-dialog');
    // A flow's feedback is not a task review.
    expect(selectRunQuestions(useHumanRequestStore.getState())).toEqual([]);
    expect(selectPausedRuns(useHumanRequestStore.getState()).map((r) => [r.kind, r.live])).toEqual([['flow_feedback', true]]);
    fireEvent.change(within(dialog).getByTestId('flow-feedback-text'), { target: { value: 'Needs a sharper intro' } });
    expect(within(dialog).getByTestId('flow-feedback-send').textContent).toBe('Send feedback');
    fireEvent.click(within(dialog).getByTestId('flow-feedback-send'));
    await waitFor(() => expect(host.callsTo('runs.resume')).toEqual([{ runId: 'run_paused_flow', feedback: 'Needs a sharper intro' }]));
    await waitFor(() => expect(screen.queryByTestId('flow-feedback-dialog')).toBeNull());

    // Another request, answered empty: the default outcome.
    act(() => host.push({ kind: 'event', event: { ...requested, requestId: 'req_2', seq: 99 } }));
    const second = await screen.findByTestId('flow-feedback-dialog');
    fireEvent.click(within(second).getByTestId('flow-feedback-send'));
    await waitFor(() => expect(host.callsTo('runs.resume')).toHaveLength(2));
    expect(host.callsTo('runs.resume')[1]).toEqual({ runId: 'run_paused_flow', feedback: '' });
  });

  it('shows a refusal in the dialog and keeps the request', async () => {
    hostWith([summary('run_paused_flow')], { run_paused_flow: atPause });
    host.handlers['runs.resume'] = () => {
      throw new Error('run run_paused_flow is not paused (it completed)');
    };
    render(<HumanDialogs />);
    await act(() => useRunStore.getState().refreshRuns());
    await waitFor(() => expect(useHumanRequestStore.getState().requests).toHaveLength(1));
    act(() => useHumanRequestStore.getState().open({ runId: 'run_paused_flow', requestId: 'req_1' }));
    fireEvent.click(within(await screen.findByTestId('flow-feedback-dialog')).getAllByTestId('flow-feedback-outcome')[0]!);
    expect((await screen.findByTestId('flow-feedback-error')).textContent).toContain('is not paused');
    expect(useHumanRequestStore.getState().requests).toHaveLength(1);
  });

  it('drops a request when its run is no longer paused, and marks paused runs in the runs list with Answer…', async () => {
    hostWith([summary('run_paused_flow')], { run_paused_flow: atPause });
    await act(() => useRunStore.getState().refreshRuns());
    await waitFor(() => expect(useHumanRequestStore.getState().requests).toHaveLength(1));
    render(<RunsPanel />);
    const row = screen.getByTestId('runs-row');
    expect(row.dataset.status).toBe('paused');
    expect(row.textContent).toContain('flow');
    fireEvent.click(within(row).getByTestId('runs-answer'));
    expect(useHumanRequestStore.getState().opened).toBe('run_paused_flow/req_1');

    runs = [summary('run_paused_flow', { status: 'completed' })];
    await act(() => useRunStore.getState().refreshRuns());
    expect(useHumanRequestStore.getState().requests).toEqual([]);
  });
});

describe('humanRequestStore.sync', () => {
  it('forgets a request whose run was resumed elsewhere, but keeps one that just arrived live', async () => {
    hostWith([summary('run_paused_flow')], { run_paused_flow: atPause });
    await useHumanRequestStore.getState().sync(runs);
    expect(selectPausedRuns(useHumanRequestStore.getState()).map((r) => [r.requestId, r.live, r.runName])).toEqual([['req_1', false, 'Review flow']]);
    // Resumed by `crewdeck resume` in another process: the list says running.
    await useHumanRequestStore.getState().sync([summary('run_paused_flow', { status: 'running' })]);
    expect(useHumanRequestStore.getState().requests).toEqual([]);

    const requested = atPause.find((e): e is EventOf<'human.requested'> => e.type === 'human.requested')!;
    useHumanRequestStore.getState().receive({ ...requested, requestId: 'req_live' });
    await useHumanRequestStore.getState().sync([summary('run_paused_flow', { status: 'running' })]);
    expect(useHumanRequestStore.getState().requests.map((r) => r.requestId)).toEqual(['req_live']);
    await useHumanRequestStore.getState().sync([summary('run_paused_flow', { status: 'cancelled' })]);
    expect(useHumanRequestStore.getState().requests).toEqual([]);
  });

  it('stops a paused flow from its dialog: runs.cancel, and its run.cancelled takes it out of the inbox', async () => {
    hostWith([summary('run_paused_flow')], { run_paused_flow: atPause });
    render(
      <>
        <FlowInbox />
        <HumanDialogs />
      </>,
    );
    detach = useRunStore.getState().attach();
    fireEvent.click(await screen.findByTestId('flow-inbox-item'));
    const dialog = await screen.findByTestId('flow-feedback-dialog');
    fireEvent.click(within(dialog).getByTestId('flow-feedback-stop'));
    await waitFor(() => expect(host.callsTo('runs.cancel')).toEqual([{ runId: 'run_paused_flow' }]));
    expect(host.callsTo('runs.resume')).toEqual([]);
    await waitFor(() => expect(screen.queryByTestId('flow-feedback-dialog')).toBeNull());
    const last = atPause.at(-1)!;
    act(() => host.push({ kind: 'event', event: { type: 'run.cancelled', reason: 'cancelled from the app while it waited for feedback', durationMs: 5, runId: 'run_paused_flow', seq: last.seq + 1, ts: last.ts + 5, spanId: atPause[0]!.spanId } }));
    await waitFor(() => expect(screen.queryByTestId('flow-inbox')).toBeNull());
  });
});

