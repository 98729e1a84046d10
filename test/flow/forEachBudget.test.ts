import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { FlowDocumentSchema } from '../../shared/model/flow';
import { createRuntime } from '../../runtime/runtime';
import { ofType, tempWorkspace, traceProblems } from '../support/crewHarness';
import { foldRunEvents } from '../../renderer/stores/reduceRunEvent';
import { emptyRunView } from '../../renderer/stores/runView';

let ws: ReturnType<typeof tempWorkspace>;
afterEach(() => ws?.remove());

/** Every chapter's call costs 50 tokens (40 prompt + 10 completion). */
const chapterModel = {
  provider: 'scripted' as const,
  model: 'chapters',
  script: { rules: [{ when: { last: 'Chapter' }, reply: { content: 'chapter text', usage: { prompt: 40, completion: 10 } } }] },
};

const book = FlowDocumentSchema.parse({
  kind: 'flow',
  version: 1,
  id: 'book',
  name: 'Book',
  budget: { maxTokens: 100 },
  state: { initial: { chapters: ['Dawn', 'Noon', 'Dusk', 'Night'] } },
  methods: [
    {
      id: 'write',
      name: 'write_chapters',
      trigger: { start: true },
      body: { type: 'for_each', items: '{state.chapters}', concurrency: 1, into: 'texts', body: { type: 'llm', prompt: 'Chapter {index}: {item}', llm: chapterModel } },
    },
  ],
});

describe('for_each at the run budget', () => {
  it('pauses the item and its method (not a failure); resume runs only the items not finished', async () => {
    ws = tempWorkspace('crewdeck-foreach-budget-');
    const runtime = createRuntime({ workspace: ws.dir, store: ws.store });
    const first: RuntimeEvent[] = [];
    const paused = await runtime.runFlow(book, { onEvent: (e) => first.push(e) });

    // Two chapters spend the 100 tokens; the third's call has no room.
    expect(paused.status).toBe('paused');
    expect(ofType(first, 'llm.started')).toHaveLength(2);
    expect(ofType(first, 'flow.item.completed').map((e) => e.index)).toEqual([0, 1]);
    expect(ofType(first, 'flow.item.paused').map((e) => [e.index, e.reason])).toEqual([[2, 'budget']]);
    expect(ofType(first, 'flow.item.failed')).toEqual([]);
    expect(ofType(first, 'flow.method.paused').map((e) => e.methodId)).toEqual(['write']);
    expect(ofType(first, 'flow.method.failed')).toEqual([]);
    const view = foldRunEvents(emptyRunView(paused.runId), first);
    const method = view.spans.get(view.methods.write!.spanId)!;
    expect(method.children.map((id) => view.spans.get(id)!.status)).toEqual(['done', 'done', 'paused']);

    const second: RuntimeEvent[] = [];
    const done = await runtime.resume(paused.runId, { budget: { maxTokens: 1000 }, onEvent: (e) => second.push(e) });
    expect(done.status).toBe('completed');
    // Only chapters 3 and 4 call the model again; 1 and 2 come from the checkpoint.
    expect(ofType(second, 'llm.started').map((e) => e.messages.at(-1)?.content)).toEqual(['Chapter 2: Dusk', 'Chapter 3: Night']);
    expect(ofType(second, 'flow.item.completed').filter((e) => e.restoredFrom === 'checkpoint').map((e) => e.index)).toEqual([0, 1]);
    expect((done as { state: Record<string, unknown> }).state.texts).toEqual(['chapter text', 'chapter text', 'chapter text', 'chapter text']);
    expect(done.tokenUsage.totalTokens).toBe(200);
    // Both sessions together are one well-formed trace: the paused item's span ended, the root goes on.
    expect(traceProblems([...first, ...second])).toEqual([]);
  });
});
