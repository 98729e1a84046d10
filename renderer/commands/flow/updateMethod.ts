import { CommandRejected, type FlowCommand } from '../command';
import { withPatch } from '../crewDraft';
import { sameValue } from '../sameValue';
import type { FieldPatch, UpdateOptions } from '../updateEntity';
import { bodyOf, methodIndexOf, methodsOf, withMethod } from './flowDraft';

/**
 * Sets fields of the method drawn as `nodeId` (`undefined` removes one). Ids and names change through
 * `renameMethodId` / `renameMethod`, which also update what refers to them.
 */
export function updateMethod(nodeId: string, patch: FieldPatch, options: UpdateOptions = {}): FlowCommand {
  return {
    kind: 'flow',
    label: options.label ?? `Edit ${Object.keys(patch).join(', ')}`,
    coalesceKey: options.coalesceKey,
    perform(flow) {
      if ('id' in patch || 'name' in patch) throw new CommandRejected('Ids and names are changed by renaming, which also updates listeners.');
      const index = methodIndexOf(flow, nodeId);
      const method = methodsOf(flow)[index];
      if (method === undefined) return flow;
      if (Object.entries(patch).every(([k, v]) => sameValue(method[k], v))) return flow;
      return withMethod(flow, index, withPatch(method, patch));
    },
  };
}

/** Sets fields of the method's body (`undefined` removes one); the body kind changes through `setBodyKind`. */
export function updateBody(nodeId: string, patch: FieldPatch, options: UpdateOptions = {}): FlowCommand {
  return {
    kind: 'flow',
    label: options.label ?? `Edit ${Object.keys(patch).join(', ')}`,
    coalesceKey: options.coalesceKey,
    perform(flow) {
      if ('type' in patch) throw new CommandRejected('The body kind is changed with the kind selector.');
      const index = methodIndexOf(flow, nodeId);
      const method = methodsOf(flow)[index];
      if (method === undefined) return flow;
      const body = bodyOf(method);
      if (Object.entries(patch).every(([k, v]) => sameValue(body[k], v))) return flow;
      return withMethod(flow, index, withPatch(method, { body: withPatch(body, patch) }));
    },
  };
}
