// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TraceRow } from '../../../renderer/panels/trace/flattenSpans';
import { ROW_HEIGHT } from '../../../renderer/panels/trace/TraceRow';
import { TraceTree } from '../../../renderer/panels/trace/TraceTree';

// jsdom does no layout: the list's viewport is 240 px, ten rows.
const VIEWPORT = 10 * ROW_HEIGHT;
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => VIEWPORT }));
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});
afterEach(cleanup);

function rows(n: number): TraceRow[] {
  return Array.from({ length: n }, (_, i) => ({
    span: { id: `s${i}`, kind: 'llm', label: `call ${i}`, status: i === n - 1 ? 'running' : 'done', start: i, end: i === n - 1 ? undefined : i + 1, tokens: 10, depth: 1, children: [], events: [] },
    level: 1,
    hasChildren: false,
    expanded: false,
  }));
}

const shown = () => screen.getAllByTestId('trace-row').map((r) => r.getAttribute('data-span-id'));
const noop = () => undefined;

describe('TraceTree window', () => {
  it('following a live run renders only the rows in view, the newest last', () => {
    render(<TraceTree rows={rows(1000)} runStart={0} runLength={1000} follow onSelect={noop} onToggle={noop} />);
    // Each fold of a fast run replaces the whole window, so no rows are rendered above the view.
    expect(shown()).toEqual(Array.from({ length: 10 }, (_, i) => `s${990 + i}`));
  });

  it('not following, a margin of rows around the view is rendered for scrolling', () => {
    render(<TraceTree rows={rows(1000)} runStart={0} runLength={1000} onSelect={noop} onToggle={noop} />);
    const ids = shown();
    expect(ids[0]).toBe('s0');
    expect(ids.length).toBeGreaterThan(10);
  });
});
