import type { FlowCommand } from '../command';
import { withPatch } from '../crewDraft';
import { setOpAt, type GateOp } from './conditionTree';
import { methodIndexByKey, methodsOf, triggerOf, withMethod } from './flowDraft';

/** Switches a gate of a listener's condition between `or` (any member) and `and` (all members). */
export function setGateOp(listener: string, path: readonly number[], op: GateOp): FlowCommand {
  return {
    kind: 'flow',
    label: `Make gate "${op}"`,
    perform(flow) {
      const index = methodIndexByKey(flow, listener);
      const method = methodsOf(flow)[index];
      if (method === undefined) return flow;
      const trigger = triggerOf(method);
      const condition = setOpAt(trigger.listen, path, op);
      if (condition === trigger.listen) return flow;
      return withMethod(flow, index, withPatch(method, { trigger: { ...trigger, listen: condition } }));
    },
  };
}
