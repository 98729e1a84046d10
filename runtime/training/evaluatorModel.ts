import type { CrewDocument } from '../../shared/model/crew';
import { BUILT_IN_MANAGER } from '../crew/roster';
import type { ChatModel } from '../llm/chatModel';
import type { ModelResolver } from '../llm/resolveModel';

/**
 * The evaluator for a role: the `evalModel` profile when one is given, else the model of the agent
 * with that role (the manager's for the manager), else the workspace default. Resolved up front so a
 * bad profile is reported before any run.
 */
export function evaluatorFor(doc: CrewDocument, models: ModelResolver, evalModel: string | undefined): (role: string) => ChatModel {
  if (evalModel !== undefined) {
    const model = models.resolve(evalModel);
    return () => model;
  }
  const byRole = new Map<string, ChatModel>();
  for (const agent of doc.agents) if (!byRole.has(agent.role)) byRole.set(agent.role, models.resolve(agent.llm));
  const manager = doc.manager;
  if (manager && 'agentId' in manager) {
    const agent = doc.agents.find((a) => a.id === manager.agentId);
    if (agent) byRole.set(agent.role, models.resolve(agent.llm));
  } else if (doc.process === 'hierarchical') {
    byRole.set(BUILT_IN_MANAGER.role, models.resolve(manager && 'llm' in manager ? manager.llm : undefined));
  }
  return (role) => byRole.get(role) ?? models.resolve(undefined);
}
