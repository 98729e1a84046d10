import { MANAGER_NODE_ID } from '../model/nodeIds';
import { agentsOf, entry, stringField, tasksOf } from './crewDraft';
import type { DocumentDraft } from './documentDraft';
import { isFlowDraft } from './flow/flowDraft';
import { managerNodeId, resolveNode } from './nodeRefs';

export type Connection =
  | { kind: 'assignment'; taskIndex: number; agentId: string }
  | { kind: 'context'; sourceIndex: number; targetIndex: number; sourceId: string };

export type ConnectionCheck = { ok: true; connection: Connection } | { ok: false; reason: string };

const label = (value: unknown, fallback: string) => stringField(value) || fallback;

/**
 * What dragging from `source` to `target` means, or why it is not allowed:
 * - task → agent: the agent does the task (`task.agentId`);
 * - task → later task: the later task gets the earlier one's output as context.
 * Dropping a task on an earlier task, on itself, on the manager or between agents is refused with a
 * reason the canvas shows (and so is any connection in a flow, which has no agents or tasks).
 */
export function checkConnection(doc: DocumentDraft, source: string, target: string): ConnectionCheck {
  if (isFlowDraft(doc)) return { ok: false, reason: 'A flow connects methods, not agents and tasks.' };
  const from = resolveNode(doc, source);
  const to = resolveNode(doc, target);
  if (source === MANAGER_NODE_ID || (source === managerNodeId(doc) && to?.kind === 'agent')) {
    return { ok: false, reason: 'The manager delegates to every worker agent by itself; there is nothing to connect.' };
  }
  if (!from || !to) return { ok: false, reason: 'Connect a task to an agent, or a task to a later task.' };
  if (from.kind === 'agent' && to.kind === 'task') return checkConnection(doc, target, source);
  if (from.kind === 'agent') return { ok: false, reason: 'Agents connect to tasks: drag from a task to the agent that should do it.' };

  const tasks = tasksOf(doc);
  const sourceTask = entry(tasks[from.index]);
  if (to.kind === 'agent') {
    const agent = entry(agentsOf(doc)[to.index]);
    const agentId = stringField(agent.id);
    if (!agentId) return { ok: false, reason: 'This agent has no id yet; give it one in the inspector first.' };
    if (target === managerNodeId(doc)) {
      return { ok: false, reason: `"${label(agent.role, agentId)}" is the crew's manager; assign the task to a worker agent.` };
    }
    return { ok: true, connection: { kind: 'assignment', taskIndex: from.index, agentId } };
  }

  const targetTask = entry(tasks[to.index]);
  const sourceId = stringField(sourceTask.id);
  if (from.index === to.index) return { ok: false, reason: 'A task cannot be its own context.' };
  if (!sourceId || source.includes(':#')) {
    return { ok: false, reason: 'This task has no unique id yet; give it one in the inspector first.' };
  }
  if (from.index > to.index) {
    return {
      ok: false,
      reason: `"${label(sourceTask.name, sourceId)}" runs after "${label(targetTask.name, label(targetTask.id, 'that task'))}": context can only come from an earlier task. Drag from the earlier task to the later one, or reorder the tasks.`,
    };
  }
  return { ok: true, connection: { kind: 'context', sourceIndex: from.index, targetIndex: to.index, sourceId } };
}
