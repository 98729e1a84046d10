import type { CrewCommand } from './command';
import { layoutOf, type Position } from './crewDraft';
import type { DocumentDraft } from './documentDraft';
import { withLayout } from './withLayout';

/** Saves node positions (the canvas records a drag once, when it ends); `moveFlowNodes` is a flow's. */
export function moveNodes(positions: Readonly<Record<string, Position>>): CrewCommand {
  return { kind: 'crew', label: 'Move', perform: (doc) => withMovedNodes(doc, positions) };
}

/** The document (a crew or a flow) with the nodes that moved at their new positions; the same object when none did. */
export function withMovedNodes<D extends DocumentDraft>(doc: D, positions: Readonly<Record<string, Position>>): D {
  const layout = layoutOf(doc);
  const changed = Object.entries(positions).filter(([id, p]) => {
    const old = layout[id];
    return !old || old.x !== Math.round(p.x) || old.y !== Math.round(p.y);
  });
  if (changed.length === 0) return doc;
  return withLayout(doc, Object.fromEntries(changed));
}
