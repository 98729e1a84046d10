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
  const pickedAgents = [...agentIndexes].sort((a, b) => a - b);
  const pickedTasks = [...taskIndexes].sort((a, b) => a - b);
  return structuredClone({
    agents: pickedAgents.map((i) => agents[i]),
    tasks: pickedTasks.map((i) => tasks[i]),
    agentPositions: pickedAgents.map((i) => layout[agentNodes[i]]),
    taskPositions: pickedTasks.map((i) => layout[taskNodes[i]]),
  });
}
