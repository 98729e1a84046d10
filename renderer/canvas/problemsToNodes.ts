import type { Problem } from '../../shared/model/problems';
import type { CrewDraft } from '../commands/crewDraft';
import { agentNodeIds, managerNodeId, taskNodeIds } from '../commands/nodeRefs';

export type ProblemPlacement = {
  /** Per canvas node id: "field: message" lines for that node. */
  byNode: Record<string, string[]>;
  /** Problems that belong to no node (crew name, inputs, missing agents…), for the canvas banner. */
  general: Problem[];
};

/**
 * Puts each validation problem on the node at fault: `agents.1.role` on the second agent's node,
 * `tasks.0.agentId` on the first task's, `manager.*` on the manager node. Paths use array indexes,
 * so they are mapped through the document to node ids.
 */
export function problemsToNodes(doc: CrewDraft | undefined, problems: readonly Problem[]): ProblemPlacement {
  const byNode: Record<string, string[]> = {};
  const general: Problem[] = [];
  if (!doc) return { byNode, general: [...problems] };
  const agentIds = agentNodeIds(doc);
  const taskIds = taskNodeIds(doc);
  const managerId = managerNodeId(doc);

  for (const problem of problems) {
    const parts = problem.path.split('.');
    let nodeId: string | undefined;
    let rest: string[] = [];
    if ((parts[0] === 'agents' || parts[0] === 'tasks') && /^\d+$/.test(parts[1] ?? '')) {
      nodeId = (parts[0] === 'agents' ? agentIds : taskIds)[Number(parts[1])];
      rest = parts.slice(2);
    } else if (parts[0] === 'manager' && managerId) {
      // (A manager agent id that names no agent has no node: managerNodeId is undefined then.)
      nodeId = managerId;
      rest = parts.slice(1);
    }
    if (nodeId === undefined) {
      general.push(problem);
      continue;
    }
    (byNode[nodeId] ??= []).push(rest.length > 0 ? `${rest.join('.')}: ${problem.message}` : problem.message);
  }
  return { byNode, general };
}
