import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeEvent } from '../../../shared/events';
import { emptyUsage } from '../../../shared/usage';
import { RunSessions } from '../../../renderer/stores/runSessions';
import { FakeHost } from './fakeHost';
import { exampleDocument, recordedEvents } from './runFixtures';

describe('RunSessions', () => {
  it('a run whose stored events could not be read ignores live events until it is opened again', async () => {
    const runId = 'run_broken';
    const events = recordedEvents('run-hierarchical-delegation').map((e) => ({ ...e, runId }));
    const host = new FakeHost({
      'runs.get': () => ({
        run: { id: runId, kind: 'crew', documentId: 'product-launch', name: 'Product launch', status: 'running', startedAt: 1, tokenUsage: emptyUsage(), document: exampleDocument('product-launch'), inputs: {} },
        taskOutputs: [],
      }),
      // The first page arrives, the next one fails.
      'runs.events': ({ afterSeq = 0 }) => {
        if (afterSeq > 0) throw new Error('the store is gone');
        return { events: events.slice(0, 3), lastSeq: 3, more: true };
      },
    });
    const changes: { view: boolean; error?: string }[] = [];
    const sessions = new RunSessions(
      () => host,
      (_id, view, error) => changes.push({ view: view !== undefined, error }),
      () => runId,
    );
    await sessions.open(runId);
    expect(changes.at(-1)).toEqual({ view: false, error: 'the store is gone' });
    const reported = changes.length;

    for (const event of events.slice(3, 40) as RuntimeEvent[]) sessions.receive(event);
    sessions.flush();
    // Nothing folded over the error (and nothing kept: the next open reads the store again).
    expect(changes).toHaveLength(reported);

    host.handlers['runs.events'] = ({ afterSeq = 0 }) => {
      const after = events.filter((e) => e.seq > afterSeq);
      return { events: after, lastSeq: after.at(-1)?.seq ?? afterSeq, more: false };
    };
    await sessions.open(runId);
    expect(changes.at(-1)).toEqual({ view: true, error: undefined });
    expect(sessions.view(runId)?.lastSeq).toBe(events.at(-1)!.seq);
  });

  it('folds live stream deltas, which carry the seq of the stored event before them, without fetching a gap', async () => {
    const runId = 'run_streaming';
    const events = recordedEvents('run-hierarchical-delegation').map((e) => ({ ...e, runId }));
    const k = events.findIndex((e) => e.type === 'llm.started');
    const started = events[k];
    const host = new FakeHost({
      'runs.get': () => ({
        run: { id: runId, kind: 'crew', documentId: 'product-launch', name: 'Product launch', status: 'running', startedAt: 1, tokenUsage: emptyUsage(), document: exampleDocument('product-launch'), inputs: {} },
        taskOutputs: [],
      }),
      // The store holds no deltas: only the events up to the model call.
      'runs.events': () => ({ events: events.slice(0, k + 1), lastSeq: started!.seq, more: false }),
    });
    const sessions = new RunSessions(() => host, () => undefined, () => runId);
    await sessions.open(runId);
    const chunk = (delta: string) => ({ type: 'llm.chunk', delta, runId, seq: started!.seq, ts: started!.ts, spanId: started!.spanId }) as RuntimeEvent;
    sessions.receive(chunk('Hello, '));
    sessions.receive(chunk('world'));
    sessions.flush();
    expect(sessions.view(runId)?.spans.get(started!.spanId)?.streamed).toBe('Hello, world');
    expect(sessions.view(runId)?.lastSeq).toBe(started!.seq);

    for (const event of events.slice(k + 1) as RuntimeEvent[]) sessions.receive(event);
    sessions.flush();
    // A delta that arrives after the view has moved on is stale and dropped.
    sessions.receive(chunk(' (late)'));
    sessions.flush();
    expect(sessions.view(runId)?.lastSeq).toBe(events.at(-1)!.seq);
    expect(sessions.view(runId)?.spans.get(started!.spanId)?.streamed).toBe('Hello, world');
    expect(host.callsTo('runs.events')).toHaveLength(1);
  });

  describe('pacing of live folds in a page (animation frames)', () => {
    afterEach(() => {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    });

    it('shows an event after a quiet spell at the next frame, and a stream at most every 100 ms, each fold in a task after the frame', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      // A page's frames: every 16 ms.
      let inFrame = false;
      vi.stubGlobal('requestAnimationFrame', (callback: (t: number) => void) =>
        setTimeout(() => {
          inFrame = true;
          callback(performance.now());
          inFrame = false;
        }, 16),
      );
      vi.stubGlobal('cancelAnimationFrame', (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle));
      const runId = 'run_paced';
      const events = recordedEvents('run-hierarchical-delegation').map((e) => ({ ...e, runId })) as RuntimeEvent[];
      const host = new FakeHost({
        'runs.get': () => ({
          run: { id: runId, kind: 'crew', documentId: 'product-launch', name: 'Product launch', status: 'running', startedAt: 1, tokenUsage: emptyUsage(), document: exampleDocument('product-launch'), inputs: {} },
          taskOutputs: [],
        }),
        'runs.events': () => ({ events: events.slice(0, 2), lastSeq: events[1]!.seq, more: false }),
      });
      const folds: { at: number; lastSeq: number; inFrame: boolean }[] = [];
      const sessions = new RunSessions(
        () => host,
        (_id, view) => folds.push({ at: performance.now(), lastSeq: view?.lastSeq ?? -1, inFrame }),
        () => runId,
      );
      await sessions.open(runId);
      folds.length = 0;
      const t0 = performance.now();

      // After a quiet spell: the next frame.
      sessions.receive(events[2]!);
      await vi.advanceTimersByTimeAsync(18);
      // The frame at 16 ms, then the fold's own task (the fake clock runs a 0 ms timer 1 ms later).
      expect(folds.map((f) => [f.at - t0, f.lastSeq, f.inFrame])).toEqual([[17, events[2]!.seq, false]]);

      // A stream: one event every 5 ms for 300 ms is folded at most every 100 ms, and nothing is lost.
      let next = 3;
      for (let ms = 0; ms < 300 && next < events.length; ms += 5) {
        sessions.receive(events[next++]!);
        await vi.advanceTimersByTimeAsync(5);
      }
      await vi.advanceTimersByTimeAsync(200);
      const gaps = folds.slice(1).map((f, i) => f.at - folds[i]!.at);
      expect(folds.length).toBeGreaterThanOrEqual(3);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(100);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(100 + 16 + 1);
      expect(folds.at(-1)!.lastSeq).toBe(events[next - 1]!.seq);
      // Never inside the frame's callback: the frame is not held up by the fold's rendering.
      expect(folds.filter((f) => f.inFrame)).toEqual([]);
    });
  });
});
