import { MANAGER_NODE_ID } from '../../model/nodeIds';
import { NODE_SIZE, type Size } from '../../model/nodeSizes';
import { agentsOf, entry, managerAgentId, stringField, tasksOf, type CrewDraft } from '../crewDraft';
import { agentNodeIds, managerNodeId, taskNodeIds } from '../nodeRefs';

export type LayoutNode = { id: string; width: number; height: number };

/**
 * What the auto-layout places, read from a crew: tasks in execution order, the worker agents in
 * declared order, the assignment edges between them, and the manager. Context edges are not here:
 * tasks stay in one column in order, so a context edge always runs down that column.
 */
export type CrewLayoutGraph = {
  tasks: LayoutNode[];
  agents: LayoutNode[];
  /** One per assigned task: task node id → agent node id. */
  assignments: { task: string; agent: string }[];
  manager?: LayoutNode;
  /** Agents that repeat an earlier agent's id (an invalid document): no task can point at them. */
  strays: LayoutNode[];
};

export function crewLayoutGraph(doc: CrewDraft, measured: Readonly<Record<string, Size>> = {}): CrewLayoutGraph {
  const agentIds = agentNodeIds(doc);
  const taskIds = taskNodeIds(doc);
  const managerId = managerNodeId(doc);
  const managerAgent = managerAgentId(doc);
  const node = (id: string, kind: keyof typeof NODE_SIZE): LayoutNode => ({ id, ...(measured[id] ?? NODE_SIZE[kind]) });

  const agents: LayoutNode[] = [];
  const strays: LayoutNode[] = [];
  const nodeByAgentId = new Map<string, string>();
  agentsOf(doc).forEach((agent, i) => {
    const id = agentIds[i];
    if (id === undefined || id === managerId) return;
    const agentId = stringField(entry(agent).id);
    if (agentId !== undefined && !nodeByAgentId.has(agentId)) {
      nodeByAgentId.set(agentId, id);
      agents.push(node(id, 'agent'));
    } else strays.push(node(id, 'agent'));
  });

  const assignments: CrewLayoutGraph['assignments'] = [];
  tasksOf(doc).forEach((task, i) => {
    const agentId = stringField(entry(task).agentId);
    const agent = agentId !== undefined && agentId !== managerAgent ? nodeByAgentId.get(agentId) : undefined;
    const taskNode = taskIds[i];
    if (agent && taskNode !== undefined) assignments.push({ task: taskNode, agent });
  });

  return {
    tasks: taskIds.map((id) => node(id, 'task')),
    agents,
    assignments,
    manager: managerId ? node(managerId, managerId === MANAGER_NODE_ID ? 'manager' : 'agent') : undefined,
    strays,
  };
}
