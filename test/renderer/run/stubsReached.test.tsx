// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../shared/events';
import { StubMarker } from '../../../renderer/canvas/flow/StubMarker';
import { StubsReachedBadge } from '../../../renderer/panels/StubsReachedBadge';
import { foldRunEvents } from '../../../renderer/stores/reduceRunEvent';
import { useRunStore } from '../../../renderer/stores/runStore';
import { emptyRunView } from '../../../renderer/stores/runView';

const RUN = 'run_stubs';
let seq = 0;
const event = (type: string, payload: Record<string, unknown>, spanId = 's0', parentSpanId?: string): RuntimeEvent =>
  ({ type, ...payload, runId: RUN, seq: ++seq, ts: 1000 + seq, spanId, ...(parentSpanId ? { parentSpanId } : {}) }) as RuntimeEvent;

const stub = (methodId: string, file: string, line: number, spanId: string) =>
  event('flow.stub.reached', { methodId, methodName: methodId, python: `    def ${methodId}(self):\n        requests.get(URL)`, file, line, message: '' }, spanId, 's0');
const method = (methodId: string, spanId: string) => event('flow.method.started', { methodId, methodName: methodId, bodyType: 'script', trigger: 'start', call: 1 }, spanId, 's0');

/** fetch_leads is reached twice (a loop), notify once. */
function events(): RuntimeEvent[] {
  seq = 0;
  return [
    event('run.started', { documentId: 'leads', documentName: 'Leads', process: 'flow', inputs: {}, stepIds: ['fetch_leads', 'notify', 'other'] }),
    method('fetch_leads', 's1'),
    stub('fetch_leads', 'main.py', 42, 's1'),
    method('fetch_leads', 's2'),
    stub('fetch_leads', 'main.py', 42, 's2'),
    method('notify', 's3'),
    stub('notify', 'main.py', 80, 's3'),
  ];
}

afterEach(() => {
  cleanup();
  useRunStore.setState({ view: undefined, runId: undefined });
});

describe('the run view of a flow that reached imported CrewAI stubs', () => {
  it('lists each stub method once, in the order reached, whether folded at once or event by event', () => {
    const all = events();
    const atOnce = foldRunEvents(emptyRunView(RUN), all);
    const oneByOne = all.reduce((view, e) => foldRunEvents(view, [e]), emptyRunView(RUN));
    for (const view of [atOnce, oneByOne]) {
      expect(view.stubsReached.map((s) => [s.methodId, s.file, s.line])).toEqual([
        ['fetch_leads', 'main.py', 42],
        ['notify', 'main.py', 80],
      ]);
    }
    // Folding is pure: the view before the last stub still lists one.
    expect(foldRunEvents(emptyRunView(RUN), all.slice(0, 5)).stubsReached).toHaveLength(1);
  });

  it('shows "2 stubs reached" beside the run and a marker on each stub method only', () => {
    const view = foldRunEvents(emptyRunView(RUN), events());
    useRunStore.setState({ view, runId: RUN });
    render(
      <>
        <StubsReachedBadge testId="run-stubs" />
        <StubMarker methodKey="fetch_leads" />
        <StubMarker methodKey="other" />
      </>,
    );
    const badge = screen.getByTestId('run-stubs');
    expect(badge.textContent).toBe('!2 stubs reached');
    expect(badge.getAttribute('title')).toBe('2 stubs reached: fetch_leads (main.py:42), notify (main.py:80): their CrewAI Python did not run; each passed its input on unchanged');
    expect(screen.getByTestId('stub-marker-fetch_leads').textContent).toContain('main.py:42');
    expect(screen.queryByTestId('stub-marker-other')).toBeNull();
  });

  it('shows nothing for a run without stubs', () => {
    useRunStore.setState({ view: foldRunEvents(emptyRunView(RUN), events().slice(0, 2)), runId: RUN });
    render(<StubsReachedBadge testId="run-stubs" />);
    expect(screen.queryByTestId('run-stubs')).toBeNull();
  });
});
