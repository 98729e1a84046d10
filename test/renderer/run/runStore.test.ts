import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeEvent } from '../../../shared/events';
import type { HostResponse } from '../../../shared/host-api';
import { emptyUsage } from '../../../shared/usage';
import { setHost } from '../../../renderer/host/hostContext';
import { useHumanRequestStore } from '../../../renderer/stores/humanRequestStore';
import { selectOverlay, selectRunStatus, useRunStore } from '../../../renderer/stores/runStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { FakeHost } from './fakeHost';
import { exampleDocument, recordedEvents } from './runFixtures';

/** A host whose store holds `stored` events of one run and pages them `pageSize` at a time. */
function hostWithRun(runId: string, events: RuntimeEvent[], document: unknown, pageSize = 10) {
  const stored = events.map((e) => ({ ...e, runId }));
  const host = new FakeHost({
    'runs.get': () => ({ run: summary(runId, document), taskOutputs: [] }),
    'runs.events': ({ afterSeq = 0 }) => {
      const after = stored.filter((e) => e.seq > afterSeq);
      const page = after.slice(0, pageSize);
      return { events: page, lastSeq: page.length ? page[page.length - 1]!.seq : afterSeq, more: after.length > pageSize };
    },
    'runs.list': () => ({ runs: [] }),
    'human.pending': () => ({ requests: [] }),
  });
  return { host, stored };
}

function summary(runId: string, document: unknown): HostResponse<'runs.get'>['run'] {
  return { id: runId, kind: 'crew', documentId: 'product-launch', name: 'Product launch', status: 'running', startedAt: 1, tokenUsage: emptyUsage(), document, inputs: {} };
}

const delegation = recordedEvents('run-hierarchical-delegation');
const doc = exampleDocument('product-launch');
let detach: (() => void) | undefined;
let n = 0;
let runId = '';

beforeEach(() => {
  runId = `run_store_${++n}`;
});

afterEach(async () => {
  detach?.();
  detach = undefined;
  await useRunStore.getState().show(undefined);
});

describe('runStore.show', () => {
  it('pages through the stored events until the host has no more, and shows the run', async () => {
    const { host } = hostWithRun(runId, delegation, doc, 7);
    setHost(host);
    await useRunStore.getState().show(runId);
    const state = useRunStore.getState();
    expect(state.runId).toBe(runId);
    expect(useRunStore.getState().runId).toBe(runId);
    expect(state.view?.lastSeq).toBe(40);
    expect(state.view?.eventCount).toBe(40);
    expect(selectRunStatus(state)).toBe('completed');
    expect(host.callsTo('runs.events').map((r) => (r as { afterSeq: number }).afterSeq)).toEqual([0, 7, 14, 21, 28, 35]);
    expect(selectOverlay(state).nodeStatus).toEqual({ 'task:pricing': 'done', 'task:announcement': 'done', manager: 'done', 'agent:analyst': 'done', 'agent:copywriter': 'done' });
    expect(selectOverlay(state).nodeCounters.manager).toEqual({ toolCalls: 2, retries: 0 });
  });

  it('merges live events that arrive while stored ones load, without duplicates or gaps', async () => {
    const { host, stored } = hostWithRun(runId, delegation.slice(0, 30), doc, 10);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const page = host.handlers['runs.events']!;
    host.handlers['runs.events'] = async (req) => {
      await gate;
      return page(req);
    };
    setHost(host);
    detach = useRunStore.getState().attach();
    const showing = useRunStore.getState().show(runId);
    // Live events 25..40 overlap the stored 1..30 and continue past them.
    for (const e of stored.slice(24)) host.push({ kind: 'event', event: e });
    for (const e of delegation.slice(30)) host.push({ kind: 'event', event: { ...e, runId } });
    expect(useRunStore.getState().loading).toBe(true);
    release();
    await showing;
    await vi.waitFor(() => expect(useRunStore.getState().view?.lastSeq).toBe(40));
    const view = useRunStore.getState().view!;
    expect(view.eventCount).toBe(40);
    expect(view.status).toBe('completed');
    const allSpanEvents = [...view.spans.values()].flatMap((s) => s.events.map((e) => e.seq));
    expect(new Set(allSpanEvents).size).toBe(allSpanEvents.length);
  });

  it('fetches a gap in the live stream from the store', async () => {
    const { host, stored } = hostWithRun(runId, delegation.slice(0, 20), doc);
    setHost(host);
    detach = useRunStore.getState().attach();
    await useRunStore.getState().show(runId);
    expect(useRunStore.getState().view?.lastSeq).toBe(20);
    // The store moves on to 24; only 23 and 24 reach us live (21 and 22 were lost, e.g. a reconnect).
    stored.push(...delegation.slice(20, 24).map((e) => ({ ...e, runId })));
    host.push({ kind: 'event', event: stored[22]! });
    host.push({ kind: 'event', event: stored[23]! });
    await vi.waitFor(() => expect(useRunStore.getState().view?.lastSeq).toBe(24));
    expect(useRunStore.getState().view?.eventCount).toBe(24);
    expect(host.callsTo('runs.events').at(-1)).toMatchObject({ runId, afterSeq: 20 });
    expect(selectOverlay(useRunStore.getState()).nodeStatus['task:announcement']).toBe('running');
  });

  it('folds live events into the shown run and updates node status', async () => {
    const { host } = hostWithRun(runId, delegation.slice(0, 6), doc);
    setHost(host);
    detach = useRunStore.getState().attach();
    await useRunStore.getState().show(runId);
    expect(selectOverlay(useRunStore.getState()).activeDelegations).toEqual([]);
    host.push({ kind: 'event', event: { ...delegation[6]!, runId } });
    await vi.waitFor(() => expect(selectOverlay(useRunStore.getState()).activeDelegations).toEqual([{ from: 'manager', to: 'agent:analyst', spanId: 's6' }]));
    host.push({ kind: 'event', event: { ...delegation[7]!, runId } });
    await vi.waitFor(() => expect(selectOverlay(useRunStore.getState()).nodeStatus['agent:analyst']).toBe('running'));
  });

  it('ignores live events of runs it does not follow', async () => {
    const { host } = hostWithRun(runId, delegation.slice(0, 5), doc);
    setHost(host);
    detach = useRunStore.getState().attach();
    await useRunStore.getState().show(runId);
    // Another run's end, numbered as the next event of this one: folded in, it would end this run at seq 6.
    host.push({ kind: 'event', event: { ...delegation[39]!, seq: 6, runId: 'someone_else' } });
    // This run's own next event, pushed after it on the same stream: once it is folded, the other was handled.
    host.push({ kind: 'event', event: { ...delegation[5]!, runId } });
    await vi.waitFor(() => expect(useRunStore.getState().view?.lastSeq).toBe(6));
    expect(useRunStore.getState().view?.eventCount).toBe(6);
    expect(selectRunStatus(useRunStore.getState())).toBe('running');
  });

  it('the span selected in a run stays while that run is shown and goes with it', async () => {
    const { host } = hostWithRun(runId, delegation, doc);
    setHost(host);
    detach = useRunStore.getState().attach();
    await useRunStore.getState().show(runId);
    expect(selectRunStatus(useRunStore.getState())).toBe('completed');
    useUiStore.getState().selectSpan('task:brief');
    await useRunStore.getState().show(runId);
    expect(useUiStore.getState().spanId).toBe('task:brief');
    await useRunStore.getState().show(undefined);
    expect(useUiStore.getState().spanId).toBeUndefined();
    expect(useRunStore.getState().view).toBeUndefined();
  });

  it('reports a run the host cannot find', async () => {
    const host = new FakeHost({
      'runs.get': () => {
        throw new Error('no run "missing"');
      },
    });
    setHost(host);
    await useRunStore.getState().show('missing');
    expect(useRunStore.getState().error).toContain('no run');
    expect(useRunStore.getState().view).toBeUndefined();
  });
});

describe('runStore actions', () => {
  it('starts a run and shows it', async () => {
    const { host } = hostWithRun(runId, delegation.slice(0, 3), doc);
    host.handlers['runs.start'] = () => ({ runId });
    setHost(host);
    const started = await useRunStore.getState().start('product-launch.crew.json', { product: 'X' });
    expect(started).toBe(runId);
    expect(host.callsTo('runs.start')).toEqual([{ path: 'product-launch.crew.json', inputs: { product: 'X' } }]);
    expect(useRunStore.getState().runId).toBe(runId);
    expect(selectRunStatus(useRunStore.getState())).toBe('running');
  });

  it('replays the shown run from a task and shows the new run', async () => {
    const { host } = hostWithRun(runId, delegation, doc);
    const replayId = `${runId}_replay`;
    const replayed = recordedEvents('run-replay-from-brief').map((e) => ({ ...e, runId: replayId }));
    const page = host.handlers['runs.events']!;
    host.handlers['runs.events'] = (req) => (req.runId === replayId ? { events: replayed, lastSeq: replayed.length, more: false } : page(req));
    host.handlers['runs.replay'] = () => ({ runId: replayId });
    setHost(host);
    await useRunStore.getState().show(runId);
    const newId = await useRunStore.getState().replay('announcement');
    expect(newId).toBe(replayId);
    expect(host.callsTo('runs.replay')).toEqual([{ runId, fromTaskId: 'announcement' }]);
    expect(useRunStore.getState().runId).toBe(replayId);
    expect(useRunStore.getState().view?.replayOf).toMatchObject({ fromTaskId: 'brief' });
  });

  it('cancels the shown run', async () => {
    const { host } = hostWithRun(runId, delegation.slice(0, 3), doc);
    host.handlers['runs.cancel'] = () => ({ cancelled: true });
    setHost(host);
    await useRunStore.getState().show(runId);
    await useRunStore.getState().cancel();
    expect(host.callsTo('runs.cancel')).toEqual([{ runId }]);
  });

  it('routes human requests of any run to the human store and refreshes the history on run ends', async () => {
    const { host } = hostWithRun(runId, delegation, doc);
    let listed = 0;
    host.handlers['runs.list'] = () => {
      listed += 1;
      return { runs: [] };
    };
    setHost(host);
    useHumanRequestStore.setState({ requests: [] });
    detach = useRunStore.getState().attach();
    await vi.waitFor(() => expect(listed).toBe(1));
    const base = { runId: 'other_run', ts: 5, spanId: 's9' };
    host.push({ kind: 'event', event: { ...base, seq: 9, type: 'human.requested', requestId: 'h1', kind: 'tool_approval', agentRole: 'Researcher', prompt: 'allow?', tool: 'read_file', args: { path: 'a' } } });
    expect(useHumanRequestStore.getState().requests.map((r) => [r.runId, r.requestId, r.kind])).toEqual([['other_run', 'h1', 'tool_approval']]);
    host.push({ kind: 'event', event: { ...base, seq: 10, type: 'human.answered', requestId: 'h1', kind: 'tool_approval', decision: 'approve' } });
    expect(useHumanRequestStore.getState().requests).toEqual([]);
    host.push({ kind: 'event', event: { ...base, seq: 11, type: 'run.completed', output: 'x', tokenUsage: emptyUsage(), durationMs: 1 } });
    await vi.waitFor(() => expect(listed).toBe(2));
  });

  it('subscribes to the host once however often it is attached', () => {
    const { host } = hostWithRun(runId, delegation, doc);
    setHost(host);
    detach = useRunStore.getState().attach();
    useRunStore.getState().attach();
    expect(host.listenerCount).toBe(1);
  });
});
