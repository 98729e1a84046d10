import { describe, expect, it } from 'vitest';
import { collapseByAgent, edgesToDraw, LARGE_CREW_NODES } from '../../../renderer/canvas/collapseByAgent';
import { documentToGraph } from '../../../renderer/canvas/documentToGraph';
import type { CrewDraft } from '../../../renderer/commands/crewDraft';

function crew(agentCount: number, taskCount: number): CrewDraft {
  const agents = Array.from({ length: agentCount }, (_, i) => ({ id: `a${i + 1}`, role: `A${i + 1}`, goal: 'g' }));
  const tasks = Array.from({ length: taskCount }, (_, i) => ({
    id: `t${i + 1}`,
    description: 'd',
    expectedOutput: 'o',
    agentId: `a${(i % agentCount) + 1}`,
    ...(i > 0 ? { context: [`t${i}`] } : {}),
  }));
  return { kind: 'crew', version: 1, id: 'c', name: 'C', process: 'sequential', agents, tasks };
}

describe('collapse-by-agent', () => {
  it('leaves a small crew with nothing folded as it is', () => {
    const graph = documentToGraph(crew(2, 3));
    expect(collapseByAgent(graph, [])).toBe(graph);
  });

  it('folds an agent’s tasks into it: its task nodes and their edges go, the agent counts them', () => {
    const graph = documentToGraph(crew(10, 40));
    expect(graph.nodes.length).toBeGreaterThanOrEqual(LARGE_CREW_NODES);
    const folded = collapseByAgent(graph, ['agent:a1']);
    // a1 has t1, t11, t21, t31.
    expect(folded.nodes.length).toBe(graph.nodes.length - 4);
    expect(folded.nodes.some((n) => n.id === 'task:t11')).toBe(false);
    expect(folded.edges.some((e) => e.source === 'task:t11' || e.target === 'task:t11')).toBe(false);
    const a1 = folded.nodes.find((n) => n.id === 'agent:a1')!;
    const a2 = folded.nodes.find((n) => n.id === 'agent:a2')!;
    expect(a1.type === 'agent' && a1.data.fold).toEqual({ tasks: 4, collapsed: true });
    // On a large crew every agent with tasks offers the toggle.
    expect(a2.type === 'agent' && a2.data.fold).toEqual({ tasks: 4, collapsed: false });

    const all = collapseByAgent(graph, Array.from({ length: 10 }, (_, i) => `agent:a${i + 1}`));
    expect(all.nodes.map((n) => n.type)).toEqual(Array(10).fill('agent'));
    expect(all.edges).toEqual([]);
  });

  it('with every agent of a large crew folded, packs the blocks in a grid of the view’s own; one unfolded agent puts the document’s positions back', () => {
    const graph = documentToGraph(crew(100, 200));
    const all = Array.from({ length: 100 }, (_, i) => `agent:a${i + 1}`);
    const overview = collapseByAgent(graph, all);
    const xs = new Set(overview.nodes.map((n) => n.position.x));
    const ys = new Set(overview.nodes.map((n) => n.position.y));
    // About as wide as tall on screen: 7 columns of 15 rows for 100 blocks, none on another.
    expect(xs.size).toBe(7);
    expect(ys.size).toBe(15);
    expect(new Set(overview.nodes.map((n) => `${n.position.x},${n.position.y}`)).size).toBe(100);
    expect(overview.nodes.map((n) => n.id)).toEqual(all);
    expect(overview.nodes.every((n) => n.draggable === false)).toBe(true);

    const oneOpen = collapseByAgent(graph, all.slice(1));
    const byId = new Map(graph.nodes.map((n) => [n.id, n.position]));
    expect(oneOpen.nodes.every((n) => n.position === byId.get(n.id) && n.draggable === undefined)).toBe(true);
  });

  it('draws a large crew’s edges for the selection only, unless all are asked for', () => {
    const graph = documentToGraph(crew(10, 40));
    const selection = edgesToDraw(graph.edges, graph.nodes.length, ['agent:a2'], 'selection');
    expect(selection.map((e) => e.source).sort()).toEqual(['task:t12', 'task:t2', 'task:t22', 'task:t32']);
    expect(edgesToDraw(graph.edges, graph.nodes.length, ['agent:a2'], 'all')).toBe(graph.edges);
    const small = documentToGraph(crew(2, 3));
    expect(edgesToDraw(small.edges, small.nodes.length, [], 'selection')).toBe(small.edges);
  });
});
