import type { CrewCommand } from './command';
import { entry, replaceAt, stringField, tasksOf, withPatch, type CrewDraft } from './crewDraft';
import { resolveNode } from './nodeRefs';

/** An edge the person can remove: an assignment (task → agent) or a context entry (earlier → later task). */
export type EdgeRef = { kind: 'assignment'; task: string } | { kind: 'context'; source: string; target: string };

/**
 * Removes the edges' meaning from the document: the task's `agentId`, or the entry in the later
 * task's context list (an emptied list becomes "none": no edges drawn means no context).
 */
export function disconnectEdges(edges: readonly EdgeRef[]): CrewCommand {
  return {
    kind: 'crew',
    label: edges.length === 1 ? 'Remove connection' : `Remove ${edges.length} connections`,
    perform(doc: CrewDraft) {
      const original = tasksOf(doc);
      let tasks = original;
      for (const edge of edges) {
        if (edge.kind === 'assignment') {
          const ref = resolveNode(doc, edge.task);
          if (ref?.kind !== 'task' || entry(tasks[ref.index]).agentId === undefined) continue;
          tasks = replaceAt(tasks, ref.index, withPatch(entry(tasks[ref.index]), { agentId: undefined }));
        } else {
          const target = resolveNode(doc, edge.target);
          const source = resolveNode(doc, edge.source);
          if (target?.kind !== 'task' || source?.kind !== 'task') continue;
          const sourceId = stringField(entry(tasks[source.index]).id);
          const task = entry(tasks[target.index]);
          if (!Array.isArray(task.context) || sourceId === undefined || !task.context.includes(sourceId)) continue;
          const context = task.context.filter((id) => id !== sourceId);
          tasks = replaceAt(tasks, target.index, withPatch(task, { context: context.length > 0 ? context : 'none' }));
        }
      }
      return tasks === original ? doc : { ...doc, tasks };
    },
  };
}
