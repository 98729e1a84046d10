import { agentNodeId } from '../model/nodeIds';
import type { CrewCommand } from './command';
import { agentsOf, entry, stringField, type AgentDraft, type CrewDraft, type Position } from './crewDraft';
import { freshId, freshLabel } from './freshId';
import { nextFreePosition } from './nextFreePosition';
import { withLayout } from './withLayout';

/** Placeholders the inspector shows in a new agent's empty fields (the document gets no made-up values). */
export const NEW_AGENT_GOAL = 'Describe what this agent is trying to achieve.';
export const NEW_AGENT_BACKSTORY = 'Describe who this agent is and how it works.';

/** A new agent with a unique id and role ("Agent 1"), placed at `position` (or under the others). */
export function addAgent(position?: Position): CrewCommand {
  return {
    kind: 'crew',
    label: 'Add agent',
    perform(doc: CrewDraft) {
      const agents = agentsOf(doc);
      const role = freshLabel('Agent', agents.map((a) => stringField(entry(a).role) ?? ''));
      const id = freshId(role, new Set(agents.map((a) => stringField(entry(a).id) ?? '')));
      const agent: AgentDraft = { id, role, goal: '', backstory: '', tools: [] };
      const at = position ?? nextFreePosition(doc, 'agent');
      return withLayout({ ...doc, agents: [...agents, agent] }, { [agentNodeId(id)]: at });
    },
  };
}
