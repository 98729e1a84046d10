import type { CrewCommand } from './command';
import { entry, isRecord, layoutOf, stringField, tasksOf, withPatch, type CrewDraft } from './crewDraft';
import { resolveNode, taskNodeIds } from './nodeRefs';
import { withLayout } from './withLayout';

/**
 * Moves a task one place earlier (-1) or later (+1) in the execution order. The two tasks swap their
 * canvas positions too, so the column still reads top to bottom. A context entry that would now name a
 * later task (the task moved up past one it read from) is dropped.
 */
export function reorderTask(nodeId: string, delta: -1 | 1): CrewCommand {
  return {
    kind: 'crew',
    label: delta < 0 ? 'Move task up' : 'Move task down',
    perform(doc: CrewDraft) {
      const ref = resolveNode(doc, nodeId);
      const tasks = tasksOf(doc);
      if (ref?.kind !== 'task') return doc;
      const other = ref.index + delta;
      if (other < 0 || other >= tasks.length) return doc;
      const earlier = Math.min(ref.index, other);
      const later = Math.max(ref.index, other);
      // After the swap, the task that was later comes first: it can no longer read the other's output.
      const movingUp = tasks[later];
      const movingDown = tasks[earlier];
      if (movingUp === undefined || movingDown === undefined) return doc;
      const passed = stringField(entry(movingDown).id);
      const fixedUp =
        isRecord(movingUp) && Array.isArray(movingUp.context) && passed !== undefined && movingUp.context.includes(passed)
          ? withPatch(movingUp, { context: movingUp.context.filter((id) => id !== passed).length > 0 ? movingUp.context.filter((id) => id !== passed) : 'none' })
          : movingUp;
      const next = tasks.slice();
      next[earlier] = fixedUp;
      next[later] = movingDown;

      const nodeIds = taskNodeIds(doc);
      const earlierNode = nodeIds[earlier];
      const laterNode = nodeIds[later];
      const swapped = { ...doc, tasks: next };
      if (earlierNode === undefined || laterNode === undefined) return swapped;
      const layout = layoutOf(doc);
      const a = layout[earlierNode];
      const b = layout[laterNode];
      return a && b ? withLayout(swapped, { [earlierNode]: b, [laterNode]: a }) : swapped;
    },
  };
}
