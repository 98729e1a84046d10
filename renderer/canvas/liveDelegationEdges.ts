import type { ActiveDelegation } from '../stores/runStore';
import { HANDLE, type CrewEdge, type DelegationEdge } from './graphTypes';

/**
 * Delegations running now that no static edge draws (an agent with allowDelegation asking a coworker,
 * or a manager whose edge is missing): transient animated edges for as long as they run.
 */
export function liveDelegationEdges(active: readonly ActiveDelegation[], edges: readonly CrewEdge[], nodeIds: ReadonlySet<string>): DelegationEdge[] {
  if (active.length === 0) return [];
  const drawn = new Set(edges.filter((e) => e.type === 'delegation').map((e) => `${e.source}|${e.target}`));
  const out: DelegationEdge[] = [];
  const seen = new Set<string>();
  for (const { from, to } of active) {
    const key = `${from}|${to}`;
    if (drawn.has(key) || seen.has(key) || !nodeIds.has(from) || !nodeIds.has(to)) continue;
    seen.add(key);
    out.push({
      id: `live|${key}`,
      type: 'delegation',
      source: from,
      sourceHandle: HANDLE.managerOut,
      target: to,
      targetHandle: HANDLE.agentManager,
      selectable: false,
      deletable: false,
      data: { transient: true },
    });
  }
  return out;
}
