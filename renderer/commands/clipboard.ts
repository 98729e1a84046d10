import { agentsOf, layoutOf, tasksOf, type AgentDraft, type CrewDraft, type Position, type TaskDraft } from './crewDraft';
import { agentNodeIds, selectedIndexes, taskNodeIds } from './nodeRefs';

/** Copied agents and tasks (deep copies, in document order) with their canvas positions. */
export type Clipboard = {
  agents: AgentDraft[];
  tasks: TaskDraft[];
  /** Positions by index: agents[i] ↔ agentPositions[i]. */
  agentPositions: (Position | undefined)[];
  taskPositions: (Position | undefined)[];
};

/** What Ctrl/Cmd+C takes from the selection; undefined when it holds no agent or task. */
export function copyNodes(doc: CrewDraft, nodeIds: readonly string[]): Clipboard | undefined {
  const { agents: agentIndexes, tasks: taskIndexes } = selectedIndexes(doc, nodeIds);
  if (agentIndexes.size === 0 && taskIndexes.size === 0) return undefined;
  const layout = layoutOf(doc);
  const agentNodes = agentNodeIds(doc);
  const taskNodes = taskNodeIds(doc);
  const agents = agentsOf(doc);
  const tasks = tasksOf(doc);
  const pickedAgents = picked(agents, agentNodes, agentIndexes, layout);
  const pickedTasks = picked(tasks, taskNodes, taskIndexes, layout);
  return structuredClone({
    agents: pickedAgents.items,
    tasks: pickedTasks.items,
    agentPositions: pickedAgents.positions,
    taskPositions: pickedTasks.positions,
  });
}

/** The entries at `indexes` (in document order) and the saved positions of their nodes. */
function picked<T>(list: readonly T[], nodeIds: readonly string[], indexes: ReadonlySet<number>, layout: Readonly<Record<string, Position>>) {
  const items: T[] = [];
  const positions: (Position | undefined)[] = [];
  list.forEach((item, i) => {
    if (!indexes.has(i)) return;
    const nodeId = nodeIds[i];
    items.push(item);
    positions.push(nodeId === undefined ? undefined : layout[nodeId]);
  });
  return { items, positions };
}
