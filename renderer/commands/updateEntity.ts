import { CommandRejected, type CrewCommand } from './command';
import { sameValue } from './sameValue';
import { agentsOf, entry, replaceAt, tasksOf, withPatch, type CrewDraft } from './crewDraft';
import { resolveNode } from './nodeRefs';

export type FieldPatch = Record<string, unknown>;
export type UpdateOptions = { coalesceKey?: string; label?: string };

/**
 * Sets fields of the agent or task drawn as `nodeId` (`undefined` removes a field, so defaults apply).
 * Ids change through `renameEntity`, which also updates references.
 */
export function updateEntity(nodeId: string, patch: FieldPatch, options: UpdateOptions = {}): CrewCommand {
  return {
    kind: 'crew',
    label: options.label ?? `Edit ${Object.keys(patch).join(', ')}`,
    coalesceKey: options.coalesceKey,
    perform(doc: CrewDraft) {
      if ('id' in patch) throw new CommandRejected('Ids are changed by renaming, which also updates references.');
      const ref = resolveNode(doc, nodeId);
      if (!ref) return doc;
      const list = ref.kind === 'agent' ? agentsOf(doc) : tasksOf(doc);
      const current = entry(list[ref.index] as object);
      if (Object.entries(patch).every(([key, value]) => sameValue((current as Record<string, unknown>)[key], value))) return doc;
      const next = replaceAt(list as object[], ref.index, withPatch(current, patch));
      return ref.kind === 'agent' ? { ...doc, agents: next } : { ...doc, tasks: next };
    },
  };
}
