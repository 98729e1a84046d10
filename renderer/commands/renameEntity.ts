import { agentNodeId, taskNodeId } from '../model/nodeIds';
import { CommandRejected, type CrewCommand } from './command';
import { agentsOf, entry, idOf, isRecord, layoutOf, managerOf, replaceAt, tasksOf, withPatch, type CrewDraft, type TaskDraft } from './crewDraft';
import { ID_PATTERN } from './freshId';
import { agentNodeIds, resolveNode, taskNodeIds } from './nodeRefs';
import { withLayout } from './withLayout';

/**
 * Changes an agent's or task's id and every reference to it: tasks' `agentId`, `manager.agentId`,
 * tasks' `context` lists, and the node's saved position. Refuses invalid or taken ids.
 */
export function renameEntity(nodeId: string, newId: string): CrewCommand {
  return {
    kind: 'crew',
    label: 'Rename id',
    perform(doc: CrewDraft) {
      const ref = resolveNode(doc, nodeId);
      if (!ref) return doc;
      if (!ID_PATTERN.test(newId)) throw new CommandRejected('Ids may only contain letters, digits, _ and -.');
      const list = ref.kind === 'agent' ? agentsOf(doc) : tasksOf(doc);
      const oldId = idOf(list[ref.index]);
      if (oldId === newId) return doc;
      if (list.some((item, i) => i !== ref.index && idOf(item) === newId)) {
        throw new CommandRejected(`Another ${ref.kind} already has the id "${newId}".`);
      }
      // References follow only when this entry owned the id (not a later duplicate of it).
      const owned = oldId !== undefined && list.findIndex((item) => idOf(item) === oldId) === ref.index;
      const oldNodeId = (ref.kind === 'agent' ? agentNodeIds(doc) : taskNodeIds(doc))[ref.index];
      if (oldNodeId === undefined) return doc;
      const newNodeId = ref.kind === 'agent' ? agentNodeId(newId) : taskNodeId(newId);
      const renamed = replaceAt(list as object[], ref.index, withPatch(entry(list[ref.index] as object), { id: newId }));

      let next: CrewDraft;
      if (ref.kind === 'agent') {
        const tasks = tasksOf(doc).map((task) => (owned && isRecord(task) && task.agentId === oldId ? withPatch(task, { agentId: newId }) : task));
        next = { ...doc, agents: renamed, tasks };
        const manager = managerOf(doc);
        if (owned && manager && manager.agentId === oldId) next = { ...next, manager: { ...manager, agentId: newId } };
        // Kept conversations (the chat pane's test cases) follow their agent.
        if (owned && next.conversations?.some((c) => c.agentId === oldId)) {
          next = { ...next, conversations: next.conversations.map((c) => (c.agentId === oldId ? { ...c, agentId: newId } : c)) };
        }
      } else {
        const tasks = (renamed as TaskDraft[]).map((task) =>
          owned && isRecord(task) && Array.isArray(task.context) && task.context.includes(oldId!)
            ? withPatch(task, { context: task.context.map((id) => (id === oldId ? newId : id)) })
            : task,
        );
        next = { ...doc, tasks };
      }
      const position = layoutOf(doc)[oldNodeId];
      return position ? withLayout(next, { [oldNodeId]: undefined, [newNodeId]: position }) : next;
    },
  };
}
