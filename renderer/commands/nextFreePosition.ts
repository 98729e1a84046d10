import { NODE_SIZE } from '../model/nodeSizes';
import { agentNodeIds, taskNodeIds } from './nodeRefs';
import { layoutOf, type CrewDraft, type Position } from './crewDraft';

const GAP = 28;

/**
 * Where a node added without a drop point goes: under the lowest node of its column (tasks on the
 * left, agents on the right), so clicking "Add task" twice stacks two tasks.
 */
export function nextFreePosition(doc: CrewDraft, kind: 'agent' | 'task'): Position {
  const layout = layoutOf(doc);
  const column = (ids: string[]) => ids.map((id) => layout[id]).filter((p): p is Position => p !== undefined);
  const tasks = column(taskNodeIds(doc));
  const agents = column(agentNodeIds(doc));
  const own = kind === 'task' ? tasks : agents;
  if (own.length > 0) {
    const lowest = own.reduce((a, b) => (b.y > a.y ? b : a));
    return { x: lowest.x, y: lowest.y + NODE_SIZE[kind].height + GAP };
  }
  const taskX = tasks.length > 0 ? Math.min(...tasks.map((p) => p.x)) : 40;
  const top = [...tasks, ...agents].reduce((min, p) => Math.min(min, p.y), Infinity);
  const y = Number.isFinite(top) ? top : 40;
  if (kind === 'task') {
    const agentX = agents.length > 0 ? Math.min(...agents.map((p) => p.x)) : 40 + NODE_SIZE.task.width + 140;
    return { x: agentX - NODE_SIZE.task.width - 140, y };
  }
  return { x: taskX + NODE_SIZE.task.width + 140, y };
}
