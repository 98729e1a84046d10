import { CommandRejected, type CrewCommand } from './command';
import { checkConnection } from './connectionRule';
import { replaceAt, tasksOf, entry, withPatch, type CrewDraft } from './crewDraft';

/** Dragging a handle from `source` to `target`: assigns a task to an agent or adds a context entry. */
export function connectNodes(source: string, target: string): CrewCommand {
  return {
    kind: 'crew',
    label: 'Connect',
    perform(doc: CrewDraft) {
      const check = checkConnection(doc, source, target);
      if (!check.ok) throw new CommandRejected(check.reason);
      const tasks = tasksOf(doc);
      const c = check.connection;
      if (c.kind === 'assignment') {
        const task = entry(tasks[c.taskIndex]);
        if (task.agentId === c.agentId) return doc;
        return { ...doc, tasks: replaceAt(tasks, c.taskIndex, withPatch(task, { agentId: c.agentId })) };
      }
      const task = entry(tasks[c.targetIndex]);
      const current = Array.isArray(task.context) ? task.context : [];
      if (current.includes(c.sourceId)) return doc;
      return { ...doc, tasks: replaceAt(tasks, c.targetIndex, withPatch(task, { context: [...current, c.sourceId] })) };
    },
  };
}
