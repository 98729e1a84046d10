import { gateNodeId, methodNodeId } from '../../model/nodeIds';
import { gateOf, routeOf } from './conditionTree';
import { FLOW_HANDLE, routeHandleId } from './connectMethods';
import { keyedMethods, routesOf, str, triggerOf, type FlowDraft } from './flowDraft';

export type StructureNode =
  | { id: string; kind: 'method'; index: number; key: string }
  | { id: string; kind: 'gate'; listener: string; listenerIndex: number; path: number[]; op: 'and' | 'or' };

/** A listen edge: what it connects, and which reference of which listener's condition it stands for. */
export type StructureEdge = {
  id: string;
  source: string;
  sourceHandle: string;
  target: string;
  /** The listener's method key and the place of the reference (or gate) in its condition. */
  listener: string;
  path: number[];
  /** method: listens to a method's completion; route: to a router's route; gate: an and/or feeding its parent. */
  kind: 'method' | 'route' | 'gate';
};

/**
 * The flow's graph without looks: a node per method and per and/or gate of a listen condition;
 * edges from referenced methods (or the route handles of the routers offering a route) into the
 * listener or gate. References to nothing draw no edge (the validator reports them).
 */
export function flowStructure(doc: FlowDraft): { nodes: StructureNode[]; edges: StructureEdge[] } {
  const methods = keyedMethods(doc);
  const byName = new Map<string, string>();
  const routers = new Map<string, string[]>();
  for (const { method, key } of methods) {
    const name = str(method.name);
    if (name !== undefined && !byName.has(name)) byName.set(name, methodNodeId(key));
    for (const r of routesOf(method)) routers.set(r, [...(routers.get(r) ?? []), methodNodeId(key)]);
  }

  const nodes: StructureNode[] = methods.map(({ key }, index) => ({ id: methodNodeId(key), kind: 'method', index, key }));
  const edges: StructureEdge[] = [];
  methods.forEach(({ method, key }, i) => {
    const trigger = triggerOf(method);
    if (!('listen' in trigger)) return;
    const walk = (condition: unknown, path: number[], target: string) => {
      const edgeId = `listen|${key}|${path.join('.')}`;
      const gate = gateOf(condition);
      if (gate) {
        const id = gateNodeId(key, path);
        nodes.push({ id, kind: 'gate', listener: key, listenerIndex: i, path, op: gate.op });
        edges.push({ id: edgeId, source: id, sourceHandle: FLOW_HANDLE.out, target, listener: key, path, kind: 'gate' });
        gate.members.forEach((member, j) => walk(member, [...path, j], id));
        return;
      }
      const route = routeOf(condition);
      if (route !== undefined) {
        for (const router of routers.get(route) ?? []) {
          edges.push({ id: `${edgeId}|${router}`, source: router, sourceHandle: routeHandleId(route), target, listener: key, path, kind: 'route' });
        }
        return;
      }
      const source = typeof condition === 'string' ? byName.get(condition) : undefined;
      if (source !== undefined) edges.push({ id: edgeId, source, sourceHandle: FLOW_HANDLE.out, target, listener: key, path, kind: 'method' });
    };
    walk(trigger.listen, [], methodNodeId(key));
  });
  return { nodes, edges };
}
