import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/events';
import { FlowDocumentSchema, type FlowDocumentInput } from '../../shared/model/flow';
import { createRuntime } from '../../runtime/runtime';
import { ofType, tempWorkspace, traceProblems } from '../support/crewHarness';
import { foldRunEvents } from '../../renderer/stores/reduceRunEvent';
import { emptyRunView } from '../../renderer/stores/runView';

let ws: ReturnType<typeof tempWorkspace>;
afterEach(() => ws?.remove());

const flow = (input: Partial<FlowDocumentInput>) => FlowDocumentSchema.parse({ kind: 'flow', version: 1, id: 'book', name: 'Book', ...input });

async function run(doc: ReturnType<typeof flow>) {
  const events: RuntimeEvent[] = [];
  const result = await createRuntime({ workspace: ws.dir, store: ws.store }).runFlow(doc, { onEvent: (e) => events.push(e) });
  expect(traceProblems(events)).toEqual([]);
  return { result, events };
}

/** Chapter 0 answers last, so the result order cannot come from completion order. */
const chapterModel = {
  provider: 'scripted' as const,
  model: 'chapters',
  script: {
    rules: [
      { when: { last: 'Chapter 0:' }, reply: { content: 'Text of Dawn', delayMs: 150 } },
      { when: { last: 'Chapter 1:' }, reply: 'Text of Noon' },
      { when: { last: 'Chapter 2:' }, reply: { content: 'Text of Dusk', delayMs: 30 } },
      { when: { last: 'Chapter 3:' }, reply: { error: { status: 400, message: 'no more chapters' } } },
    ],
  },
};

describe('for_each flow body', () => {
  it('runs the body once per item, concurrently up to the limit, and sets state.<into> in item order', async () => {
    ws = tempWorkspace('crewdeck-foreach-');
    const { result, events } = await run(
      flow({
        state: { initial: { chapters: [{ title: 'Dawn' }, { title: 'Noon' }, { title: 'Dusk' }] } },
        methods: [
          {
            id: 'write',
            name: 'write_chapters',
            trigger: { start: true },
            body: { type: 'for_each', items: '{state.chapters}', concurrency: 2, into: 'chapter_texts', body: { type: 'llm', prompt: 'Chapter {index}: {item.title}', llm: chapterModel } },
            outputFile: 'out/{state.chapter_texts.length}-chapters.json',
          },
        ],
      }),
    );
    expect(result.status).toBe('completed');
    expect(result.state.chapter_texts).toEqual(['Text of Dawn', 'Text of Noon', 'Text of Dusk']);
    expect(ofType(events, 'flow.item.started').map((e) => [e.index, e.total, e.item])).toEqual([
      [0, 3, '{"title":"Dawn"}'],
      [1, 3, '{"title":"Noon"}'],
      [2, 3, '{"title":"Dusk"}'],
    ]);
    // Two at a time: the third starts only after one of the first two finished.
    const at = (type: string, index: number) => events.find((e) => e.type === type && (e as { index?: number }).index === index)!.seq;
    expect(at('flow.item.started', 1)).toBeLessThan(at('flow.item.completed', 0));
    expect(at('flow.item.started', 2)).toBeGreaterThan(Math.min(at('flow.item.completed', 0), at('flow.item.completed', 1)));
    // Each item's model call nests under its item span.
    const itemSpans = new Map(ofType(events, 'flow.item.started').map((e) => [e.spanId, e.index]));
    expect(ofType(events, 'llm.started').map((e) => itemSpans.get(e.parentSpanId!)).sort()).toEqual([0, 1, 2]);
    // The method's outputFile gets its output (placeholders from the state after the method).
    expect(JSON.parse(readFileSync(join(ws.dir, 'out/3-chapters.json'), 'utf8'))).toEqual(['Text of Dawn', 'Text of Noon', 'Text of Dusk']);
    // The app's trace: one span per item under the method, with its status; the node's ×N counter.
    const view = foldRunEvents(emptyRunView(result.runId), events);
    expect(view.methods.write!.items).toEqual({ total: 3, done: 3, failed: 0 });
    const method = view.spans.get(view.methods.write!.spanId)!;
    const items = method.children.map((id) => view.spans.get(id)!);
    expect(items.map((i) => [i.kind, i.label, i.status])).toEqual([
      ['item', 'item 1/3', 'done'],
      ['item', 'item 2/3', 'done'],
      ['item', 'item 3/3', 'done'],
    ]);
  });

  it('a failing item fails the method with its index; the other items finish and emit flow.item.completed', async () => {
    ws = tempWorkspace('crewdeck-foreach-fail-');
    const { result, events } = await run(
      flow({
        state: { initial: { chapters: ['a', 'b', 'c', 'd'] } },
        methods: [{ id: 'write', name: 'write', trigger: { start: true }, body: { type: 'for_each', items: '{state.chapters}', concurrency: 4, into: 'texts', body: { type: 'llm', prompt: 'Chapter {index}: {item}', llm: { ...chapterModel, maxRetries: 0 } } } }],
      }),
    );
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/^write: item 3 failed: .*no more chapters/);
    expect(ofType(events, 'flow.item.failed').map((e) => e.index)).toEqual([3]);
    expect(ofType(events, 'flow.item.completed').map((e) => e.index).sort()).toEqual([0, 1, 2]);
  });

  it('a crew body per item gets {item} as an input; items that are not a list are a clear error', async () => {
    ws = tempWorkspace('crewdeck-foreach-crew-');
    writeFileSync(
      join(ws.dir, 'scorer.crew.json'),
      JSON.stringify({
        kind: 'crew',
        version: 1,
        id: 'scorer',
        name: 'Scorer',
        inputs: [{ name: 'lead' }],
        agents: [{ id: 's', role: 'Scorer', goal: 'Score leads', llm: { provider: 'scripted', model: 's', script: { rules: [{ when: { any: 'Acme' }, reply: '80' }, { when: { any: 'Bolt' }, reply: '40' }] } } }],
        tasks: [{ id: 'score', description: 'Score {lead}', expectedOutput: 'A number', agentId: 's' }],
      }),
    );
    const ok = await run(
      flow({
        state: { initial: { leads: ['Acme', 'Bolt'] } },
        methods: [{ id: 'score', name: 'score_leads', trigger: { start: true }, body: { type: 'for_each', items: '{state.leads}', into: 'scores', body: { type: 'crew', file: 'scorer.crew.json', inputs: { lead: '{item}' } } } }],
      }),
    );
    expect(ok.result.state.scores).toEqual(['80', '40']);
    const bad = await run(
      flow({
        state: { initial: { leads: 'Acme' } },
        methods: [{ id: 'score', name: 'score_leads', trigger: { start: true }, body: { type: 'for_each', items: '{state.leads}', into: 'scores', body: { type: 'crew', file: 'scorer.crew.json', inputs: { lead: '{item}' } } } }],
      }),
    );
    expect(bad.result.error?.message).toBe('score_leads.items: {state.leads} is not a list (got "Acme")');
  });
});
