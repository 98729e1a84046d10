// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestReport, TestResult, TestSession } from '../../../shared/training';
import { emptyUsage } from '../../../shared/usage';
import { setHost } from '../../../renderer/host/hostContext';
import { TestPanel } from '../../../renderer/panels/testing/TestPanel';
import { taskSeries } from '../../../renderer/panels/testing/testChartData';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useTestStore } from '../../../renderer/stores/testStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FakeHost } from '../run/fakeHost';

const CREW = 'launch-notes';
const usage = (total: number) => ({ promptTokens: total, completionTokens: 0, cachedPromptTokens: 0, totalTokens: total, requests: 1 });

function result(iteration: number, taskId: string, score: number | undefined, checkScore: number | undefined): TestResult {
  return {
    iteration,
    runId: `run_${iteration}`,
    taskId,
    index: taskId === 'note' ? 0 : 1,
    role: taskId === 'note' ? 'Writer' : 'Editor',
    status: score === undefined ? 'failed' : 'completed',
    score,
    reason: 'ok',
    checkScore,
    checks: [],
    durationMs: 1200,
    tokenUsage: usage(100),
  };
}

function session(id: string, startedAt: number, status: TestSession['status'] = 'completed'): TestSession {
  return { id, crewId: CREW, name: 'Launch notes', iterations: 3, status, runIds: ['run_1', 'run_2', 'run_3'], startedAt };
}

const report = (s: TestSession): TestReport => ({
  session: s,
  results: [result(1, 'note', 7, 5), result(2, 'note', 9, 5), result(3, 'note', 8, 10), result(1, 'polish', 6, undefined), result(2, 'polish', undefined, undefined), result(3, 'polish', 4, undefined)],
  tasks: [
    { taskId: 'note', role: 'Writer', scores: [7, 9, 8], averageScore: 8, averageCheckScore: 6.7, averageDurationMs: 1200, totalTokens: 300 },
    { taskId: 'polish', role: 'Editor', scores: [6, null, 4], averageScore: 5, averageCheckScore: null, averageDurationMs: 1200, totalTokens: 300 },
  ],
  averageScore: 6.5,
  averageCheckScore: 6.7,
});

let fake: FakeHost;

beforeEach(() => {
  const tests = [session('test_new', 2), session('test_old', 1)];
  fake = new FakeHost({
    'tests.list': () => ({ tests }),
    'tests.get': (r) => report(tests.find((t) => t.id === r.testId)!),
    'tests.start': () => ({ testId: 'test_new', runId: 'run_9' }),
  });
  setHost(fake);
  useTestStore.setState({ crewId: undefined, tests: [], selectedId: undefined, report: undefined, error: undefined, dialogOpen: false });
  useDocumentStore.setState({ problems: [], path: 'launch.crew.json', doc: { kind: 'crew', id: CREW, name: 'Launch notes', agents: [], tasks: [] } as never });
  useUiStore.setState({ view: 'tests' });
});

afterEach(() => {
  cleanup();
  useTestStore.getState().attach()();
});

describe('test panel', () => {
  it('explains an empty test list beside it and opens the Test dialog from there', async () => {
    fake.handlers['tests.list'] = () => ({ tests: [] });
    render(<TestPanel />);
    const intro = await screen.findByTestId('test-intro');
    expect(intro.textContent).toContain('No tests of Launch notes yet');
    expect(intro.textContent).toContain('from 1 to 10');
    fireEvent.click(within(intro).getByTestId('test-intro-start'));
    expect(useTestStore.getState().dialogOpen).toBe(true);
  });

  it('keeps "Test this crew…" disabled while the crew has problems', async () => {
    fake.handlers['tests.list'] = () => ({ tests: [] });
    useDocumentStore.setState({ problems: [{ path: 'tasks', message: 'no tasks' }] as never });
    render(<TestPanel />);
    expect((await screen.findByTestId('test-intro-start')).hasAttribute('disabled')).toBe(true);
  });

  it('shows the newest test: a row per task, a score per iteration, averages, checks, tokens', async () => {
    render(<TestPanel />);
    const table = await screen.findByTestId('test-score-table');
    const rows = within(table).getAllByTestId('test-score-row');
    expect(rows.map((r) => r.dataset.taskId)).toEqual(['note', 'polish']);
    const cells = within(rows[0]!).getAllByTestId('test-score-cell').map((c) => c.textContent);
    expect(cells).toEqual(['7✓ 5', '9✓ 5', '8✓ 10']);
    expect(within(rows[1]!).getAllByTestId('test-score-cell').map((c) => c.textContent)).toEqual(['6', '—', '4']);
    expect(within(rows[0]!).getByTestId('test-average').textContent).toBe('8');
    expect(within(rows[0]!).getByTestId('test-check-average').textContent).toBe('6.7');
    expect(within(rows[1]!).getByTestId('test-check-average').textContent).toBe('—');
    expect(within(table).getByTestId('test-crew-average').textContent).toBe('6.5');
    expect(screen.getAllByTestId('test-list-item').map((i) => i.getAttribute('aria-pressed'))).toEqual(['true', 'false']);
  });

  it('draws a chart per task with the evaluator and check scores, described for screen readers', async () => {
    render(<TestPanel />);
    const charts = await screen.findAllByTestId('test-chart');
    expect(charts.map((c) => c.dataset.taskId)).toEqual(['note', 'polish']);
    // jsdom has no 2D context: the chart's text stand-in carries the same description (the e2e sees the canvas).
    const figure = within(charts[0]!).getByRole('img');
    expect(figure.getAttribute('aria-label')).toBe('note (Writer): evaluator scores 7, 9, 8; check scores 5, 5, 10');
    expect(within(charts[1]!).getByRole('img').getAttribute('aria-label')).toBe('polish (Editor): evaluator scores 6, —, 4; no checks');
  });

  it('opens an earlier test', async () => {
    render(<TestPanel />);
    await screen.findByTestId('test-score-table');
    await act(async () => fireEvent.click(screen.getAllByTestId('test-list-item')[1]!));
    expect(fake.callsTo('tests.get').at(-1)).toEqual({ testId: 'test_old' });
    expect(screen.getAllByTestId('test-list-item')[1]!.getAttribute('aria-pressed')).toBe('true');
  });

  it("reloads on this crew's test events (test.*), not on another crew's", async () => {
    render(<TestPanel />);
    await screen.findByTestId('test-score-table');
    const before = fake.callsTo('tests.list').length;
    const event = (payload: Record<string, unknown>) => ({ kind: 'event' as const, event: { runId: 'run_eval', spanId: 's1', seq: 2, ts: 1, ...payload } as never });
    await act(async () => fake.push(event({ type: 'test.started', sessionId: 'x', crewId: 'other', iterations: 1 })));
    await act(async () => fake.push(event({ type: 'test.completed', sessionId: 'x', runIds: [], tokenUsage: emptyUsage() })));
    expect(fake.callsTo('tests.list').length).toBe(before);
    await act(async () => fake.push(event({ type: 'test.started', sessionId: 'test_new', crewId: CREW, iterations: 1 })));
    expect(fake.callsTo('tests.list').length).toBe(before + 1);
  });
});

describe('taskSeries', () => {
  it('puts each iteration’s scores in its place, null where a task scored nothing', () => {
    const [note, polish] = taskSeries(report(session('t', 1)));
    expect(note).toMatchObject({ labels: ['#1', '#2', '#3'], evaluator: [7, 9, 8], checks: [5, 5, 10], hasChecks: true });
    expect(polish).toMatchObject({ evaluator: [6, null, 4], checks: [null, null, null], hasChecks: false });
  });
});
