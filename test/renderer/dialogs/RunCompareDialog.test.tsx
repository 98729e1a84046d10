// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostRunSummary } from '../../../shared/host-api';
import type { RunDiff, RunStepSide } from '../../../shared/runDiff';
import { emptyUsage } from '../../../shared/usage';
import { setHost } from '../../../renderer/host/hostContext';
import { RunsPanel } from '../../../renderer/panels/RunsPanel';
import { useRunStore } from '../../../renderer/stores/runStore';
import { FakeHost } from '../run/fakeHost';

afterEach(() => {
  cleanup();
  useRunStore.setState({ runs: [], runsLoaded: false });
});

const run = (id: string, over: Partial<HostRunSummary> = {}): HostRunSummary => ({
  id,
  kind: 'crew',
  documentId: 'chain',
  name: 'Chain',
  status: 'completed',
  startedAt: 1_700_000_000_000,
  tokenUsage: { ...emptyUsage(), totalTokens: 100, requests: 1, costUsd: 0.0012 },
  documentPath: 'chain.crew.json',
  ...over,
});
const side = (output: string, totalTokens: number): RunStepSide => ({ status: 'completed', output, tokenUsage: { ...emptyUsage(), totalTokens }, toolCalls: [], attempts: 1, guardrails: [] });
const diff: RunDiff = {
  runA: { id: 'run_a', name: 'Chain', status: 'completed', kind: 'crew' },
  runB: { id: 'run_b', name: 'Chain', status: 'completed', kind: 'crew' },
  tasks: [
    { taskId: 't1', changed: false, a: side('Same.', 10), b: side('Same.', 10), words: [{ op: 'equal', text: 'Same.' }], delta: { totalTokens: 0, promptTokens: 0, completionTokens: 0 }, toolCalls: { added: [], removed: [] } },
    {
      taskId: 't2',
      changed: true,
      a: side('Owls hunt at night.', 20),
      b: side('Owls hunt by day.', 35),
      words: [
        { op: 'equal', text: 'Owls hunt ' },
        { op: 'remove', text: 'at night.' },
        { op: 'add', text: 'by day.' },
      ],
      delta: { totalTokens: 15, promptTokens: 0, completionTokens: 15 },
      toolCalls: { added: ['calculator({"expression":"2+2"})'], removed: [] },
    },
  ],
  tokenUsage: { a: { ...emptyUsage(), totalTokens: 30 }, b: { ...emptyUsage(), totalTokens: 45 } },
  costUsd: { a: undefined, b: undefined },
  durationMs: { a: 10, b: 12 },
  output: { changed: true, words: [] },
};

describe('Compare runs', () => {
  it('compares the two ticked runs side by side, changed words highlighted on each side', async () => {
    const host = new FakeHost({ 'runs.diff': () => ({ diff }), 'runs.list': () => ({ runs: [run('run_b'), run('run_a')] }) });
    setHost(host);
    useRunStore.setState({ runs: [run('run_b'), run('run_a', { offlineFrom: 'run_x' })], runsLoaded: true });
    render(<RunsPanel />);
    const compare = screen.getByTestId('runs-compare') as HTMLButtonElement;
    expect(compare.disabled).toBe(true);
    const picks = screen.getAllByTestId('runs-pick');
    fireEvent.click(picks[1]!);
    fireEvent.click(picks[0]!);
    expect(compare.disabled).toBe(false);
    fireEvent.click(compare);
    const steps = await screen.findAllByTestId('compare-step');
    expect(host.callsTo('runs.diff')).toEqual([{ runA: 'run_a', runB: 'run_b' }]);
    expect(steps.map((s) => [s.getAttribute('data-task-id'), s.getAttribute('data-changed')])).toEqual([
      ['t1', 'false'],
      ['t2', 'true'],
    ]);
    const a = within(steps[1]!).getByTestId('compare-a');
    const b = within(steps[1]!).getByTestId('compare-b');
    expect([...a.querySelectorAll('mark')].map((m) => [m.getAttribute('data-op'), m.textContent])).toEqual([['remove', 'at night.']]);
    expect([...b.querySelectorAll('mark')].map((m) => [m.getAttribute('data-op'), m.textContent])).toEqual([['add', 'by day.']]);
    expect(steps[1]!.textContent).toContain('+15 tok');
    expect(steps[1]!.textContent).toContain('+ calculator');
    // The runs list marks the offline run and shows the cost in the tokens cell's title.
    expect(screen.getByTestId('runs-offline-mark').getAttribute('title')).toContain('run_x');
  });

  it('re-runs a run offline from the Runs tab', async () => {
    const host = new FakeHost({
      'runs.rerunOffline': () => ({ runId: 'run_c' }),
      'runs.list': () => ({ runs: [] }),
      'runs.events': () => ({ events: [], lastSeq: 0, more: false }),
    });
    setHost(host);
    useRunStore.setState({ runs: [run('run_a')], runsLoaded: true });
    render(<RunsPanel />);
    fireEvent.click(screen.getByTestId('runs-offline'));
    await waitFor(() => expect(host.callsTo('runs.rerunOffline')).toEqual([{ runId: 'run_a' }]));
  });
});
