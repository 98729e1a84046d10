import dagre from '@dagrejs/dagre';
import type { Position } from '../crewDraft';
import { orderAgents } from './agentOrder';
import type { CrewLayoutGraph } from './crewLayoutGraph';
import { LAYOUT_SPACING } from './layoutSpacing';
import { placeExtras } from './placeExtras';

/**
 * Dagre's layered layout (left to right: tasks, then agents) with ordering constraints: tasks in
 * execution order, agents in the order `orderAgents` chose. Synchronous: ~tens of ms at 300 nodes
 * (bench:layout).
 */
export function dagreLayout(graph: CrewLayoutGraph): Record<string, Position> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: LAYOUT_SPACING.node, ranksep: LAYOUT_SPACING.rank, marginx: LAYOUT_SPACING.margin, marginy: LAYOUT_SPACING.margin });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of [...graph.tasks, ...graph.agents]) g.setNode(n.id, { width: n.width, height: n.height });
  const assigned = new Set<string>();
  for (const { task, agent } of graph.assignments) {
    g.setEdge(task, agent, { weight: 2 });
    assigned.add(agent);
  }
  // An agent with no task still belongs in the agents column: tie it lightly to the first task.
  const firstTask = graph.tasks[0];
  if (firstTask) for (const a of graph.agents) if (!assigned.has(a.id)) g.setEdge(firstTask.id, a.id, { weight: 0 });

  // Dagre's own `constraints` option bends under 200 tasks (bench:layout saw tasks out of order), so
  // the order is set outright: customOrder replaces dagre's crossing minimisation with ours.
  const orderOf = new Map<string, number>();
  graph.tasks.forEach((t, i) => orderOf.set(t.id, i));
  orderAgents(graph).forEach((id, i) => orderOf.set(id, i));
  dagre.layout(g, { customOrder: (layered) => setOrder(layered, orderOf) });

  const out: Record<string, Position> = {};
  for (const n of [...graph.tasks, ...graph.agents]) {
    const at = g.node(n.id) as { x: number; y: number } | undefined;
    if (at) out[n.id] = { x: Math.round(at.x - n.width / 2), y: Math.round(at.y - n.height / 2) };
  }
  return placeExtras(graph, out);
}

type LayeredNode = { order?: number; rank?: number; dummy?: string; edgeObj?: { v: string; w: string } };

/**
 * Dagre's layered graph holds our nodes and one dummy per edge in the rank between them (room for
 * edge labels): a dummy takes its place from its edge's ends, so dummies cross only where the edges do.
 */
function setOrder(layered: InstanceType<typeof dagre.graphlib.Graph>, orderOf: ReadonlyMap<string, number>): void {
  const dummies = new Map<number, { id: string; key: [number, number] }[]>();
  for (const id of layered.nodes()) {
    const n = layered.node(id) as LayeredNode;
    const own = orderOf.get(id);
    if (own !== undefined) n.order = own;
    else if (n.edgeObj) {
      const rank = n.rank ?? 0;
      dummies.set(rank, [...(dummies.get(rank) ?? []), { id, key: [orderOf.get(n.edgeObj.v) ?? 0, orderOf.get(n.edgeObj.w) ?? 0] }]);
    }
  }
  for (const list of dummies.values()) {
    list.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1]);
    list.forEach((d, i) => ((layered.node(d.id) as LayeredNode).order = i));
  }
}
