import { describe, expect, it } from 'vitest';
import { flattenSpans } from '../../../renderer/panels/trace/flattenSpans';
import { timelineStep } from '../../../renderer/panels/trace/timelineStep';
import { emptyRunView, type RunView, type TraceSpan } from '../../../renderer/stores/runView';

function span(id: string, children: string[] = [], parentId?: string): TraceSpan {
  return { id, parentId, kind: 'task', label: id, status: 'running', start: 0, tokens: 0, depth: 0, children, events: [] };
}

function view(spans: TraceSpan[]): RunView {
  return { ...emptyRunView('run_1'), spans: new Map(spans.map((s) => [s.id, s])), rootIds: [spans[0]!.id] };
}

describe('trace rows while a run streams in', () => {
  it('hands out the same row object for an unchanged span, so memoised rows skip it', () => {
    const root = span('root', ['a', 'b']);
    const a = span('a', [], 'root');
    const b = span('b', [], 'root');
    const first = flattenSpans(view([root, a, b]), ['root'], new Set());
    // The next fold: b changed (a new object), a new child c arrived, root got a new children list.
    const b2 = { ...b, status: 'done' as const };
    const c = span('c', [], 'root');
    const root2 = { ...root, children: ['a', 'b', 'c'] };
    const next = flattenSpans(view([root2, a, b2, c]), ['root'], new Set());
    expect(next.map((r) => r.span.id)).toEqual(['root', 'a', 'b', 'c']);
    expect(next[1]).toBe(first[1]);
    expect(next[2]).not.toBe(first[2]);
    expect(next[0]).not.toBe(first[0]);
    // Collapsing changes the row too.
    const collapsed = flattenSpans(view([root2, a, b2, c]), ['root'], new Set(['root']));
    expect(collapsed).toHaveLength(1);
    expect(collapsed[0]!.expanded).toBe(false);
    expect(collapsed[0]).not.toBe(next[0]);
  });

  it('grows the live timeline in steps of 2^(1/4) from 1 s, never below the elapsed time', () => {
    expect(timelineStep(1)).toBe(1000);
    expect(timelineStep(1000)).toBe(1000);
    let last = 0;
    let steps = 0;
    for (let ms = 1; ms <= 60_000; ms += 7) {
      const step = timelineStep(ms);
      expect(step).toBeGreaterThanOrEqual(ms);
      expect(step).toBeLessThan(Math.max(1000, ms) * 2 ** 0.25 + 1e-6);
      if (step !== last) steps++;
      last = step;
    }
    // 1 s → 60 s is ~24 steps: the rows in view are redrawn ~24 times by the scale, not with every event.
    expect(steps).toBeLessThanOrEqual(25);
  });
});
