import { taskNodeId } from '../model/nodeIds';
import type { CrewCommand } from './command';
import { entry, stringField, tasksOf, type CrewDraft, type Position, type TaskDraft } from './crewDraft';
import { freshId, freshLabel } from './freshId';
import { nextFreePosition } from './nextFreePosition';
import { withLayout } from './withLayout';

/** Placeholders the inspector shows in a new task's empty fields (the document gets no made-up values). */
export const NEW_TASK_DESCRIPTION = 'Describe what this task should do.';
export const NEW_TASK_EXPECTED_OUTPUT = 'Describe the result you expect.';

/**
 * A new task at the end of the order, with a unique id and name ("Task 2"). It is not assigned: in a
 * sequential crew it shows "needs an agent" until a handle is dragged to one.
 */
export function addTask(position?: Position): CrewCommand {
  return {
    kind: 'crew',
    label: 'Add task',
    perform(doc: CrewDraft) {
      const tasks = tasksOf(doc);
      const name = freshLabel('Task', tasks.map((t) => stringField(entry(t).name) ?? ''));
      const id = freshId(name, new Set(tasks.map((t) => stringField(entry(t).id) ?? '')));
      const task: TaskDraft = { id, name, description: '', expectedOutput: '' };
      const at = position ?? nextFreePosition(doc, 'task');
      return withLayout({ ...doc, tasks: [...tasks, task] }, { [taskNodeId(id)]: at });
    },
  };
}
