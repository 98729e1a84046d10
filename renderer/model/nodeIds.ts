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
  const [, kind, id] = /^(agent|task):(.+)$/.exec(nodeId) ?? [];
  if ((kind !== 'agent' && kind !== 'task') || id === undefined) return undefined;
  return { kind, id };
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
  const [, methodKey, indexes] = /^gate:([^.]+)((?:\.\d+)*)$/.exec(nodeId) ?? [];
  if (methodKey === undefined) return undefined;
  return { methodKey, path: indexes ? indexes.slice(1).split('.').map(Number) : [] };
}
