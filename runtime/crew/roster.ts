import type { Agent, CrewDocument } from '../../shared/model/crew';
import type { ToolRef } from '../../shared/model/tool';
import type { AgentSettings } from '../agent/agentExecution';
import type { ChatModel } from '../llm/chatModel';
import { RateLimiter, withRateLimit } from '../llm/rateLimiter';
import type { ModelResolver } from '../llm/resolveModel';
import type { ToolUse } from '../tools/policyGate';
import type { ToolRegistry } from '../tools/registry';
import { toolForRef } from '../tools/toolForRef';
import { loadSkillTools } from '../skills/loadSkillTool';
import { resolveAgentSkills } from '../skills/resolveSkills';

/** An agent ready to work: its settings, its (rate-limited) model and its resolved tools. */
export interface CrewMember {
  agent: Agent;
  settings: AgentSettings;
  model: ChatModel;
  tools: ToolUse[];
  /** `load_skill` when the agent has skills (also in `tools`; kept when a task overrides the tools). */
  skillTools?: ToolUse[];
}

export interface Roster {
  workers: CrewMember[];
  manager?: CrewMember;
  byId: Map<string, CrewMember>;
}

/** A tool named in the document that this workspace does not provide. */
export class ToolUnavailable extends Error {
  override name = 'ToolUnavailable';
}

export const BUILT_IN_MANAGER: Pick<Agent, 'role' | 'goal' | 'backstory'> = {
  role: 'Crew Manager',
  goal: 'Manage the team to complete the task in the best way possible.',
  backstory:
    'You are a seasoned manager with a knack for getting the best out of your team. You delegate each piece of work to the coworker best suited for it, give them everything they need to know, check their results and put together the final answer.',
};

export function resolveToolRefs(refs: ToolRef[], registry: ToolRegistry, where: string): ToolUse[] {
  const taken = new Set<string>();
  return refs.map((ref, i) => {
    const tool = registry.get(ref.tool);
    if (!tool) {
      const reason = registry.missingReason(ref.tool);
      const hint = reason ? `; ${reason}` : ref.tool.startsWith('mcp:') ? ' (no MCP server providing it is configured in this workspace)' : '';
      throw new ToolUnavailable(`${where}.${i}.tool: tool "${ref.tool}" is not available${hint}`);
    }
    tool.warmUp?.();
    return { tool: toolForRef(tool, ref, taken), maxUsageCount: ref.maxUsageCount, resultAsAnswer: ref.resultAsAnswer, requiresApproval: ref.requiresApproval, config: ref.config };
  });
}

/** `workspace` is where skill files are read from (agents' `.md` skills; inline skills need none). */
export function buildRoster(doc: CrewDocument, models: ModelResolver, registry: ToolRegistry, workspace = '.'): Roster {
  const crewLimiter = doc.maxRpm ? new RateLimiter(doc.maxRpm) : undefined;
  const member = (agent: Agent, index: number | undefined): CrewMember => {
    const limiters = [agent.maxRpm ? new RateLimiter(agent.maxRpm) : undefined, crewLimiter].filter((l): l is RateLimiter => l !== undefined);
    const model = models.resolve(agent.llm);
    const skills = index === undefined ? [] : resolveAgentSkills(workspace, agent, index);
    const skillTools = loadSkillTools(skills);
    return {
      agent,
      settings: {
        id: agent.id,
        role: agent.role,
        goal: agent.goal,
        backstory: agent.backstory,
        maxIter: agent.maxIter,
        maxExecutionTimeMs: agent.maxExecutionTimeMs,
        respectContextWindow: agent.respectContextWindow,
        cache: agent.cache,
        ...(skills.length ? { skills: skills.map(({ name, description }) => ({ name, description })) } : {}),
      },
      model: limiters.length ? withRateLimit(model, ...limiters) : model,
      tools: index === undefined ? [] : [...resolveToolRefs(agent.tools, registry, `agents.${index}.tools`), ...skillTools],
      skillTools,
    };
  };

  const managerId = doc.manager && 'agentId' in doc.manager ? doc.manager.agentId : undefined;
  const byId = new Map<string, CrewMember>();
  const workers: CrewMember[] = [];
  let manager: CrewMember | undefined;
  doc.agents.forEach((agent, i) => {
    const m = member(agent, i);
    byId.set(agent.id, m);
    if (agent.id === managerId) manager = m;
    else workers.push(m);
  });
  if (doc.process === 'hierarchical' && !manager) {
    const llm = doc.manager && 'llm' in doc.manager ? doc.manager.llm : undefined;
    manager = member(
      {
        id: 'manager',
        ...BUILT_IN_MANAGER,
        llm,
        tools: [],
        allowDelegation: true,
        maxIter: 25,
        cache: true,
        respectContextWindow: true,
      },
      undefined,
    );
  }
  return { workers, manager, byId };
}

/** The model of the crew member with this role (the manager included). */
export function memberModel(roster: Roster, role: string): ChatModel {
  const member = [...roster.workers, ...(roster.manager ? [roster.manager] : [])].find((m) => m.agent.role === role);
  if (!member) throw new Error(`no crew member has the role "${role}"`);
  return member.model;
}
