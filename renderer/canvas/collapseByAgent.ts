import type { CrewGraph } from './documentToGraph';
import type { CrewEdge, CrewNode } from './graphTypes';

/** From this many nodes on, a crew is large: agents offer to fold their tasks, and edges follow the selection. */
export const LARGE_CREW_NODES = 40;

/**
 * The crew graph with the tasks of `collapsed` agents folded into them: those task nodes and every
 * edge touching them are left out, and the agent shows how many tasks it holds. On a large crew every
 * agent with tasks gets the fold toggle (`foldable`). A small crew with nothing folded is returned as is.
 */
export function collapseByAgent(graph: CrewGraph, collapsed: readonly string[]): CrewGraph {
  const large = graph.nodes.length >= LARGE_CREW_NODES;
  if (!large && collapsed.length === 0) return graph;
  const folded = new Set(collapsed);
  const tasksOf = new Map<string, string[]>();
  for (const e of graph.edges) if (e.type === 'assignment') tasksOf.set(e.target, [...(tasksOf.get(e.target) ?? []), e.source]);
  const hidden = new Set<string>();
  for (const agent of folded) for (const task of tasksOf.get(agent) ?? []) hidden.add(task);

  const nodes: CrewNode[] = [];
  for (const node of graph.nodes) {
    if (hidden.has(node.id)) continue;
    const tasks = node.type === 'agent' ? (tasksOf.get(node.id)?.length ?? 0) : 0;
    if (node.type === 'agent' && tasks > 0 && (large || folded.has(node.id))) {
      nodes.push({ ...node, data: { ...node.data, fold: { tasks, collapsed: folded.has(node.id) } } });
    } else nodes.push(node);
  }
  const edges: CrewEdge[] = hidden.size === 0 ? graph.edges : graph.edges.filter((e) => !hidden.has(e.source) && !hidden.has(e.target));
  return { ...graph, nodes, edges };
}

/** The edges a crew draws: all on a small crew; on a large one only the selected nodes' unless the person asked for all. */
export function edgesToDraw(edges: CrewEdge[], nodeCount: number, selected: readonly string[], mode: 'selection' | 'all'): CrewEdge[] {
  if (nodeCount < LARGE_CREW_NODES || mode === 'all') return edges;
  const ids = new Set(selected);
  return edges.filter((e) => ids.has(e.source) || ids.has(e.target));
}
