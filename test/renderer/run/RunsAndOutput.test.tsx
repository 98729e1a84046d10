// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostRunSummary } from '../../../shared/host-api';
import { emptyUsage } from '../../../shared/usage';
import { setHost } from '../../../renderer/host/hostContext';
import { OutputPanel } from '../../../renderer/panels/OutputPanel';
import { RunsPanel } from '../../../renderer/panels/RunsPanel';
import { TracePanel } from '../../../renderer/panels/TracePanel';
import { useRunStore } from '../../../renderer/stores/runStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FakeHost } from './fakeHost';
import { exampleDocument, recordedEvents } from './runFixtures';

const failed = recordedEvents('run-failed-guardrail');
const replay = recordedEvents('run-replay-from-brief');

function summary(id: string, over: Partial<HostRunSummary> = {}): HostRunSummary {
  return { id, kind: 'crew', documentId: 'research-brief', name: 'Research brief', status: 'completed', startedAt: Date.now() - 5000, durationMs: 748, tokenUsage: { ...emptyUsage(), totalTokens: 1450, requests: 6 }, ...over };
}

function hostWith(runs: HostRunSummary[]) {
  const logs: Record<string, typeof failed> = { [failed[0]!.runId]: failed, [replay[0]!.runId]: replay };
  const host = new FakeHost({
    'runs.list': () => ({ runs }),
    'runs.get': ({ runId }) => ({ run: { ...summary(runId), document: exampleDocument('research-brief'), inputs: {} }, taskOutputs: [] }),
    'runs.events': ({ runId }) => ({ events: logs[runId] ?? [], lastSeq: logs[runId]?.length ?? 0, more: false }),
    'runs.cancel': () => ({ cancelled: true }),
  });
  setHost(host);
  return host;
}

afterEach(async () => {
  cleanup();
  await useRunStore.getState().show(undefined);
});

describe('RunsPanel', () => {
  it('lists runs with status, duration, tokens and replay origin, and opens one on click', async () => {
    const runs = [
      summary(replay[0]!.runId, { replayOf: { runId: 'run_mx2wxzox_fe6cad54', fromTaskId: 'brief' } }),
      summary(failed[0]!.runId, { status: 'failed', name: 'Failing brief', error: 'task "brief" failed its guardrails' }),
    ];
    hostWith(runs);
    await act(() => useRunStore.getState().refreshRuns());
    render(<RunsPanel />);
    const rows = screen.getAllByTestId('runs-row');
    expect(rows.map((r) => r.dataset.status)).toEqual(['completed', 'failed']);
    expect(rows[0]!.textContent).toContain('↻ from brief');
    expect(rows[0]!.textContent).toContain('748 ms');
    expect(rows[0]!.textContent).toContain('1.4k');
    expect(rows[1]!.textContent).toContain('failed its guardrails');
    fireEvent.click(rows[1]!);
    await waitFor(() => expect(useRunStore.getState().view?.runId).toBe(failed[0]!.runId));
    expect(useUiStore.getState().bottomTab).toBe('trace');
    expect(rows[1]!.getAttribute('aria-selected')).toBe('true');
  });

  it('offers Stop for a running run and Replay from… for the others', async () => {
    const host = hostWith([summary('run_live', { status: 'running', durationMs: undefined }), summary('run_done')]);
    await act(() => useRunStore.getState().refreshRuns());
    render(<RunsPanel />);
    const [live, done] = screen.getAllByTestId('runs-row');
    fireEvent.click(within(live!).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(host.callsTo('runs.cancel')).toEqual([{ runId: 'run_live' }]));
    expect(useRunStore.getState().runId).toBeUndefined();
    fireEvent.click(within(done!).getByRole('button', { name: 'Replay from…' }));
    expect(await screen.findByTestId('replay-dialog')).toBeTruthy();
  });
});

describe('RunsPanel with a run whose process died', () => {
  it('shows it interrupted while it is open in the trace, and cancelled once the host ends it (runs cancel)', async () => {
    // A crew killed in its first model call: its stored events stop there.
    const full = recordedEvents('run-sequential-tools-guardrail');
    const dead = full.slice(0, full.findIndex((e) => e.type === 'llm.started') + 1);
    const runId = dead[0]!.runId;
    let runs = [summary(runId, { status: 'interrupted', durationMs: 40, error: 'process 123 on box exited before the run finished' })];
    const host = new FakeHost({
      'runs.list': () => ({ runs }),
      'runs.get': () => ({ run: { ...runs[0]!, document: exampleDocument('research-brief'), inputs: {} }, taskOutputs: [] }),
      'runs.events': () => ({ events: dead, lastSeq: dead.length, more: false }),
    });
    setHost(host);
    const detach = useRunStore.getState().attach();
    try {
      await act(() => useRunStore.getState().refreshRuns());
      render(<RunsPanel />);
      fireEvent.click(screen.getByTestId('runs-row'));
      await waitFor(() => expect(useRunStore.getState().view?.runId).toBe(runId));
      expect(screen.getByTestId('runs-row').dataset.status).toBe('interrupted');

      // What `crewdeck runs cancel` (or the app's runs.cancel) appends: the open spans closed, the run's end.
      const open = [...dead].reverse().filter((e) => e.type === 'llm.started' || e.type === 'agent.started' || e.type === 'task.started');
      let seq = dead.length;
      const at = dead.at(-1)!.ts + 1;
      const closing = open.map((e) => {
        const envelope = { runId, seq: ++seq, ts: at, spanId: e.spanId, ...(e.parentSpanId ? { parentSpanId: e.parentSpanId } : {}) };
        if (e.type === 'llm.started') return { ...envelope, type: 'llm.failed' as const, model: e.model, error: 'interrupted', willRetry: false, attempt: 1 };
        if (e.type === 'agent.started') return { ...envelope, type: 'agent.failed' as const, role: e.role, error: 'interrupted', errorName: 'Interrupted', durationMs: 1 };
        const task = e as Extract<typeof e, { type: 'task.started' }>;
        return { ...envelope, type: 'task.failed' as const, taskId: task.taskId, agentRole: task.agentRole, error: 'interrupted', errorName: 'Interrupted', durationMs: 1 };
      });
      const end = { runId, seq: ++seq, ts: at, spanId: dead[0]!.spanId, type: 'run.cancelled' as const, reason: 'cancelled from the command line after its process stopped', durationMs: 50 };
      runs = [summary(runId, { status: 'cancelled', durationMs: 50, error: end.reason })];
      act(() => {
        for (const event of [...closing, end]) host.push({ kind: 'event', event });
        host.push({ kind: 'runs.changed' });
      });
      await waitFor(() => expect(screen.getByTestId('runs-row').dataset.status).toBe('cancelled'));
      expect(useRunStore.getState().view?.status).toBe('cancelled');
      // The list is read again (runs.changed): the stored status and reason.
      await waitFor(() => expect(screen.getByTestId('runs-row').textContent).toContain('after its process stopped'));
      expect(screen.getByTestId('runs-row').dataset.status).toBe('cancelled');
    } finally {
      detach();
    }
  });
});

describe('Resume and Cancel of a run whose process died', () => {
  // The same recording as above under an id of its own (the run store keeps what it saw of that run).
  const runId = 'run_mxdead00_0000beef';
  const full = recordedEvents('run-sequential-tools-guardrail').map((e) => ({ ...e, runId }));
  const dead = full.slice(0, full.findIndex((e) => e.type === 'llm.started') + 1);
  const interrupted = summary(runId, { status: 'interrupted', durationMs: 40, error: 'process 123 on box exited before the run finished' });

  function deadRunHost(resume: () => { runId: string }) {
    const host = new FakeHost({
      'runs.list': () => ({ runs: [interrupted] }),
      'runs.get': () => ({ run: { ...interrupted, document: exampleDocument('research-brief'), inputs: {} }, taskOutputs: [] }),
      'runs.events': () => ({ events: dead, lastSeq: dead.length, more: false }),
      'runs.resume': resume,
      'runs.cancel': () => ({ cancelled: true }),
    });
    setHost(host);
    return host;
  }

  it('the trace header says interrupted (not running, no Stop), with the stored reason, and offer Resume and Cancel', async () => {
    const host = deadRunHost(() => ({ runId }));
    await act(() => useRunStore.getState().refreshRuns());
    render(
      <>
        <RunsPanel />
        <TracePanel />
      </>,
    );
    fireEvent.click(screen.getByTestId('runs-row'));
    await waitFor(() => expect(screen.getByTestId('trace-panel').dataset.runStatus).toBe('interrupted'));
    expect(screen.queryByTestId('trace-stop')).toBeNull();
    expect(screen.getByTestId('run-error').textContent).toContain('exited before the run finished');
    const row = screen.getByTestId('runs-row');
    expect(within(row).queryByRole('button', { name: 'Stop' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(host.callsTo('runs.resume')).toEqual([{ runId }]));
    fireEvent.click(within(screen.getByTestId('trace-panel')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(host.callsTo('runs.cancel')).toEqual([{ runId }]));
  });

  it('says why a resume was refused, in the Runs list', async () => {
    deadRunHost(() => {
      throw new Error('the run store is locked by another process');
    });
    await act(() => useRunStore.getState().refreshRuns());
    render(<RunsPanel />);
    fireEvent.click(within(screen.getByTestId('runs-row')).getByRole('button', { name: 'Resume' }));
    expect((await screen.findByTestId('runs-error')).textContent).toBe('Could not resume the run: the run store is locked by another process');
  });
});

describe('OutputPanel', () => {
  it('shows the final output, each task’s output and the token totals', async () => {
    hostWith([]);
    await act(() => useRunStore.getState().show(replay[0]!.runId));
    render(<OutputPanel />);
    const end = replay[replay.length - 1] as Extract<(typeof replay)[number], { type: 'run.completed' }>;
    expect(screen.getByTestId('final-output').textContent).toContain(end.output);
    expect(screen.getByTestId('output-tokens').textContent).toContain(end.tokenUsage.totalTokens.toLocaleString('en-US'));
    const tasks = screen.getAllByTestId('task-output');
    expect(tasks.map((t) => [t.dataset.taskId, t.dataset.status])).toEqual([
      ['research', 'done'],
      ['brief', 'done'],
    ]);
    expect(tasks[0]!.textContent).toContain('restored');
    expect(tasks[1]!.textContent).toContain('out/brief.md');
  });

  it('shows why a run failed and which task failed', async () => {
    hostWith([]);
    await act(() => useRunStore.getState().show(failed[0]!.runId));
    render(<OutputPanel />);
    expect(screen.queryByTestId('final-output')).toBeNull();
    expect(screen.getByTestId('output-panel').textContent).toContain('Run failed');
    const brief = screen.getAllByTestId('task-output').find((t) => t.dataset.taskId === 'brief')!;
    expect(brief.dataset.status).toBe('failed');
    expect(brief.textContent).toContain('must not contain "kWh"');
  });
});
