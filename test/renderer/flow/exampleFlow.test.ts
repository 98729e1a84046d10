import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFlowDocument } from '../../../shared/model/parse';
import { flowToGraph } from '../../../renderer/canvas/flow/flowToGraph';

describe('examples/feedback-loop.flow.json', () => {
  it('validates and draws a router with its route handles and the or/and gates', () => {
    const doc = JSON.parse(readFileSync(new URL('../../../examples/feedback-loop.flow.json', import.meta.url), 'utf8'));
    const parsed = parseFlowDocument(doc);
    expect(parsed.ok ? [] : parsed.problems).toEqual([]);
    const graph = flowToGraph(doc);
    expect(graph.nodes.filter((n) => n.type === 'gate').map((n) => n.id)).toEqual(['gate:review', 'gate:publish']);
    expect(graph.edges.filter((e) => e.sourceHandle?.startsWith('route:')).map((e) => `${e.sourceHandle}->${e.target}`).sort()).toEqual(
      ['route:approved->gate:publish', 'route:long_enough->gate:review', 'route:revise->method:revise', 'route:too_short->method:expand'].sort(),
    );
  });
});
