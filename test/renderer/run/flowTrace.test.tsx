// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SpanDetail } from '../../../renderer/panels/trace/SpanDetail';
import { filterRoots } from '../../../renderer/panels/trace/flattenSpans';
import { foldRunEvents } from '../../../renderer/stores/reduceRunEvent';
import { emptyRunView } from '../../../renderer/stores/runView';
import { loopFlow, reviewFlow } from './flowEvents';

afterEach(cleanup);

const { events, spans } = reviewFlow('run_trace_flow');
const view = foldRunEvents(emptyRunView('run_trace_flow'), events);

describe('flow method details in the trace', () => {
  it('shows trigger, input, route with its reason, output and the fields the call changed', () => {
    render(<SpanDetail span={view.spans.get(spans.review)!} view={view} onClose={() => undefined} />);
    const detail = screen.getByTestId('span-detail');
    expect(detail.dataset.kind).toBe('method');
    expect(detail.textContent).toContain('Flow method · human_feedback → approve');
    expect(detail.textContent).toContain('listen: draft');
    expect(detail.textContent).toContain('Triggered by');
    expect(screen.getByTestId('method-input').textContent).toContain('A draft.');
    expect(screen.getByTestId('method-route').textContent).toContain('→ approve');
    expect(screen.getByTestId('method-route').textContent).toContain('names the outcome approve');
    expect(screen.getByTestId('method-output').textContent).toContain('approve');
    const changes = within(screen.getByTestId('method-state-diff')).getAllByTestId('state-change');
    expect(changes.map((c) => [c.dataset.how, c.querySelector('th')!.textContent])).toEqual([['added', 'verdict']]);
    expect(changes[0]!.textContent).toContain('"approve"');
  });

  it('shows a changed field with its old and new value', () => {
    const loop = loopFlow('run_trace_loop');
    const lv = foldRunEvents(emptyRunView('run_trace_loop'), loop.events);
    render(<SpanDetail span={lv.spans.get(loop.spans.fix)!} view={lv} onClose={() => undefined} />);
    const [change] = within(screen.getByTestId('method-state-diff')).getAllByTestId('state-change');
    expect(change!.dataset.how).toBe('changed');
    expect(change!.querySelector('.state-diff-before')!.textContent).toBe('0');
    expect(change!.querySelector('.state-diff-after')!.textContent).toBe('1');
  });

  it('shows the flow’s name, its methods and final state on the run', () => {
    render(<SpanDetail span={view.spans.get(spans.root)!} view={view} onClose={() => undefined} />);
    const detail = screen.getByTestId('span-detail');
    expect(detail.textContent).toContain('FlowReview flow');
    const rows = within(screen.getByTestId('flow-methods')).getAllByTestId('flow-method-row');
    expect(rows.map((r) => [r.dataset.methodId, r.dataset.status])).toEqual([
      ['draft', 'done'],
      ['review', 'done'],
      ['publish', 'done'],
    ]);
    expect(screen.getByTestId('flow-final-state').textContent).toContain('"published": true');
  });

  it('narrows the trace to a method’s calls when its node is selected', () => {
    const loop = loopFlow('run_trace_loop2');
    const lv = foldRunEvents(emptyRunView('run_trace_loop2'), loop.events);
    expect(filterRoots(lv, ['method:check'])).toEqual([loop.spans.check1, loop.spans.check2]);
  });
});

describe('a flow feedback request in the trace', () => {
  it('says flow feedback, names the method, the outcomes and the outcome chosen', () => {
    render(<SpanDetail span={view.spans.get(spans.human)!} view={view} onClose={() => undefined} />);
    const text = screen.getByTestId('span-detail').textContent!;
    expect(text).toContain('flow feedback');
    expect(text).toContain('approve, revise (default approve)');
    expect(text).toContain('outcome approve');
    expect(text).not.toContain('task review');
  });
});
