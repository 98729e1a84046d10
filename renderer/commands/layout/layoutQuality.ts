import type { Position } from '../crewDraft';
import type { CrewLayoutGraph, LayoutNode } from './crewLayoutGraph';

/** How readable a layout of a crew is: what bench:layout reports and the layout tests assert. */
export type LayoutQuality = {
  /** Pairs of assignment edges that cross, drawn straight from a task's right side to its agent's left side. */
  crossings: number;
  /** Tasks read top to bottom in execution order. */
  tasksInOrder: boolean;
  /** Pairs of agents drawn in the reverse of their declared order (top to bottom, then left to right). */
  agentInversions: number;
  /** Size of the box around every node. */
  width: number;
  height: number;
};

type Segment = { x1: number; y1: number; x2: number; y2: number; from: string; to: string };

export function layoutQuality(graph: CrewLayoutGraph, positions: Readonly<Record<string, Position>>): LayoutQuality {
  const nodes = new Map<string, LayoutNode>([...graph.tasks, ...graph.agents].map((n) => [n.id, n]));
  const segments: Segment[] = [];
  for (const { task, agent } of graph.assignments) {
    const t = positions[task];
    const a = positions[agent];
    if (!t || !a) continue;
    const tn = nodes.get(task)!;
    const an = nodes.get(agent)!;
    segments.push({ x1: t.x + tn.width, y1: t.y + tn.height / 2, x2: a.x, y2: a.y + an.height / 2, from: task, to: agent });
  }
  let crossings = 0;
  segments.forEach((s, i) => {
    for (const u of segments.slice(i + 1)) if (s.from !== u.from && s.to !== u.to && intersects(s, u)) crossings++;
  });

  const taskYs = graph.tasks.map((t) => positions[t.id]?.y ?? NaN);
  const tasksInOrder = taskYs.every((y, i) => i === 0 || y > (taskYs[i - 1] ?? NaN));

  const agents = graph.agents.map((a) => positions[a.id]).filter((p): p is Position => p !== undefined);
  let agentInversions = 0;
  const before = (p: Position, q: Position) => p.y < q.y || (p.y === q.y && p.x < q.x);
  agents.forEach((p, i) => agents.forEach((q, j) => (agentInversions += j > i && before(q, p) ? 1 : 0)));

  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const all = [...graph.tasks, ...graph.agents, ...graph.strays, ...(graph.manager ? [graph.manager] : [])];
  for (const n of all) {
    const p = positions[n.id];
    if (!p) continue;
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x + n.width);
    maxY = Math.max(maxY, p.y + n.height);
  }
  return { crossings, tasksInOrder, agentInversions, width: Math.round(maxX - minX), height: Math.round(maxY - minY) };
}

function orientation(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
}

/** Proper crossing of two segments (touching or collinear overlap does not count). */
function intersects(s: Segment, u: Segment): boolean {
  const d1 = orientation(s.x1, s.y1, s.x2, s.y2, u.x1, u.y1);
  const d2 = orientation(s.x1, s.y1, s.x2, s.y2, u.x2, u.y2);
  const d3 = orientation(u.x1, u.y1, u.x2, u.y2, s.x1, s.y1);
  const d4 = orientation(u.x1, u.y1, u.x2, u.y2, s.x2, s.y2);
  return d1 * d2 < 0 && d3 * d4 < 0;
}
