import type { Command } from './command';
import { layoutOf, type CrewDraft, type Position } from './crewDraft';
import { withLayout } from './withLayout';

/** Saves node positions (the canvas records a drag once, when it ends). */
export function moveNodes(positions: Readonly<Record<string, Position>>): Command {
  return {
    label: 'Move',
    perform(doc: CrewDraft) {
      const layout = layoutOf(doc);
      const changed = Object.entries(positions).filter(([id, p]) => {
        const old = layout[id];
        return !old || old.x !== Math.round(p.x) || old.y !== Math.round(p.y);
      });
      if (changed.length === 0) return doc;
      return withLayout(doc, Object.fromEntries(changed));
    },
  };
}
