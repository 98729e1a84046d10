import { afterEach, describe, expect, it } from 'vitest';
import { FlowDocumentSchema, type FlowDocumentInput } from '../../shared/model/flow';
import { createRuntime } from '../../runtime/runtime';
import { loadFlowCheckpoint, type FlowCheckpointEntry } from '../../runtime/flow/flowCheckpoint';
import { applyStateOps, diffStateOps } from '../../runtime/flow/stateOps';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { ofType, tempWorkspace, traceProblems } from '../support/crewHarness';
import type { RuntimeEvent } from '../../shared/events';

let ws: ReturnType<typeof tempWorkspace> | undefined;
afterEach(() => {
  ws?.remove();
  ws = undefined;
});

const flow = (input: Partial<FlowDocumentInput>) => FlowDocumentSchema.parse({ kind: 'flow', version: 1, id: 'shared', name: 'Shared state', ...input });

async function run(doc: ReturnType<typeof flow>, store?: SqliteRunStore) {
  ws ??= tempWorkspace('crewdeck-flowstate-');
  const events: RuntimeEvent[] = [];
  const result = await createRuntime({ workspace: ws.dir, store: store ?? ws.store }).runFlow(doc, { onEvent: (e) => events.push(e) });
  expect(traceProblems(events)).toEqual([]);
  return { result, events };
}

describe('flow state shared by concurrent methods (as CrewAI self.state)', () => {
  it('two start methods that each add 1 and append an item leave n = 2 and both items', async () => {
    const bump = (name: string) => ({
      id: name,
      name,
      trigger: { start: true as const },
      body: { type: 'script' as const, code: `state.n += 1; state.seen.push("${name}"); state.nested.count += 1; return "${name}";` },
    });
    const { result, events } = await run(flow({ state: { initial: { n: 0, seen: [], nested: { count: 10, keep: 'x' } } }, methods: [bump('left'), bump('right')] }));
    expect(result.status).toBe('completed');
    // Both scripts started from n = 0 (the second began before the first returned): their changes are
    // operations on the live state, not copies of the state each wrote back.
    const started = ofType(events, 'flow.method.started').map((e) => e.seq);
    const completed = ofType(events, 'flow.method.completed').map((e) => e.seq);
    expect(Math.max(...started)).toBeLessThan(Math.min(...completed));
    expect(result.state.n).toBe(2);
    expect([...(result.state.seen as string[])].sort()).toEqual(['left', 'right']);
    expect(result.state.nested).toEqual({ count: 12, keep: 'x' });
    expect(ofType(events, 'flow.method.completed').map((e) => e.changed)).toEqual([
      ['n', 'seen', 'nested'],
      ['n', 'seen', 'nested'],
    ]);
  });

  it('a listener reads the live state: what a method running beside it set shows', async () => {
    const { result } = await run(
      flow({
        state: { initial: { log: [] } },
        methods: [
          { id: 'a', name: 'a', trigger: { start: true }, body: { type: 'script', code: 'state.log.push("a"); state.fromA = 1; return "a";' } },
          { id: 'b', name: 'b', trigger: { start: true }, body: { type: 'set_state', set: { fromB: 'b' } } },
          { id: 'c', name: 'c', trigger: { listen: { and: ['a', 'b'] } }, body: { type: 'script', code: 'state.log.push("c:" + state.fromA + state.fromB); return "c";' } },
        ],
      }),
    );
    expect(result.state).toEqual({ log: ['a', 'c:1b'], fromA: 1, fromB: 'b' });
  });
});

describe('state operations', () => {
  it('reads an integer change as an increment, a grown list as an append, objects field by field', () => {
    const before = { n: 1, f: 0.5, list: [1, 2], obj: { a: 1, gone: true, deep: { s: 'x' } }, s: 'old' };
    const after = { n: 4, f: 0.75, list: [1, 2, 3], obj: { a: 1, deep: { s: 'y' }, added: [] }, s: 'new', fresh: null };
    const ops = diffStateOps(before, after);
    expect(ops).toEqual([
      { op: 'increment', path: ['n'], by: 3 },
      { op: 'set', path: ['f'], value: 0.75 },
      { op: 'append', path: ['list'], values: [3] },
      { op: 'delete', path: ['obj', 'gone'] },
      { op: 'set', path: ['obj', 'deep', 's'], value: 'y' },
      { op: 'set', path: ['obj', 'added'], value: [] },
      { op: 'set', path: ['s'], value: 'new' },
      { op: 'set', path: ['fresh'], value: null },
    ]);
    expect(applyStateOps(before, ops)).toEqual(after);
    // Applied to a state another method changed meanwhile, the same operations keep that method's changes.
    const meanwhile = { ...before, n: 10, list: [1, 2, 9], other: 'kept' };
    expect(applyStateOps(meanwhile, ops)).toMatchObject({ n: 13, list: [1, 2, 9, 3], other: 'kept', s: 'new' });
    // The state given is never changed in place.
    expect(before.list).toEqual([1, 2]);
    expect(before.obj).toEqual({ a: 1, gone: true, deep: { s: 'x' } });
  });

  it('a "__proto__" key in untrusted state is data: the prototype is never reached', () => {
    const after = JSON.parse('{"__proto__": {"polluted": true}, "x": {"__proto__": {"polluted": true}}}') as Record<string, unknown>;
    const next = applyStateOps({ x: {} }, diffStateOps({ x: {} }, after));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(Object.hasOwn(next, '__proto__')).toBe(true);
    expect(JSON.stringify(next)).toBe('{"x":{"__proto__":{"polluted":true}},"__proto__":{"polluted":true}}');
  });
});

/** A run store that counts the checkpoint bytes it is asked to write (whole checkpoints and entries). */
class CountingStore extends SqliteRunStore {
  written = 0;
  override saveCheckpoint(runId: string, checkpoint: unknown): void {
    this.written += JSON.stringify(checkpoint).length;
    super.saveCheckpoint(runId, checkpoint);
  }
  override appendCheckpointEntry(runId: string, entry: unknown): void {
    this.written += JSON.stringify(entry).length;
    super.appendCheckpointEntry(runId, entry);
  }
}

describe('checkpoints cost what changed', () => {
  const answer = 'x'.repeat(2000);
  const fanOut = (n: number) =>
    flow({
      state: { initial: { items: Array.from({ length: n }, (_, i) => `item ${i}`) } },
      methods: [
        { id: 'each', name: 'each', trigger: { start: true }, body: { type: 'for_each', items: '{state.items}', concurrency: 4, into: 'answers', body: { type: 'llm', prompt: 'About {item}', llm: { provider: 'scripted', model: 'm', script: { default: answer } } } } },
        { id: 'after', name: 'after', trigger: { listen: 'each' }, body: { type: 'script', code: 'state.count = state.answers.length; return "done";' } },
      ],
    });

  async function bytesFor(n: number) {
    ws ??= tempWorkspace('crewdeck-flowstate-');
    const store = new CountingStore(SqliteRunStore.open(ws.dir)['db' as keyof SqliteRunStore] as never);
    try {
      const { result } = await run(fanOut(n), store);
      expect(result.status).toBe('completed');
      expect(result.state.answers).toHaveLength(n);
      return store.written;
    } finally {
      store.close();
    }
  }

  it('a 200-item for_each writes checkpoint bytes linear in its items (not the whole checkpoint per item)', async () => {
    const b100 = await bytesFor(100);
    const b200 = await bytesFor(200);
    // Linear: twice the items, about twice the bytes (the whole checkpoint rewritten per item would be ~4x).
    expect(b200 / b100).toBeGreaterThan(1.8);
    expect(b200 / b100).toBeLessThan(2.3);
    // Per item three copies of its 2 KB answer: its item entry, and the whole checkpoint at the run's end
    // (the state's list and the last output). The method's entry refers to the items instead of copying
    // the list and its JSON (which made it five copies).
    expect(b200 / 200).toBeLessThan(3.5 * answer.length);
  });

  it("a method's entry holds its state operations and the progress that moved, never the whole state", async () => {
    ws = tempWorkspace('crewdeck-flowstate-');
    const big = 'b'.repeat(50_000);
    const store = ws.store;
    const appended: FlowCheckpointEntry[] = [];
    const append = store.appendCheckpointEntry.bind(store);
    store.appendCheckpointEntry = (runId, entry) => {
      appended.push(entry as FlowCheckpointEntry);
      append(runId, entry);
    };
    const { result } = await run(
      flow({
        state: { initial: { big, n: 0 } },
        methods: [
          { id: 'a', name: 'a', trigger: { start: true }, body: { type: 'script', code: 'state.n += 1; return "a";' } },
          { id: 'b', name: 'b', trigger: { listen: 'a' }, body: { type: 'script', code: 'state.n += 1; return "b";' } },
        ],
      }),
    );
    expect(result.state.n).toBe(2);
    const steps = appended.filter((e) => e.kind === 'step');
    expect(steps.flatMap((e) => (e.kind === 'step' ? e.ops : []))).toEqual([
      { op: 'increment', path: ['n'], by: 1 },
      { op: 'increment', path: ['n'], by: 1 },
    ]);
    for (const e of appended) expect(JSON.stringify(e)).not.toContain('bbbbbbbbbb');
  });

  it('the checkpoint read back folds its entries: state, items and progress as the run left them', async () => {
    ws = tempWorkspace('crewdeck-flowstate-');
    const store = ws.store;
    // A run paused for feedback after a for_each and a script: its whole checkpoint is written at the
    // pause, so save one whole checkpoint first and let entries follow it by stopping the save at the pause.
    const doc = flow({
      state: { initial: { items: ['a', 'b', 'c'], n: 0 } },
      methods: [
        { id: 'each', name: 'each', trigger: { start: true }, body: { type: 'for_each', items: '{state.items}', concurrency: 1, into: 'out', body: { type: 'llm', prompt: '{item}', llm: { provider: 'scripted', model: 'm', script: { default: 'ok' } } } } },
        { id: 'count', name: 'count', trigger: { listen: 'each' }, body: { type: 'script', code: 'state.n += state.out.length; return "counted";' } },
      ],
    });
    const saves: unknown[] = [];
    const save = store.saveCheckpoint.bind(store);
    let whole = 0;
    store.saveCheckpoint = (runId, cp) => {
      whole += 1;
      saves.push(structuredClone(cp));
      // The first (the run's start) is stored; the last (its end) is not, so the entries stay to be folded.
      if (whole === 1) save(runId, cp);
    };
    const { result } = await run(doc);
    expect(result.status).toBe('completed');
    const folded = loadFlowCheckpoint(store, result.runId)!;
    const last = saves.at(-1) as { state: unknown; completed: unknown; calls: number; lastOutput: string };
    expect(folded.state).toEqual(result.state);
    expect(folded.state).toEqual(last.state);
    expect(folded.completed).toEqual(last.completed);
    expect(folded.calls).toBe(last.calls);
    expect(folded.lastOutput).toBe('counted');
    expect(store.checkpointEntries(result.runId).filter((e) => (e as FlowCheckpointEntry).kind === 'item')).toHaveLength(3);
  });

  it("a for_each's entry refers to its item entries: the list and the output are read back from them, not written again", async () => {
    ws = tempWorkspace('crewdeck-flowstate-');
    const store = ws.store;
    const doc = flow({
      state: { initial: { items: ['a', 'b', 'c'] } },
      methods: [
        {
          id: 'each',
          name: 'each',
          trigger: { start: true },
          body: { type: 'for_each', items: '{state.items}', concurrency: 2, into: 'out', body: { type: 'llm', prompt: 'answer-{item}', llm: { provider: 'scripted', model: 'm', script: { rules: [{ when: { last: 'answer-a' }, reply: 'reply-a' }, { when: { last: 'answer-b' }, reply: 'reply-b' }], default: 'reply-c' } } } },
        },
      ],
    });
    let whole = 0;
    const save = store.saveCheckpoint.bind(store);
    store.saveCheckpoint = (runId, cp) => {
      // Only the run's start is stored whole: the entries after it are what is read back.
      if (++whole === 1) save(runId, cp);
    };
    const { result } = await run(doc);
    expect(result.status).toBe('completed');
    const entries = store.checkpointEntries(result.runId) as FlowCheckpointEntry[];
    const steps = entries.filter((e) => e.kind === 'step');
    const last = steps.at(-1)!;
    expect(last.kind === 'step' && last.ops).toEqual([{ op: 'items', path: ['out'], items: 'each#1', count: 3 }]);
    expect(last.kind === 'step' && last.output).toEqual({ items: 'each#1', count: 3 });
    for (const e of steps) expect(JSON.stringify(e)).not.toContain('reply-');
    const folded = loadFlowCheckpoint(store, result.runId)!;
    expect(folded.state.out).toEqual(result.state.out);
    expect(folded.lastOutput).toBe(result.output);
    expect(result.state.out).toEqual(['reply-a', 'reply-b', 'reply-c']);
    expect(result.output).toBe(JSON.stringify(result.state.out));
  });
});
