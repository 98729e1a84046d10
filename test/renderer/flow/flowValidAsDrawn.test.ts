// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFlowDocument } from '../../../shared/model/parse';
import { setHost } from '../../../renderer/host/hostContext';
import { useDocumentStore } from '../../../renderer/stores/documentStore';
import { useUiStore } from '../../../renderer/stores/uiStore';
import { addMethod } from '../../../renderer/commands/flow/addMethod';
import { asFlow, type MethodDraft } from '../../../renderer/commands/flow/flowDraft';
import { FLOW_NODE_SIZE } from '../../../renderer/commands/flow/flowLayout';
import { flowToGraph } from '../../../renderer/canvas/flow/flowToGraph';
import { FlowHost } from './flowFixtures';

/**
 * Issue 32: a new flow built from the palette failed on its first run — every method was a start, the
 * default `{input}` had no value, and nothing warned. Built the way a person builds it (an empty file,
 * each method added while the previous one is selected), it validates as it is drawn.
 */
const PATH = 'new.flow.json';
const store = () => useDocumentStore.getState();
const methods = () => asFlow(store().doc!).methods as MethodDraft[];
const layout = () => asFlow(store().doc!).layout as Record<string, { x: number; y: number }>;
/** Adds as the palette does: after the one selected method (the last added is selected). */
const add = (template: Parameters<typeof addMethod>[0], position?: { x: number; y: number }) => {
  const selected = useUiStore.getState().selectedNodeIds;
  return store().perform(addMethod(template, position, selected.length === 1 ? selected[0] : undefined));
};

beforeEach(async () => {
  const host = new FlowHost();
  host.files.set(PATH, JSON.stringify({ kind: 'flow', version: 1, id: 'new', name: 'New', state: { initial: {} }, methods: [] }));
  setHost(host);
  useUiStore.getState().select([]);
  await store().load(PATH);
});
afterEach(async () => {
  await store().flushSave();
});

describe('a flow valid as it is drawn', () => {
  it('an empty flow says it needs a method; the first one starts it, with a body that needs no {input}', () => {
    expect(store().problems.map((p) => p.message)).toEqual(['a flow needs at least one method']);
    add('llm', { x: 100, y: 80 });
    expect(methods()[0]).toMatchObject({ name: 'call_model', trigger: { start: true }, body: { type: 'llm' } });
    expect(JSON.stringify(methods()[0]!.body)).not.toContain('{input');
    expect(store().problems).toEqual([]);
  });

  it('each method added while the previous one is selected listens to it; a router’s next listener takes a free route', () => {
    add('set_state', { x: 100, y: 80 });
    add('router', { x: 420, y: 80 });
    add('script', { x: 740, y: 80 });
    add('llm', { x: 740, y: 300 });
    expect(methods().map((m) => [m.name, m.trigger])).toEqual([
      ['set_state', { start: true }],
      ['route', { listen: 'set_state' }],
      ['script', { listen: { route: 'yes' } }],
      // The script is selected now: the model call listens to it.
      ['call_model', { listen: 'script' }],
    ]);
    useUiStore.getState().select(['method:route']);
    add('set_state', { x: 740, y: 520 });
    expect(methods().at(-1)!.trigger).toEqual({ listen: { route: 'no' } });
    expect(parseFlowDocument(store().doc).ok).toBe(true);
    expect(store().problems).toEqual([]);
  });

  it('keeps the drop point; a drop onto another method moves down until nothing overlaps', () => {
    add('set_state', { x: 100, y: 80 });
    add('script', { x: 500, y: 200 });
    expect(layout()['method:script']).toEqual({ x: 500, y: 200 });
    useUiStore.getState().select([]);
    add('llm', { x: 520, y: 210 });
    const a = layout()['method:script']!;
    const b = layout()['method:call-model']!;
    expect(b.x).toBe(520);
    expect(b.y).toBeGreaterThanOrEqual(a.y + FLOW_NODE_SIZE.method.height);
  });

  it('a start method reading {input}, a method that never runs and a route nobody listens to show on their nodes', () => {
    add('set_state', { x: 100, y: 80 });
    add('router', { x: 420, y: 80 });
    useUiStore.getState().select([]);
    add('llm', { x: 100, y: 400 });
    // Make the model call a listener of a method that does not run, and give the start an {input}.
    const doc = asFlow(store().doc!);
    const edited = {
      ...doc,
      methods: [
        { ...methods()[0]!, body: { type: 'set_state', set: { last: '{input}' } } },
        methods()[1]!,
        { ...methods()[2]!, trigger: { listen: { and: ['set_state', 'ghost_caller'] } } },
        { id: 'ghost-caller', name: 'ghost_caller', trigger: { listen: 'call_model' }, body: { type: 'script', code: 'return 1;' } },
      ],
    };
    const graph = flowToGraph(edited as never, parseResult(edited));
    const node = (key: string) => graph.nodes.find((n) => n.id === `method:${key}`)!.data as { problems: string[]; warnings: string[] };
    expect(node('set-state').problems).toEqual([expect.stringMatching(/^body\.set\.last: \{input\} has no value in a start method/)]);
    expect(node('route').warnings).toEqual(['routes.0: route "yes" has no listener: choosing it ends the flow there', 'routes.1: route "no" has no listener: choosing it ends the flow there']);
    expect(node('call-model').warnings).toEqual(['trigger: never runs: no start method leads to what it listens to']);
    expect(node('ghost-caller').warnings).toEqual(['trigger: never runs: no start method leads to what it listens to']);
  });
});

function parseResult(doc: unknown) {
  const parsed = parseFlowDocument(doc);
  return parsed.ok ? [] : parsed.problems;
}
