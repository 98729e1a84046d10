import type { Problem } from '../../../shared/model/problems';
import type { DocumentDraft } from '../../commands/documentDraft';
import { asFlow, bodyOf, isStart, methodsOf, routesOf, str } from '../../commands/flow/flowDraft';
import { flowPositions } from '../../commands/flow/flowLayout';
import { flowStructure } from '../../commands/flow/flowStructure';
import { routeOfHandle } from '../../commands/flow/connectMethods';
import { bodySummary } from './bodySummary';
import type { FlowNode, ListenEdge, MethodRole } from './flowGraphTypes';
import { flowProblemsToNodes } from './flowProblemsToNodes';
import { flowWarnings } from '../../../shared/model/flowChecks';

export type FlowGraph = { nodes: FlowNode[]; edges: ListenEdge[]; generalProblems: Problem[] };

/**
 * The flow document (as saved, possibly invalid) as React Flow nodes and edges:
 * - a `method` node per method (`method:<id>`), coloured by role: start, listener or router (a method
 *   with routes, which gets one labelled output handle per route);
 * - a `gate` node per `and`/`or` in a listen condition (nested conditions nest gates);
 * - `listen` edges: referenced method → listener, router route handle → listener, members → gate →
 *   listener (or the enclosing gate).
 * Positions come from `doc.layout[nodeId]`; nodes without one get the auto-layout's.
 */
export function flowToGraph(doc: DocumentDraft, problems: readonly Problem[] = []): FlowGraph {
  const flow = asFlow(doc);
  const methods = methodsOf(flow);
  const structure = flowStructure(flow);
  const positions = flowPositions(flow);
  const placement = flowProblemsToNodes(flow, problems);
  // What CrewAI allows but is probably not meant (a method that never runs, a route nothing listens to): on the node too.
  const warnings = flowProblemsToNodes(flow, flowWarnings(flow)).byNode;
  const nodes: FlowNode[] = structure.nodes.map((node): FlowNode => {
    const position = positions[node.id] ?? { x: 0, y: 0 };
    if (node.kind === 'gate') {
      const listener = methods[node.listenerIndex];
      const members = structure.edges.filter((e) => e.target === node.id).length;
      return { id: node.id, type: 'gate', position, data: { op: node.op, listener: node.listener, path: node.path, listenerName: str(listener?.name) ?? node.listener, members } };
    }
    // The structure's indexes are into these methods; an entry that is not a method reads as `{}`, as in methodsOf.
    const method = methods[node.index] ?? {};
    const routes = routesOf(method);
    const start = isStart(method);
    const role: MethodRole = routes.length > 0 ? 'router' : start ? 'start' : 'listen';
    const body = bodyOf(method);
    return {
      id: node.id,
      type: 'method',
      position,
      data: {
        key: node.key,
        name: str(method.name) || `method ${node.index + 1}`,
        role,
        start,
        bodyKind: str(body.type) ?? '?',
        summary: bodySummary(method.body),
        routes,
        problems: placement.byNode[node.id] ?? [],
        warnings: warnings[node.id] ?? [],
      },
    };
  });
  const edges: ListenEdge[] = structure.edges.map((e) => ({
    id: e.id,
    type: 'listen',
    source: e.source,
    sourceHandle: e.sourceHandle,
    target: e.target,
    targetHandle: 'in',
    // A gate's link into its listener goes with the gate: delete the gate instead.
    deletable: e.kind !== 'gate',
    data: { listener: e.listener, path: e.path, kind: e.kind, route: routeOfHandle(e.sourceHandle) },
  }));
  return { nodes, edges, generalProblems: placement.general };
}
