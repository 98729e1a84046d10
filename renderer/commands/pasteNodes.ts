import { agentNodeId, taskNodeId } from '../model/nodeIds';
import type { CrewCommand } from './command';
import type { Clipboard } from './clipboard';
import { agentsOf, entry, isRecord, stringField, tasksOf, withPatch, type CrewDraft, type Position } from './crewDraft';
import { freshId } from './freshId';
import { withLayout } from './withLayout';

/**
 * Adds copies of the clipboard's agents and tasks with fresh unique ids (and roles, which identify
 * coworkers), shifted by `offset`. References between pasted items follow the copies; a pasted task
 * keeps its assignment to an agent that was not copied if that agent is still in the crew. Pasted
 * tasks go to the end of the order, so their context lists can only name earlier tasks.
 */
export function pasteNodes(clipboard: Clipboard, offset: Position = { x: 40, y: 40 }): CrewCommand {
  return {
    kind: 'crew',
    label: 'Paste',
    perform(doc: CrewDraft) {
      if (clipboard.agents.length === 0 && clipboard.tasks.length === 0) return doc;
      const agents = agentsOf(doc);
      const tasks = tasksOf(doc);
      const agentIds = new Set(agents.map((a) => stringField(entry(a).id) ?? ''));
      const taskIds = new Set(tasks.map((t) => stringField(entry(t).id) ?? ''));
      const roles = agents.map((a) => stringField(entry(a).role) ?? '');
      const taskNames = tasks.map((t) => stringField(entry(t).name) ?? '');
      const agentMap = new Map<string, string>();
      const taskMap = new Map<string, string>();
      const layout: Record<string, Position | undefined> = {};
      const shift = (p: Position | undefined) => (p ? { x: p.x + offset.x, y: p.y + offset.y } : undefined);

      const newAgents = clipboard.agents.map((raw, i) => {
        const agent = structuredClone(entry(raw));
        const oldId = stringField(agent.id) ?? 'agent';
        const id = freshId(oldId, agentIds);
        agentIds.add(id);
        if (!agentMap.has(oldId)) agentMap.set(oldId, id);
        const role = uniqueRole(stringField(agent.role) ?? 'Agent', roles);
        roles.push(role);
        layout[agentNodeId(id)] = shift(clipboard.agentPositions[i]);
        return { ...agent, id, role };
      });

      const newTasks = clipboard.tasks.map((raw, i) => {
        const task = structuredClone(entry(raw));
        const oldId = stringField(task.id) ?? 'task';
        const id = freshId(oldId, taskIds);
        taskIds.add(id);
        layout[taskNodeId(id)] = shift(clipboard.taskPositions[i]);
        // A copy gets a fresh name too, so the trace and the filter can tell it from its original.
        const name = stringField(task.name);
        const freshName = name === undefined ? undefined : uniqueRole(name, taskNames);
        if (freshName !== undefined) taskNames.push(freshName);
        let next = freshName === undefined ? { ...task, id } : { ...task, id, name: freshName };
        const agentId = stringField(task.agentId);
        if (agentId !== undefined) next = withPatch(next, { agentId: agentMap.get(agentId) ?? (agentIds.has(agentId) ? agentId : undefined) });
        if (Array.isArray(task.context)) {
          // Only tasks already in the crew or pasted before this one are earlier.
          const context = task.context
            .map((ref) => taskMap.get(ref) ?? (tasks.some((t) => isRecord(t) && t.id === ref) ? ref : undefined))
            .filter((ref): ref is string => ref !== undefined);
          next = withPatch(next, { context: context.length > 0 ? context : 'none' });
        }
        if (!taskMap.has(oldId)) taskMap.set(oldId, id);
        return next;
      });

      const placed = Object.fromEntries(Object.entries(layout).filter(([, p]) => p !== undefined)) as Record<string, Position>;
      return withLayout({ ...doc, agents: [...agents, ...newAgents], tasks: [...tasks, ...newTasks] }, placed);
    },
  };
}

function uniqueRole(role: string, taken: string[]): string {
  const lower = new Set(taken.map((r) => r.trim().toLowerCase()));
  if (!lower.has(role.trim().toLowerCase())) return role;
  const base = role.replace(/ \(copy(?: \d+)?\)$/, '');
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? `${base} (copy)` : `${base} (copy ${n})`;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}
