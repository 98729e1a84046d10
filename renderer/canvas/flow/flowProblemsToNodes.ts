import type { Problem } from '../../../shared/model/problems';
import type { ProblemPlacement } from '../problemsToNodes';
import { methodNodeIds, type FlowDraft } from '../../commands/flow/flowDraft';

/**
 * Puts each validation problem on the method at fault: `methods.2.body.rules.0.route` on the third
 * method's node as `body.rules.0.route: …`. Flow-level problems (name, state, "needs a start
 * method"…) go to the canvas banner.
 */
export function flowProblemsToNodes(doc: FlowDraft, problems: readonly Problem[]): ProblemPlacement {
  const byNode: Record<string, string[]> = {};
  const general: Problem[] = [];
  const ids = methodNodeIds(doc);
  for (const problem of problems) {
    const parts = problem.path.split('.');
    const nodeId = parts[0] === 'methods' && /^\d+$/.test(parts[1] ?? '') ? ids[Number(parts[1])] : undefined;
    if (nodeId === undefined) {
      general.push(problem);
      continue;
    }
    const rest = parts.slice(2);
    (byNode[nodeId] ??= []).push(rest.length > 0 ? `${rest.join('.')}: ${problem.message}` : problem.message);
  }
  return { byNode, general };
}
