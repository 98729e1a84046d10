import { MANAGER_NODE_ID } from '../model/nodeIds';
import { NODE_SIZE, type Size } from '../model/nodeSizes';
import type { CrewCommand } from './command';
import { agentsOf, entry, layoutOf, managerAgentId, stringField, tasksOf, type CrewDraft, type Position } from './crewDraft';
import { agentNodeIds, managerNodeId, taskNodeIds } from './nodeRefs';
import { sameValue } from './sameValue';

const GAP = 28;
const LANE_GAP = 24;
const MARGIN = 40;

/**
 * Swimlanes for large crews: one lane (row) per agent in declared order, the agent at its start and
 * its tasks after it in execution order; tasks without an agent (or the manager's) share a last lane;
 * the manager sits above. Every lane is short, so the crew reads lane by lane instead of as one
 * column 200 tasks tall, and no assignment edge crosses another.
 */
export function computeSwimlanes(doc: CrewDraft, measured: Readonly<Record<string, Size>> = {}): Record<string, Position> {
  const agents = agentsOf(doc);
  const tasks = tasksOf(doc);
  const agentIds = agentNodeIds(doc);
  const taskIds = taskNodeIds(doc);
  const managerId = managerNodeId(doc);
  const managerAgent = managerAgentId(doc);
  const sizeOf = (nodeId: string, kind: keyof typeof NODE_SIZE): Size => measured[nodeId] ?? NODE_SIZE[kind];

  const laneOf = new Map<string, number>();
  const lanes: { agentNode?: string; tasks: string[] }[] = [];
  agents.forEach((agent, i) => {
    const nodeId = agentIds[i];
    if (nodeId === managerId) return;
    const id = stringField(entry(agent).id);
    if (id !== undefined && !laneOf.has(id)) laneOf.set(id, lanes.length);
    lanes.push({ agentNode: nodeId, tasks: [] });
  });
  const spare: string[] = [];
  tasks.forEach((task, i) => {
    const agentId = stringField(entry(task).agentId);
    const laneIndex = agentId !== undefined && agentId !== managerAgent ? laneOf.get(agentId) : undefined;
    const lane = laneIndex === undefined ? undefined : lanes[laneIndex];
    const taskId = taskIds[i];
    if (taskId === undefined) return;
    if (lane === undefined) spare.push(taskId);
    else lane.tasks.push(taskId);
  });
  if (spare.length > 0) lanes.push({ tasks: spare });

  const out: Record<string, Position> = {};
  let y = MARGIN;
  if (managerId) {
    out[managerId] = { x: MARGIN, y };
    y += sizeOf(managerId, managerId === MANAGER_NODE_ID ? 'manager' : 'agent').height + LANE_GAP * 2;
  }
  const agentWidth = Math.max(NODE_SIZE.agent.width, ...lanes.map((l) => (l.agentNode ? sizeOf(l.agentNode, 'agent').width : 0)));
  for (const lane of lanes) {
    let height = 0;
    if (lane.agentNode) {
      out[lane.agentNode] = { x: MARGIN, y };
      height = sizeOf(lane.agentNode, 'agent').height;
    }
    let x = MARGIN + agentWidth + GAP * 3;
    for (const task of lane.tasks) {
      out[task] = { x, y };
      const size = sizeOf(task, 'task');
      x += size.width + GAP;
      height = Math.max(height, size.height);
    }
    y += height + LANE_GAP;
  }
  return out;
}

export function swimlaneLayout(sizes: Readonly<Record<string, Size>> = {}): CrewCommand {
  return {
    kind: 'crew',
    label: 'Swimlanes',
    perform(doc: CrewDraft) {
      const layout = { ...layoutOf(doc), ...computeSwimlanes(doc, sizes) };
      return sameValue(doc.layout, layout) ? doc : { ...doc, layout };
    },
  };
}
