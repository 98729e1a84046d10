import { MANAGER_NODE_ID, agentNodeId, parseNodeId, taskNodeId } from '../model/nodeIds';
import type { DocumentDraft } from './documentDraft';
import { isFlowDraft } from './flow/flowDraft';
import { flowNodeIds } from './flow/flowNodeIds';
import { agentsOf, entry, isHierarchical, managerAgentId, stringField, tasksOf, type CrewDraft } from './crewDraft';

/**
 * Canvas node ids for the entries of a document, by array index. An entry without a usable id (or a
 * duplicate of an earlier one) still needs a node, so it gets `agent:#<index>` / `task:#<index>` —
 * `#` is not allowed in ids, so these never collide with real ones.
 */
export function agentNodeIds(doc: CrewDraft): string[] {
  return nodeIdsFor(agentsOf(doc).map((a) => stringField(entry(a).id)), 'agent');
}

export function taskNodeIds(doc: CrewDraft): string[] {
  return nodeIdsFor(tasksOf(doc).map((t) => stringField(entry(t).id)), 'task');
}

function nodeIdsFor(ids: (string | undefined)[], kind: 'agent' | 'task'): string[] {
  const seen = new Set<string>();
  return ids.map((id, index) => {
    if (id && !seen.has(id)) {
      seen.add(id);
      return kind === 'agent' ? agentNodeId(id) : taskNodeId(id);
    }
    return `${kind}:#${index}`;
  });
}

/** The node drawn for the crew's manager: the built-in one, or the user agent named as manager. */
export function managerNodeId(doc: CrewDraft): string | undefined {
  if (!isHierarchical(doc)) return undefined;
  const agentId = managerAgentId(doc);
  if (agentId === undefined) return MANAGER_NODE_ID;
  const index = agentsOf(doc).findIndex((a) => entry(a).id === agentId);
  return index >= 0 ? agentNodeIds(doc)[index] : undefined;
}

/** Every node id the document produces, in drawing order (methods and gates for a flow). */
export function documentNodeIds(doc: DocumentDraft): string[] {
  if (isFlowDraft(doc)) return flowNodeIds(doc);
  const ids = [...agentNodeIds(doc), ...taskNodeIds(doc)];
  if (managerNodeId(doc) === MANAGER_NODE_ID) ids.push(MANAGER_NODE_ID);
  return ids;
}

export type EntityRef = { kind: 'agent' | 'task'; index: number };

/** Which agent or task a canvas node id names in this document (undefined for the built-in manager or a stale id). */
export function resolveNode(doc: CrewDraft, nodeId: string): EntityRef | undefined {
  const parsed = parseNodeId(nodeId);
  if (!parsed || parsed.kind === 'manager') return undefined;
  const ids = parsed.kind === 'agent' ? agentNodeIds(doc) : taskNodeIds(doc);
  const index = ids.indexOf(nodeId);
  return index >= 0 ? { kind: parsed.kind, index } : undefined;
}

/** The array indexes of the agents and tasks among `nodeIds` (other ids are ignored). */
export function selectedIndexes(doc: CrewDraft, nodeIds: readonly string[]): { agents: Set<number>; tasks: Set<number> } {
  const agents = new Set<number>();
  const tasks = new Set<number>();
  for (const nodeId of nodeIds) {
    const ref = resolveNode(doc, nodeId);
    if (ref?.kind === 'agent') agents.add(ref.index);
    if (ref?.kind === 'task') tasks.add(ref.index);
  }
  return { agents, tasks };
}
