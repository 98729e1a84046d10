import dagre from '@dagrejs/dagre';
import { MANAGER_NODE_ID } from '../model/nodeIds';
import { NODE_SIZE, type Size } from '../model/nodeSizes';
import { agentsOf, entry, managerAgentId, stringField, tasksOf, type CrewDraft, type Position } from './crewDraft';
import { agentNodeIds, managerNodeId, taskNodeIds } from './nodeRefs';

const RANK_GAP = 140;
const NODE_GAP = 28;
const MANAGER_GAP = 56;

/**
 * Positions (top-left) for every node of the crew: tasks in one column in execution order, the agents
 * in a column beside them near the tasks they are assigned, the manager above the agents. Dagre orders
 * the agents to keep assignment edges from crossing; an order constraint keeps the tasks in sequence.
 */
export function computeAutoLayout(doc: CrewDraft, measured: Readonly<Record<string, Size>> = {}): Record<string, Position> {
  const agents = agentsOf(doc);
  const tasks = tasksOf(doc);
  const agentIds = agentNodeIds(doc);
  const taskIds = taskNodeIds(doc);
  const managerId = managerNodeId(doc);
  const managerAgent = managerAgentId(doc);
  const sizeOf = (nodeId: string, kind: keyof typeof NODE_SIZE): Size => measured[nodeId] ?? NODE_SIZE[kind];

  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: NODE_GAP, ranksep: RANK_GAP, marginx: 40, marginy: 40 });
  g.setDefaultEdgeLabel(() => ({}));

  taskIds.forEach((id) => g.setNode(id, { ...sizeOf(id, 'task') }));
  const workerIndex = new Map<string, string>();
  agents.forEach((agent, i) => {
    const id = agentIds[i];
    if (id === managerId) return;
    g.setNode(id, { ...sizeOf(id, 'agent') });
    const agentId = stringField(entry(agent).id);
    if (agentId !== undefined && !workerIndex.has(agentId)) workerIndex.set(agentId, id);
  });

  const assigned = new Set<string>();
  tasks.forEach((task, i) => {
    const agentId = stringField(entry(task).agentId);
    const target = agentId !== undefined && agentId !== managerAgent ? workerIndex.get(agentId) : undefined;
    if (target) {
      g.setEdge(taskIds[i], target, { weight: 2 });
      assigned.add(target);
    }
  });
  // An agent with no task still belongs in the agents column: tie it lightly to the first task.
  if (taskIds.length > 0) {
    for (const id of workerIndex.values()) if (!assigned.has(id)) g.setEdge(taskIds[0], id, { weight: 0 });
  }

  const constraints = taskIds.slice(1).map((id, i) => ({ left: taskIds[i], right: id }));
  dagre.layout(g, { constraints });

  const out: Record<string, Position> = {};
  const topLeft = (id: string): Position => {
    const n = g.node(id) as { x: number; y: number; width: number; height: number };
    return { x: Math.round(n.x - n.width / 2), y: Math.round(n.y - n.height / 2) };
  };

  // Tasks: one column, stacked in array order from where dagre started them.
  const taskPositions = taskIds.map(topLeft);
  const columnX = taskPositions.length > 0 ? Math.min(...taskPositions.map((p) => p.x)) : 40;
  let y = taskPositions.length > 0 ? Math.min(...taskPositions.map((p) => p.y)) : 40;
  taskIds.forEach((id) => {
    out[id] = { x: columnX, y };
    y += sizeOf(id, 'task').height + NODE_GAP;
  });

  for (const id of workerIndex.values()) out[id] = topLeft(id);
  // Agents that share an id with an earlier one (invalid documents) are not in the graph: stack them below.
  let spareY = Math.max(40, ...Object.values(out).map((p) => p.y + 140));
  agents.forEach((_, i) => {
    const id = agentIds[i];
    if (id === managerId || out[id]) return;
    out[id] = { x: columnX + NODE_SIZE.task.width + RANK_GAP, y: spareY };
    spareY += NODE_SIZE.agent.height + NODE_GAP;
  });

  if (managerId) {
    const agentPositions = agentIds.filter((id) => id !== managerId).map((id) => out[id]);
    const managerSize = sizeOf(managerId, managerId === MANAGER_NODE_ID ? 'manager' : 'agent');
    const agentColumnX = agentPositions.length > 0 ? Math.min(...agentPositions.map((p) => p.x)) : columnX + NODE_SIZE.task.width + RANK_GAP;
    const agentsTop = agentPositions.length > 0 ? Math.min(...agentPositions.map((p) => p.y)) : 40;
    out[managerId] = {
      x: agentColumnX + Math.round((NODE_SIZE.agent.width - managerSize.width) / 2),
      y: agentsTop - managerSize.height - MANAGER_GAP,
    };
  }
  return out;
}
