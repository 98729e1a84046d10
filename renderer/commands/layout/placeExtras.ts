import type { Position } from '../crewDraft';
import type { CrewLayoutGraph } from './crewLayoutGraph';
import { LAYOUT_SPACING } from './layoutSpacing';

/**
 * Completes an engine's positions (tasks and agents) with what the engines do not place: the manager
 * centred above the agents column, and stray agents (duplicate ids) stacked below everything.
 */
export function placeExtras(graph: CrewLayoutGraph, placed: Record<string, Position>): Record<string, Position> {
  const out = { ...placed };
  const tasks = graph.tasks.map((t) => out[t.id]).filter((p): p is Position => p !== undefined);
  const columnX = tasks.length > 0 ? Math.min(...tasks.map((p) => p.x)) : LAYOUT_SPACING.margin;
  const agentsX = columnX + (graph.tasks[0]?.width ?? 272) + LAYOUT_SPACING.rank;

  const bottoms = [...graph.tasks, ...graph.agents].flatMap((n) => {
    const at = out[n.id];
    return at ? [at.y + n.height + LAYOUT_SPACING.node] : [];
  });
  let spareY = Math.max(LAYOUT_SPACING.margin, ...bottoms);
  for (const stray of graph.strays) {
    out[stray.id] = { x: agentsX, y: spareY };
    spareY += stray.height + LAYOUT_SPACING.node;
  }

  if (graph.manager) {
    const agents = graph.agents.flatMap((node) => {
      const at = out[node.id];
      return at ? [{ node, at }] : [];
    });
    const x = agents.length > 0 ? Math.min(...agents.map((a) => a.at.x)) : agentsX;
    const width = agents[0]?.node.width ?? graph.manager.width;
    const top = agents.length > 0 ? Math.min(...agents.map((a) => a.at.y)) : LAYOUT_SPACING.margin;
    out[graph.manager.id] = { x: x + Math.round((width - graph.manager.width) / 2), y: top - graph.manager.height - LAYOUT_SPACING.manager };
  }
  return out;
}
