import dagre from '@dagrejs/dagre';
import type { Size } from '../../model/nodeSizes';
import type { FlowCommand } from '../command';
import { isRecord, layoutOf, type Position } from '../crewDraft';
import { sameValue } from '../sameValue';
import { routeHandleId } from './connectMethods';
import type { DocumentDraft } from '../documentDraft';
import { asFlow, methodsOf, routesOf, type FlowDraft } from './flowDraft';
import { flowStructure, type StructureEdge, type StructureNode } from './flowStructure';

export const FLOW_NODE_SIZE = {
  method: { width: 248, height: 92 },
  gate: { width: 56, height: 36 },
} as const;

/** A router is taller: one labelled handle per route. */
export const ROUTE_ROW_HEIGHT = 22;

const sizeOf = (node: StructureNode, routes: number, measured: Readonly<Record<string, Size>>): Size =>
  measured[node.id] ?? (node.kind === 'gate' ? FLOW_NODE_SIZE.gate : { width: FLOW_NODE_SIZE.method.width, height: FLOW_NODE_SIZE.method.height + Math.max(0, routes - 2) * ROUTE_ROW_HEIGHT });

/** Left-to-right dagre layout of methods and gates (top-left positions). */
export function computeFlowLayout(doc: DocumentDraft, measured: Readonly<Record<string, Size>> = {}): Record<string, Position> {
  const flow = asFlow(doc);
  const { nodes, edges } = flowStructure(flow);
  const methods = Array.isArray(flow.methods) ? flow.methods : [];
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 32, ranksep: 64, marginx: 40, marginy: 40 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) {
    const routes = node.kind === 'method' && isRecord(methods[node.index]) && Array.isArray((methods[node.index] as Record<string, unknown>).routes) ? ((methods[node.index] as Record<string, unknown>).routes as unknown[]).length : 0;
    g.setNode(node.id, { ...sizeOf(node, routes, measured) });
  }
  for (const edge of edges) if (edge.source !== edge.target) g.setEdge(edge.source, edge.target, {}, edge.id);
  dagre.layout(g);
  const out: Record<string, Position> = {};
  const heights: Record<string, number> = {};
  for (const node of nodes) {
    const n = g.node(node.id) as { x: number; y: number; width: number; height: number };
    out[node.id] = { x: Math.round(n.x - n.width / 2), y: Math.round(n.y - n.height / 2) };
    heights[node.id] = n.height;
  }
  orderRouteListeners(flow, nodes, edges, out, heights);
  return out;
}

/**
 * Dagre does not know a router's handles, which list its routes top to bottom: where the listeners of
 * a router's routes stand one under another in one column (nothing else between them), they are
 * stacked again in the order of the routes, so the router's branches do not cross.
 */
function orderRouteListeners(flow: FlowDraft, nodes: StructureNode[], edges: StructureEdge[], out: Record<string, Position>, heights: Record<string, number>): void {
  const methods = methodsOf(flow);
  for (const node of nodes) {
    if (node.kind !== 'method') continue;
    const order = new Map(routesOf(methods[node.index] ?? {}).map((route, i) => [routeHandleId(route), i]));
    if (order.size < 2) continue;
    const rank = new Map<string, number>();
    for (const e of edges) {
      const i = order.get(e.sourceHandle);
      if (e.source === node.id && e.kind === 'route' && e.target !== node.id && i !== undefined && !rank.has(e.target)) rank.set(e.target, i);
    }
    const columns = new Map<number, string[]>();
    for (const target of rank.keys()) columns.set(out[target]!.x, [...(columns.get(out[target]!.x) ?? []), target]);
    for (const [x, group] of columns) {
      if (group.length < 2) continue;
      const top = Math.min(...group.map((id) => out[id]!.y));
      const bottom = Math.max(...group.map((id) => out[id]!.y + heights[id]!));
      const between = nodes.some((n) => !group.includes(n.id) && out[n.id]!.x === x && out[n.id]!.y < bottom && out[n.id]!.y + heights[n.id]! > top);
      if (between) continue;
      const gap = (bottom - top - group.reduce((sum, id) => sum + heights[id]!, 0)) / (group.length - 1);
      let y = top;
      for (const id of [...group].sort((a, b) => rank.get(a)! - rank.get(b)!)) {
        out[id] = { x, y: Math.round(y) };
        y += heights[id]! + gap;
      }
    }
  }
}

let cache: { key: string; positions: Record<string, Position> } | undefined;

function cachedLayout(doc: FlowDraft, structure: { nodes: StructureNode[]; edges: StructureEdge[] }): Record<string, Position> {
  const key = JSON.stringify([structure.nodes.map((n) => n.id), structure.edges.map((e) => [e.source, e.target])]);
  if (cache?.key !== key) cache = { key, positions: computeFlowLayout(doc) };
  return cache.positions;
}

/**
 * Saved positions, and positions for nodes without one: a new gate halfway between its inputs and its
 * listener when those are placed; anything else from the auto-layout (under what the person arranged).
 */
export function flowPositions(doc: FlowDraft): Record<string, Position> {
  const structure = flowStructure(doc);
  const saved = layoutOf(doc);
  const out: Record<string, Position> = {};
  const missing: StructureNode[] = [];
  for (const node of structure.nodes) {
    const position = saved[node.id];
    if (position) out[node.id] = position;
    else missing.push(node);
  }
  if (missing.length === 0) return out;
  const placedAny = Object.keys(out).length > 0;
  const auto = cachedLayout(doc, structure);
  const unplacedMethods = missing.filter((n) => n.kind === 'method');
  // Methods first (gates sit between methods).
  if (unplacedMethods.length > 0) {
    // The auto-layout places every node of the structure it was computed from.
    const autoAt = (n: StructureNode) => auto[n.id] ?? { x: 0, y: 0 };
    let dx = 0;
    let dy = 0;
    if (placedAny) {
      const placed = Object.values(out);
      dx = Math.min(...placed.map((p) => p.x)) - Math.min(...unplacedMethods.map((n) => autoAt(n).x));
      dy = Math.max(...placed.map((p) => p.y)) + 160 - Math.min(...unplacedMethods.map((n) => autoAt(n).y));
    }
    for (const n of unplacedMethods) out[n.id] = { x: autoAt(n).x + dx, y: autoAt(n).y + dy };
  }
  // Gates: inner ones depend on outer ones' inputs; place the deepest first.
  const gates = missing.filter((n) => n.kind === 'gate').sort((a, b) => (b.kind === 'gate' ? b.path.length : 0) - (a.kind === 'gate' ? a.path.length : 0));
  for (const gate of gates) {
    const inputs = structure.edges.filter((e) => e.target === gate.id).map((e) => out[e.source]).filter((p): p is Position => p !== undefined);
    const outgoing = structure.edges.find((e) => e.source === gate.id);
    const target = outgoing ? out[outgoing.target] : undefined;
    if (placedAny && inputs.length > 0 && target) {
      const ix = Math.max(...inputs.map((p) => p.x)) + FLOW_NODE_SIZE.method.width;
      const iy = inputs.reduce((s, p) => s + p.y, 0) / inputs.length;
      out[gate.id] = { x: Math.round((ix + target.x) / 2 - FLOW_NODE_SIZE.gate.width / 2), y: Math.round((iy + target.y) / 2 + 24) };
    } else {
      out[gate.id] = auto[gate.id] ?? { x: 0, y: 0 };
    }
  }
  return out;
}

/**
 * The document with a saved position for every node, and without the positions of gates that are
 * gone (gate ids are places in conditions, so a stale one would move a future gate). The store
 * applies it before every edit of a flow, like `withFullLayout` for crews.
 */
export function withFlowFullLayout(doc: FlowDraft): FlowDraft {
  const positions = flowPositions(doc);
  const saved = isRecord(doc.layout) ? (doc.layout as Record<string, unknown>) : {};
  const stale = Object.keys(saved).filter((id) => id.startsWith('gate:') && !(id in positions));
  const complete = Object.keys(positions).every((id) => id in saved);
  if (complete && stale.length === 0) return doc;
  const layout: Record<string, unknown> = { ...saved, ...positions };
  for (const id of stale) delete layout[id];
  return { ...doc, layout: layout as FlowDraft['layout'] };
}

/** Auto-layout for the whole flow; `sizes` are the measured node sizes, when known. */
export function layoutFlow(sizes: Readonly<Record<string, Size>> = {}): FlowCommand {
  return {
    kind: 'flow',
    label: 'Auto-layout',
    perform(doc) {
      const layout = computeFlowLayout(doc, sizes);
      return sameValue(doc.layout, layout) ? doc : { ...doc, layout };
    },
  };
}
