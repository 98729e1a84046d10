import { methodNodeId } from '../../model/nodeIds';
import { CommandRejected, type FlowCommand } from '../command';
import { layoutOf, withPatch } from '../crewDraft';
import { ID_PATTERN } from '../freshId';
import { withLayout } from '../withLayout';
import { mapLeaves } from './conditionTree';
import { methodIndexOf, methodNodeIds, methodsOf, str, triggerOf } from './flowDraft';

export const METHOD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Changes a method's name and every listener that refers to it by name. Refuses invalid or taken names. */
export function renameMethod(nodeId: string, newName: string): FlowCommand {
  return {
    kind: 'flow',
    label: 'Rename method',
    perform(flow) {
      const index = methodIndexOf(flow, nodeId);
      const methods = methodsOf(flow);
      const method = methods[index];
      if (method === undefined) return flow;
      if (!METHOD_NAME_PATTERN.test(newName)) throw new CommandRejected('Method names may only contain letters, digits and _ (not starting with a digit).');
      const oldName = str(method.name);
      if (oldName === newName) return flow;
      if (methods.some((m, i) => i !== index && m.name === newName)) throw new CommandRejected(`Another method is already named "${newName}".`);
      // Listeners follow only when this method owned the name (not a later duplicate of it).
      const owned = oldName !== undefined && methods.findIndex((m) => m.name === oldName) === index;
      const next = methods.map((m, i) => {
        let out = i === index ? withPatch(m, { name: newName }) : m;
        const trigger = triggerOf(out);
        if (owned && 'listen' in trigger) {
          const listen = mapLeaves(trigger.listen, (leaf) => (leaf === oldName ? newName : leaf));
          if (listen !== trigger.listen) out = withPatch(out, { trigger: { ...trigger, listen } });
        }
        return out;
      });
      return { ...flow, methods: next };
    },
  };
}

/** Changes a method's id (run records and the canvas use it); its saved position moves with it. */
export function renameMethodId(nodeId: string, newId: string): FlowCommand {
  return {
    kind: 'flow',
    label: 'Rename method id',
    perform(flow) {
      const index = methodIndexOf(flow, nodeId);
      const methods = methodsOf(flow);
      const method = methods[index];
      const oldNodeId = methodNodeIds(flow)[index];
      if (method === undefined || oldNodeId === undefined) return flow;
      if (!ID_PATTERN.test(newId)) throw new CommandRejected('Ids may only contain letters, digits, _ and -.');
      if (method.id === newId) return flow;
      if (methods.some((m, i) => i !== index && m.id === newId)) throw new CommandRejected(`Another method already has the id "${newId}".`);
      const next = { ...flow, methods: methods.map((m, i) => (i === index ? withPatch(m, { id: newId }) : m)) };
      const position = layoutOf(flow)[oldNodeId];
      return position ? withLayout(next, { [oldNodeId]: undefined, [methodNodeId(newId)]: position }) : next;
    },
  };
}
