import type { Edge, Node } from '@xyflow/react';

/**
 * Merges freshly built nodes into the ones React Flow holds, reusing every node object whose content
 * did not change, so memo'd nodes skip rendering. Selection comes from `selected`; a node being
 * dragged keeps its live position (the document only learns it when the drag ends).
 */
export function reconcileNodes<N extends Node>(previous: readonly N[], next: readonly N[], selected: ReadonlySet<string>): N[] {
  const byId = new Map(previous.map((n) => [n.id, n]));
  return next.map((node) => {
    const old = byId.get(node.id);
    const isSelected = selected.has(node.id);
    if (!old) return isSelected ? { ...node, selected: true } : node;
    const position = old.dragging ? old.position : node.position;
    if (
      old.type === node.type &&
      old.position.x === position.x &&
      old.position.y === position.y &&
      (old.selected ?? false) === isSelected &&
      old.deletable === node.deletable &&
      old.draggable === node.draggable &&
      sameData(old.data, node.data)
    ) {
      return old;
    }
    return { ...node, position, selected: isSelected, measured: old.measured, dragging: old.dragging };
  });
}

/** Same for edges; an edge keeps its selection across rebuilds. */
export function reconcileEdges<E extends Edge>(previous: readonly E[], next: readonly E[]): E[] {
  const byId = new Map(previous.map((e) => [e.id, e]));
  return next.map((edge) => {
    const old = byId.get(edge.id);
    if (!old) return edge;
    if (old.source === edge.source && old.target === edge.target && old.type === edge.type && sameData(old.data, edge.data)) return old;
    return old.selected ? { ...edge, selected: true } : edge;
  });
}

/** Shallow equality of node data, comparing arrays element by element. */
export function sameData(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    const x = a[key];
    const y = b[key];
    if (x === y) return true;
    return Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => v === y[i]);
  });
}
