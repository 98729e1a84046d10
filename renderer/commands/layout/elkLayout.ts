import type { ElkNode } from 'elkjs/lib/elk-api';
import type { Position } from '../crewDraft';
import { orderAgents } from './agentOrder';
import type { CrewLayoutGraph } from './crewLayoutGraph';
import { LAYOUT_SPACING } from './layoutSpacing';
import { placeExtras } from './placeExtras';

/** What the layout needs of an ELK instance: the web-worker one in the app, the bundled one in Node. */
export interface ElkEngine {
  layout(graph: ElkNode): Promise<ElkNode>;
}

/**
 * ELK's layered layout with ordering constraints. Tasks are the first layer and agents the last
 * (layer constraints), both in model order, which ELK keeps (`considerModelOrder` with
 * `forceNodeModelOrder`, and no crossing sweeps): the order is `orderAgents`'s, the same dagre gets.
 */
export function elkGraph(graph: CrewLayoutGraph): ElkNode {
  const agentOrder = orderAgents(graph);
  const agentById = new Map(graph.agents.map((a) => [a.id, a]));
  const layer = (value: 'FIRST' | 'LAST') => ({ 'elk.layered.layering.layerConstraint': value });
  return {
    id: 'crew',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.padding': `[top=${LAYOUT_SPACING.margin},left=${LAYOUT_SPACING.margin},bottom=${LAYOUT_SPACING.margin},right=${LAYOUT_SPACING.margin}]`,
      'elk.spacing.nodeNode': String(LAYOUT_SPACING.node),
      'elk.layered.spacing.nodeNodeBetweenLayers': String(LAYOUT_SPACING.rank),
      'elk.separateConnectedComponents': 'false',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.layered.crossingMinimization.forceNodeModelOrder': 'true',
      // The order is given, so ELK's own crossing sweeps have nothing to do (they took half its time).
      'elk.layered.crossingMinimization.strategy': 'NONE',
      'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
      // The canvas draws its own edges: polyline routing reserves less room between the columns than
      // orthogonal routing (852 px wide instead of 1,522 on the 300-node crew).
      'elk.edgeRouting': 'POLYLINE',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
    },
    children: [
      ...graph.tasks.map((t) => ({ id: t.id, width: t.width, height: t.height, layoutOptions: layer('FIRST') })),
      ...agentOrder.map((id) => {
        const a = agentById.get(id)!;
        return { id, width: a.width, height: a.height, layoutOptions: layer('LAST') };
      }),
    ],
    edges: graph.assignments.map(({ task, agent }, i) => ({ id: `e${i}`, sources: [task], targets: [agent] })),
  };
}

export async function elkLayout(graph: CrewLayoutGraph, elk: ElkEngine): Promise<Record<string, Position>> {
  const result = await elk.layout(elkGraph(graph));
  const out: Record<string, Position> = {};
  for (const child of result.children ?? []) {
    if (child.x !== undefined && child.y !== undefined) out[child.id] = { x: Math.round(child.x), y: Math.round(child.y) };
  }
  return placeExtras(graph, out);
}
