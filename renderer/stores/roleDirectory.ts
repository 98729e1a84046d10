import { MANAGER_NODE_ID, agentNodeId } from '../model/nodeIds';

/**
 * Maps the roles that appear in events (delegation manager/coworker, task performer) to canvas node
 * ids. Roles in events are interpolated with the run's inputs, so the document's roles are too.
 */
export interface RoleDirectory {
  /** Normalised role → canvas node id. */
  byRole: Record<string, string>;
  /** Agent ids declared in the document. */
  agentIds: Record<string, true>;
  /** Task names by task id, for spans whose events do not carry them (restored tasks). */
  taskNames: Record<string, string>;
  /** The document as given, kept to re-interpolate once the run's inputs are known. */
  document?: unknown;
}

/** The built-in manager of a hierarchical crew (runtime/crew/roster.ts). */
const BUILT_IN_MANAGER_ID = 'manager';
const BUILT_IN_MANAGER_ROLE = 'Crew Manager';
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

export function normaliseRole(role: string): string {
  return role.toLowerCase().replace(/["'`]/g, '').replace(/\s+/g, ' ').trim();
}

interface LooseAgent {
  id?: unknown;
  role?: unknown;
}

export function roleDirectory(document: unknown, inputs: Record<string, string>): RoleDirectory {
  const dir: RoleDirectory = { byRole: {}, agentIds: {}, taskNames: {}, document };
  const doc = (document ?? {}) as { agents?: unknown; tasks?: unknown; manager?: unknown };
  for (const task of Array.isArray(doc.tasks) ? (doc.tasks as { id?: unknown; name?: unknown }[]) : []) {
    if (typeof task?.id === 'string' && typeof task.name === 'string' && task.name) dir.taskNames[task.id] = task.name;
  }
  const agents = Array.isArray(doc.agents) ? (doc.agents as LooseAgent[]) : [];
  const fill = (text: string) => text.replace(PLACEHOLDER, (whole, name: string) => inputs[name] ?? whole);
  for (const agent of agents) {
    if (typeof agent?.id !== 'string') continue;
    dir.agentIds[agent.id] = true;
    if (typeof agent.role === 'string') dir.byRole[normaliseRole(fill(agent.role))] = agentNodeId(agent.id);
  }
  const manager = doc.manager as { agentId?: unknown } | undefined;
  const userManager = manager && typeof manager.agentId === 'string';
  if (!userManager) dir.byRole[normaliseRole(BUILT_IN_MANAGER_ROLE)] ??= MANAGER_NODE_ID;
  return dir;
}

/** The canvas node of an agent id from an `agent.started` event. */
export function nodeForAgentId(dir: RoleDirectory, agentId: string): string {
  if (agentId === BUILT_IN_MANAGER_ID && !dir.agentIds[agentId]) return MANAGER_NODE_ID;
  return agentNodeId(agentId);
}

export function nodeForRole(dir: RoleDirectory, role: string | undefined): string | undefined {
  return role === undefined ? undefined : dir.byRole[normaliseRole(role)];
}
