import type { CrewCommand } from '../command';
import { layoutOf, type CrewDraft, type Position } from '../crewDraft';
import { sameValue } from '../sameValue';

/** Saves positions computed elsewhere (ELK's, in its worker) as one undoable step. */
export function applyPositions(label: string, positions: Readonly<Record<string, Position>>): CrewCommand {
  return {
    kind: 'crew',
    label,
    perform(doc: CrewDraft) {
      const layout = { ...layoutOf(doc), ...positions };
      return sameValue(doc.layout, layout) ? doc : { ...doc, layout };
    },
  };
}
