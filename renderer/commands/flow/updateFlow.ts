import type { FlowCommand } from '../command';
import { withPatch } from '../crewDraft';
import { sameValue } from '../sameValue';
import type { FieldPatch, UpdateOptions } from '../updateEntity';

/** Sets top-level flow fields (id, name, description, state…), as `updateCrew` does for a crew. */
export function updateFlow(patch: FieldPatch, options: UpdateOptions = {}): FlowCommand {
  return {
    kind: 'flow',
    label: options.label ?? `Edit flow ${Object.keys(patch).join(', ')}`,
    coalesceKey: options.coalesceKey,
    perform(doc) {
      if (Object.entries(patch).every(([key, value]) => sameValue(doc[key], value))) return doc;
      return withPatch(doc, patch);
    },
  };
}
