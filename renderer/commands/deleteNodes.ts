import type { CrewCommand } from './command';
import { agentsOf, entry, idOf, isRecord, managerOf, stringField, tasksOf, withPatch, type CrewDraft, type TaskDraft } from './crewDraft';
import { agentNodeIds, selectedIndexes, taskNodeIds } from './nodeRefs';
import { withLayout } from './withLayout';

/**
 * Deletes agents and tasks (the built-in manager node is not deletable: switch the process instead).
 * Deleting an agent also clears the assignments of its tasks and makes a crew it managed use the
 * built-in manager; deleting a task removes it from other tasks' context (a list left empty becomes
 * "none", which is what the empty list meant).
 */
export function deleteNodes(nodeIds: readonly string[]): CrewCommand {
  return {
    kind: 'crew',
    label: nodeIds.length === 1 ? 'Delete node' : `Delete ${nodeIds.length} nodes`,
    perform(doc: CrewDraft) {
      const { agents: agentIndexes, tasks: taskIndexes } = selectedIndexes(doc, nodeIds);
      if (agentIndexes.size === 0 && taskIndexes.size === 0) return doc;

      const agents = agentsOf(doc);
      const tasks = tasksOf(doc);
      const agentNodes = agentNodeIds(doc);
      const taskNodes = taskNodeIds(doc);
      const keptAgents = agents.filter((_, i) => !agentIndexes.has(i));
      const keptTasks = tasks.filter((_, i) => !taskIndexes.has(i));
      const ids = (list: unknown[]) => new Set(list.map(idOf).filter((x): x is string => x !== undefined));
      const remainingAgentIds = ids(keptAgents);
      const remainingTaskIds = ids(keptTasks);
      const goneAgentIds = new Set([...agentIndexes].map((i) => stringField(entry(agents[i]).id)).filter((id): id is string => id !== undefined && !remainingAgentIds.has(id)));
      const goneTaskIds = new Set([...taskIndexes].map((i) => stringField(entry(tasks[i]).id)).filter((id): id is string => id !== undefined && !remainingTaskIds.has(id)));

      const nextTasks = keptTasks.map((task): TaskDraft => {
        if (!isRecord(task)) return task;
        let next = task;
        const agentId = stringField(task.agentId);
        if (agentId !== undefined && goneAgentIds.has(agentId)) next = withPatch(next, { agentId: undefined });
        if (Array.isArray(task.context) && task.context.some((ref) => goneTaskIds.has(ref))) {
          const context = task.context.filter((ref) => !goneTaskIds.has(ref));
          next = withPatch(next, { context: context.length > 0 ? context : 'none' });
        }
        return next;
      });

      let next: CrewDraft = { ...doc, agents: keptAgents, tasks: nextTasks };
      const manager = managerOf(doc);
      const managerAgent = stringField(manager?.agentId);
      if (manager && managerAgent !== undefined && goneAgentIds.has(managerAgent)) {
        next = { ...next, manager: manager.delegateTo === 'all' ? { delegateTo: 'all' } : {} };
      }
      // A kept conversation is with one agent: it goes with it (undo brings both back).
      if (doc.conversations?.some((c) => goneAgentIds.has(c.agentId))) {
        const kept = doc.conversations.filter((c) => !goneAgentIds.has(c.agentId));
        next = withPatch(next, { conversations: kept.length > 0 ? kept : undefined });
      }
      const layoutChanges: Record<string, undefined> = {};
      for (const nodeId of [...agentNodes.filter((_, i) => agentIndexes.has(i)), ...taskNodes.filter((_, i) => taskIndexes.has(i))]) layoutChanges[nodeId] = undefined;
      return withLayout(next, layoutChanges);
    },
  };
}
