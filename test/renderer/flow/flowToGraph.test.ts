import { describe, expect, it } from 'vitest';
import { parseFlowDocument } from '../../../shared/model/parse';
import { flowToGraph } from '../../../renderer/canvas/flow/flowToGraph';
import { flowProblemsToNodes } from '../../../renderer/canvas/flow/flowProblemsToNodes';
import { asFlow } from '../../../renderer/commands/flow/flowDraft';
import type { MethodNode, GateNode } from '../../../renderer/canvas/flow/flowGraphTypes';
import { reviewFlow } from './flowFixtures';

const edgeSet = (edges: { source: string; sourceHandle?: string | null; target: string }[]) => edges.map((e) => `${e.source}[${e.sourceHandle}] -> ${e.target}`).sort();

describe('flowToGraph', () => {
  it('draws methods by role, a handle per route, gates for and/or (nested), and listen edges', () => {
    const doc = reviewFlow();
    expect(parseFlowDocument(doc).ok).toBe(true);
    const graph = flowToGraph(doc);
    const methods = graph.nodes.filter((n): n is MethodNode => n.type === 'method');
    const gates = graph.nodes.filter((n): n is GateNode => n.type === 'gate');
    expect(methods.map((n) => [n.id, n.data.role])).toEqual([
      ['method:write', 'start'],
      ['method:check', 'router'],
      ['method:fix', 'listen'],
      ['method:notify', 'listen'],
      ['method:publish', 'listen'],
    ]);
    const check = methods.find((n) => n.id === 'method:check')!;
    expect(check.data.routes).toEqual(['good', 'bad']);
    expect(check.data.bodyKind).toBe('rules');
    expect(check.data.summary).toBe('1 rule, otherwise → bad');
    expect(methods.find((n) => n.id === 'method:fix')!.data.summary).toBe('return input + "!";');

    expect(gates.map((g) => [g.id, g.data.op, g.data.members])).toEqual([
      ['gate:notify', 'or', 2],
      ['gate:publish', 'and', 2],
      ['gate:publish.1', 'or', 2],
    ]);
    expect(edgeSet(graph.edges)).toEqual(
      [
        'method:write[out] -> method:check',
        'method:check[route:bad] -> method:fix',
        'gate:notify[out] -> method:notify',
        'method:fix[out] -> gate:notify',
        'method:check[route:good] -> gate:notify',
        'gate:publish[out] -> method:publish',
        'method:notify[out] -> gate:publish',
        'gate:publish.1[out] -> gate:publish',
        'method:write[out] -> gate:publish.1',
        'method:fix[out] -> gate:publish.1',
      ].sort(),
    );
    // Every edge knows which reference it stands for; gate links are removed with their gate.
    const routeEdge = graph.edges.find((e) => e.sourceHandle === 'route:good')!;
    expect(routeEdge.data).toMatchObject({ listener: 'notify', path: [1], kind: 'route', route: 'good' });
    expect(graph.edges.find((e) => e.source === 'gate:publish.1')!.deletable).toBe(false);
    // Every node has a position (auto-layout, left to right: the start method is leftmost).
    const x = Object.fromEntries(graph.nodes.map((n) => [n.id, n.position.x]));
    expect(x['method:write']).toBeLessThan(x['method:check']!);
    expect(x['method:check']).toBeLessThan(x['method:fix']!);
  });

  it('uses saved positions and puts problems on the method at fault', () => {
    const doc = { ...reviewFlow(), layout: { 'method:fix': { x: 900, y: 40 } } } as ReturnType<typeof reviewFlow>;
    const methods = asFlow(doc).methods!;
    (methods[1]!.body as Record<string, unknown>).rules = [{ when: { path: 'input', op: 'truthy' }, route: 'maybe' }];
    const parsed = parseFlowDocument(doc);
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? [] : parsed.problems;
    expect(problems.map((p) => p.path)).toEqual(['methods.1.body.rules.0.route']);
    const graph = flowToGraph(doc, [...problems, { path: 'name', message: 'must not be empty' }]);
    expect(graph.nodes.find((n) => n.id === 'method:fix')!.position).toEqual({ x: 900, y: 40 });
    const check = graph.nodes.find((n) => n.id === 'method:check') as MethodNode;
    expect(check.data.problems).toEqual(['body.rules.0.route: "maybe" is not one of this method\'s routes (good, bad)']);
    expect(graph.generalProblems.map((p) => p.path)).toEqual(['name']);
    expect(flowProblemsToNodes(asFlow(doc), [{ path: 'methods.4.trigger.listen', message: 'x' }]).byNode).toEqual({ 'method:publish': ['trigger.listen: x'] });
  });

  it('gives methods without a usable id a node of their own, and draws no edge for a reference to nothing', () => {
    const doc = reviewFlow();
    const methods = asFlow(doc).methods!;
    methods[2] = { ...methods[2], id: 'write', trigger: { listen: 'ghost' } };
    const graph = flowToGraph(doc);
    expect(graph.nodes.filter((n) => n.type === 'method').map((n) => n.id)).toContain('method:#2');
    expect(graph.edges.some((e) => e.target === 'method:#2')).toBe(false);
  });
});
