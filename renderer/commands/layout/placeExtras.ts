import type { Position } from '../crewDraft';
import type { CrewLayoutGraph } from './crewLayoutGraph';
import { LAYOUT_SPACING } from './layoutSpacing';

/**
 * Completes an engine's positions (tasks and agents) with what the engines do not place: the manager
 * centred above the agents column, and stray agents (duplicate ids) stacked below everything.
 */
export function placeExtras(graph: CrewLayoutGraph, placed: Record<string, Position>): Record<string, Position> {
  const out = { ...placed };
  const tasks = graph.tasks.map((t) => out[t.id]).filter(Boolean);
  const columnX = tasks.length > 0 ? Math.min(...tasks.map((p) => p.x)) : LAYOUT_SPACING.margin;
  const agentsX = columnX + (graph.tasks[0]?.width ?? 272) + LAYOUT_SPACING.rank;

  let spareY = Math.max(LAYOUT_SPACING.margin, ...[...graph.tasks, ...graph.agents].filter((n) => out[n.id]).map((n) => out[n.id].y + n.height + LAYOUT_SPACING.node));
  for (const stray of graph.strays) {
    out[stray.id] = { x: agentsX, y: spareY };
    spareY += stray.height + LAYOUT_SPACING.node;
  }

  if (graph.manager) {
    const agents = graph.agents.map((a) => ({ node: a, at: out[a.id] })).filter((a) => a.at);
    const x = agents.length > 0 ? Math.min(...agents.map((a) => a.at.x)) : agentsX;
    const width = agents[0]?.node.width ?? graph.manager.width;
    const top = agents.length > 0 ? Math.min(...agents.map((a) => a.at.y)) : LAYOUT_SPACING.margin;
    out[graph.manager.id] = { x: x + Math.round((width - graph.manager.width) / 2), y: top - graph.manager.height - LAYOUT_SPACING.manager };
  }
  return out;
}
