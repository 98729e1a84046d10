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

/**
 * Flow canvas ids: `method:<methodId>` for a method (the run overlay keys method status the same way);
 * `gate:<methodKey>` for the `and`/`or` at the root of a listener's condition and
 * `gate:<methodKey>.<i>.<j>` for one nested inside it (the indexes of its place in the condition).
 */
export const methodNodeId = (methodId: string) => `method:${methodId}`;
export const gateNodeId = (methodKey: string, path: readonly number[]) => `gate:${methodKey}${path.map((i) => `.${i}`).join('')}`;

/** The method id in `method:<id>` (a `#<index>` key for a method without a usable id), or undefined. */
export function parseMethodNodeId(nodeId: string): string | undefined {
  return nodeId.startsWith('method:') ? nodeId.slice('method:'.length) : undefined;
}

/** The listener's key and the gate's place in its condition, for a `gate:` id. */
export function parseGateNodeId(nodeId: string): { methodKey: string; path: number[] } | undefined {
  const m = /^gate:([^.]+)((?:\.\d+)*)$/.exec(nodeId);
  if (!m) return undefined;
  return { methodKey: m[1], path: m[2] ? m[2].slice(1).split('.').map(Number) : [] };
}
