import { layoutOf, type Position } from './crewDraft';
import type { DocumentDraft } from './documentDraft';

/** The document (a crew or a flow) with layout entries set (a Position) or removed (undefined). */
export function withLayout<D extends DocumentDraft>(doc: D, changes: Record<string, Position | undefined>): D {
  if (doc.layout === undefined && Object.values(changes).every((p) => p === undefined)) return doc;
  const layout: Record<string, Position> = { ...layoutOf(doc) };
  for (const [nodeId, position] of Object.entries(changes)) {
    if (position === undefined) delete layout[nodeId];
    else layout[nodeId] = { x: Math.round(position.x), y: Math.round(position.y) };
  }
  return { ...doc, layout };
}
