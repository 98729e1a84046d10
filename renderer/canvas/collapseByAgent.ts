import { NODE_SIZE } from '../model/nodeSizes';
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
  const everyAgentFolded = large && tasksOf.size > 0 && [...tasksOf.keys()].every((agent) => folded.has(agent));
  return { ...graph, nodes: everyAgentFolded ? overviewGrid(nodes) : nodes, edges };
}

/** One cell of the overview grid: the widest node (a task) and a gap. */
const CELL = { width: NODE_SIZE.task.width + 28, height: NODE_SIZE.task.height + 16 };
/** The shape the grid aims at: about that of the canvas, so Fit fills it. */
const OVERVIEW_ASPECT = 1.15;

/**
 * The overview of a large crew with every agent folded: the blocks packed in a grid in declared
 * order, so Fit shows all of them with readable labels (a 100-agent crew in about 7 × 15). The
 * positions are the view's, never the document's: the blocks are not draggable, and unfolding any
 * agent puts every node back where the document has it.
 */
function overviewGrid(nodes: CrewNode[]): CrewNode[] {
  const columns = Math.max(1, Math.round(Math.sqrt((nodes.length * OVERVIEW_ASPECT * CELL.height) / CELL.width)));
  return nodes.map((node, i) => ({ ...node, position: { x: (i % columns) * CELL.width, y: Math.floor(i / columns) * CELL.height }, draggable: false }));
}

/** The edges a crew draws: all on a small crew; on a large one only the selected nodes' unless the person asked for all. */
export function edgesToDraw(edges: CrewEdge[], nodeCount: number, selected: readonly string[], mode: 'selection' | 'all'): CrewEdge[] {
  if (nodeCount < LARGE_CREW_NODES || mode === 'all') return edges;
  const ids = new Set(selected);
  return edges.filter((e) => ids.has(e.source) || ids.has(e.target));
}
