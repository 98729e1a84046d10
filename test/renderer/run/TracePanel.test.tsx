// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emptyUsage } from '../../../shared/usage';
import { setHost } from '../../../renderer/host/hostContext';
import { TracePanel } from '../../../renderer/panels/TracePanel';
import { useRunStore } from '../../../renderer/stores/runStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FakeHost } from './fakeHost';
import { exampleDocument, recordedEvents } from './runFixtures';
import { syntheticRun } from './syntheticRun';

// jsdom does no layout: give the virtualised list a viewport.
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 900 });
});
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});
afterEach(async () => {
  cleanup();
  useUiStore.setState({ selectedNodeIds: [], spanId: undefined });
  await useRunStore.getState().show(undefined);
});

async function showFixture(name: string, docName: string) {
  const events = recordedEvents(name);
  const runId = events[0]!.runId;
  setHost(
    new FakeHost({
      'runs.get': () => ({
        run: { id: runId, kind: 'crew', documentId: docName, name: docName, status: 'completed', startedAt: 1, tokenUsage: emptyUsage(), document: exampleDocument(docName), inputs: {} },
        taskOutputs: [],
      }),
      'runs.events': () => ({ events, lastSeq: events.length, more: false }),
    }),
  );
  await act(() => useRunStore.getState().show(runId));
}

const rows = () => screen.getAllByTestId('trace-row');
const row = (kind: string, label: string) => rows().find((r) => r.dataset.kind === kind && r.textContent?.includes(label))!;

describe('TracePanel', () => {
  it('says so when no run is shown', () => {
    render(<TracePanel />);
    expect(screen.getByTestId('trace-empty').textContent).toContain('No run shown');
  });

  it('shows the span tree with kinds, statuses, tokens and durations', async () => {
    await showFixture('run-hierarchical-delegation', 'product-launch');
    render(<TracePanel />);
    expect(rows()).toHaveLength(20);
    expect(rows()[0]!.dataset.kind).toBe('run');
    expect(rows().map((r) => r.dataset.kind)).toContain('delegation');
    expect(rows().every((r) => r.dataset.status === 'done')).toBe(true);
    const pricing = row('task', 'Price the launch');
    expect(pricing.querySelector('.trace-tokens')!.textContent).toBe('915');
    // The recorded task's own duration (fixtures are regenerated, so their timings vary).
    const pricingDone = recordedEvents('run-hierarchical-delegation').find((e) => e.type === 'task.completed' && e.taskId === 'pricing') as { durationMs: number };
    expect(pricing.querySelector('.trace-duration')!.textContent).toBe(`${pricingDone.durationMs} ms`);
    expect(screen.getByTestId('trace-panel').dataset.runStatus).toBe('completed');
  });

  it('shows a delegation’s manager, coworker, task, context and result', async () => {
    await showFixture('run-hierarchical-delegation', 'product-launch');
    render(<TracePanel />);
    fireEvent.click(row('delegation', 'Market Analyst'));
    const detail = screen.getByTestId('span-detail');
    expect(detail.dataset.kind).toBe('delegation');
    expect(detail.textContent).toContain('Crew Manager');
    expect(detail.textContent).toContain('Market Analyst');
    expect(within(detail).getByTestId('delegation-task').textContent).toContain('Compute the annual price');
    expect(within(detail).getByTestId('delegation-result').textContent).toContain('240 per year');
    expect(useUiStore.getState().spanId).toBe('s6');
  });

  it('shows a tool call’s arguments as pretty JSON and its result', async () => {
    await showFixture('run-sequential-tools-guardrail', 'research-brief');
    render(<TracePanel />);
    fireEvent.click(row('tool', 'read_file'));
    const detail = screen.getByTestId('span-detail');
    expect(within(detail).getByTestId('tool-args').textContent).toContain(JSON.stringify({ path: 'data/solar-notes.md' }, null, 2));
    expect(within(detail).getByTestId('tool-result').textContent).toContain('Field notes: rooftop solar');
  });

  it('shows guardrail verdicts and the retry they caused', async () => {
    await showFixture('run-sequential-tools-guardrail', 'research-brief');
    render(<TracePanel />);
    const failed = rows().find((r) => r.dataset.kind === 'guardrail' && r.dataset.status === 'failed')!;
    fireEvent.click(failed);
    expect(within(screen.getByTestId('span-detail')).getByTestId('guardrail-reason').textContent).toContain('output must contain "SHIP IT"');
    fireEvent.click(rows().find((r) => r.dataset.kind === 'retry')!);
    expect(within(screen.getByTestId('span-detail')).getByTestId('retry-reason').textContent).toContain('SHIP IT');
  });

  it('shows the messages and response of a model call', async () => {
    await showFixture('run-sequential-tools-guardrail', 'research-brief');
    render(<TracePanel />);
    fireEvent.click(rows().find((r) => r.dataset.kind === 'llm')!);
    const detail = screen.getByTestId('span-detail');
    expect(within(detail).getByTestId('llm-messages').textContent).toContain('You are Researcher.');
    expect(within(detail).getByTestId('llm-response').textContent).toContain('read_file');
  });

  it('collapses and expands a span', async () => {
    await showFixture('run-sequential-tools-guardrail', 'research-brief');
    render(<TracePanel />);
    const before = rows().length;
    fireEvent.click(screen.getByRole('button', { name: 'Collapse Gather the facts' }));
    expect(rows().length).toBe(before - 8);
    fireEvent.click(screen.getByRole('button', { name: 'Expand Gather the facts' }));
    expect(rows().length).toBe(before);
  });

  it('moves the selection with the keyboard', async () => {
    await showFixture('run-sequential-tools-guardrail', 'research-brief');
    render(<TracePanel />);
    fireEvent.click(rows()[0]!);
    fireEvent.keyDown(screen.getByTestId('trace-tree'), { key: 'ArrowDown' });
    expect(useUiStore.getState().spanId).toBe('s2');
    fireEvent.keyDown(screen.getByTestId('trace-tree'), { key: 'ArrowLeft' });
    expect(useUiStore.getState().spanId).toBe('s2');
    expect(rows()[1]!.getAttribute('aria-expanded')).toBe('false');
  });

  it('narrows the trace to the canvas selection, with a chip that clears it', async () => {
    await showFixture('run-hierarchical-delegation', 'product-launch');
    render(<TracePanel />);
    act(() => useUiStore.getState().select(['agent:analyst']));
    expect(rows().map((r) => r.dataset.kind)).toEqual(['agent', 'llm', 'tool', 'llm']);
    expect(screen.getByTestId('trace-filter').textContent).toContain('Market Analyst');
    act(() => useUiStore.getState().select(['task:announcement']));
    expect(rows()[0]!.textContent).toContain('Write the announcement');
    expect(rows().some((r) => r.textContent?.includes('Price the launch'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Clear trace filter' }));
    expect(useUiStore.getState().selectedNodeIds).toEqual([]);
    expect(rows()).toHaveLength(20);
  });

  it('renders only the rows in view of a 10,000-event run', async () => {
    const events = syntheticRun('run_big_trace', 50, 49);
    setHost(
      new FakeHost({
        'runs.get': () => ({
          run: { id: 'run_big_trace', kind: 'crew', documentId: 'big', name: 'Big', status: 'completed', startedAt: 1, tokenUsage: emptyUsage(), document: null, inputs: {} },
          taskOutputs: [],
        }),
        'runs.events': () => ({ events, lastSeq: events.length, more: false }),
      }),
    );
    await act(() => useRunStore.getState().show('run_big_trace'));
    render(<TracePanel />);
    const shown = rows().length;
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(80);
    expect(screen.getByTestId('trace-panel').textContent).toContain('5,001 rows');
  });

  it('following a live run, scrolling up stops following and keeps the rows scrolled to', async () => {
    // A run still going: its stored events stop before run.completed.
    const events = syntheticRun('run_live_trace', 20, 4).filter((e) => e.type !== 'run.completed');
    setHost(
      new FakeHost({
        'runs.get': () => ({
          run: { id: 'run_live_trace', kind: 'crew', documentId: 'big', name: 'Big', status: 'running', startedAt: 1, tokenUsage: emptyUsage(), document: null, inputs: {} },
          taskOutputs: [],
        }),
        'runs.events': () => ({ events, lastSeq: events.at(-1)!.seq, more: false }),
      }),
    );
    await act(() => useRunStore.getState().show('run_live_trace'));
    render(<TracePanel />);
    const follow = screen.getByRole('button', { name: /Following/ });
    expect(follow.getAttribute('aria-pressed')).toBe('true');
    const tree = screen.getByTestId('trace-tree');
    // jsdom keeps no scroll offset: the element reports the one the test gives it.
    let scrollTop = 0;
    Object.defineProperty(tree, 'scrollTop', { configurable: true, get: () => scrollTop, set: (v: number) => (scrollTop = v) });
    const total = Number((tree.firstElementChild as HTMLElement).style.height.replace('px', ''));
    const end = total - 600;

    // The view's own write to the end does not stop following.
    scrollTop = end;
    fireEvent.scroll(tree);
    expect(screen.getByRole('button', { name: /Following/ }).getAttribute('aria-pressed')).toBe('true');

    // Twenty rows up, by the person.
    scrollTop = end - 20 * 24;
    fireEvent.scroll(tree);
    const button = screen.getByRole('button', { name: /^Follow$/ });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(scrollTop).toBe(end - 20 * 24);
    const firstShown = Number(rows()[0]!.style.transform.replace(/[^\d.]/g, '')) / 24;
    expect(firstShown).toBeLessThan((end - 20 * 24) / 24);
  });
});
