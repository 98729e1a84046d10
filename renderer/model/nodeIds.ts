/**
 * Canvas node ids. Agent and task ids live in separate namespaces in a crew document, so the canvas
 * prefixes them; the run store keys node status with the same ids.
 */
export const MANAGER_NODE_ID = 'manager';
export const agentNodeId = (agentId: string) => `agent:${agentId}`;
export const taskNodeId = (taskId: string) => `task:${taskId}`;

export type ParsedNodeId = { kind: 'agent'; id: string } | { kind: 'task'; id: string } | { kind: 'manager' };

export function parseNodeId(nodeId: string): ParsedNodeId | undefined {
  if (nodeId === MANAGER_NODE_ID) return { kind: 'manager' };
  const m = /^(agent|task):(.+)$/.exec(nodeId);
  if (!m) return undefined;
  return { kind: m[1] as 'agent' | 'task', id: m[2] };
}
