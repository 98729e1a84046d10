import type { CrewCommand } from './command';
import { withPatch, type CrewDraft } from './crewDraft';
import { sameValue } from './sameValue';
import type { FieldPatch, UpdateOptions } from './updateEntity';

/** Sets top-level crew fields (name, process, manager, inputs, memory…). */
export function updateCrew(patch: FieldPatch, options: UpdateOptions = {}): CrewCommand {
  return {
    kind: 'crew',
    label: options.label ?? `Edit crew ${Object.keys(patch).join(', ')}`,
    coalesceKey: options.coalesceKey,
    perform(doc: CrewDraft) {
      if (Object.entries(patch).every(([key, value]) => sameValue((doc as Record<string, unknown>)[key], value))) return doc;
      return withPatch(doc, patch);
    },
  };
}
