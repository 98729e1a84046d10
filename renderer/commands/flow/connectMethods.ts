import { parseGateNodeId } from '../../model/nodeIds';
import { CommandRejected, type FlowCommand } from '../command';
import { withPatch } from '../crewDraft';
import { addRef, gateOf, conditionAt, type ConditionRef } from './conditionTree';
import { isStart, methodIndexByKey, methodIndexOf, methodsOf, routesOf, str, triggerOf, withMethod, type FlowDraft } from './flowDraft';

/** Source handle ids of flow nodes: a method's completion, or one of a router's routes. */
export const FLOW_HANDLE = { in: 'in', out: 'out' } as const;
export const routeHandleId = (label: string) => `route:${label}`;
export const routeOfHandle = (handle: string | null | undefined) => (handle?.startsWith('route:') ? handle.slice('route:'.length) : undefined);

export type FlowConnectionPlan = { ok: true; next: FlowDraft } | { ok: false; reason: string };

/**
 * What dragging from `source` (a method's output, or a router's route handle) to `target` (a method,
 * or an and/or gate) means: the target listens to the source's method name or route. A start method
 * becomes a listener (unless it is the only start method: a flow needs one); a listener with a
 * condition gets an `or` of the old condition and the new reference (or one more member of its root
 * `or`/`and` gate); dropping on a gate adds the reference to that gate.
 */
export function planConnection(doc: FlowDraft, source: string, sourceHandle: string | null | undefined, target: string): FlowConnectionPlan {
  const methods = methodsOf(doc);
  const origin = methods[methodIndexOf(doc, source)];
  if (origin === undefined) return { ok: false, reason: 'Connections start at a method’s output or a router’s route.' };
  const route = routeOfHandle(sourceHandle);
  let ref: ConditionRef;
  if (route !== undefined) {
    if (!routesOf(origin).includes(route)) return { ok: false, reason: `The method has no route "${route}".` };
    ref = { route };
  } else {
    const name = str(origin.name);
    if (!name) return { ok: false, reason: 'Give the method a name first: listeners refer to methods by name.' };
    ref = name;
  }

  const gate = parseGateNodeId(target);
  const to = gate ? methodIndexByKey(doc, gate.methodKey) : methodIndexOf(doc, target);
  const listener = methods[to];
  if (listener === undefined) return { ok: false, reason: 'Connect to a method or an and/or gate.' };
  if (typeof ref === 'string' && ref === str(listener.name)) return { ok: false, reason: 'A method cannot listen to itself.' };

  const trigger = triggerOf(listener);
  let condition: unknown;
  if (gate) {
    if (!gateOf(conditionAt(trigger.listen, gate.path))) return { ok: false, reason: 'That gate is no longer there.' };
    condition = addRef(trigger.listen, ref, gate.path);
  } else if (isStart(listener) || !('listen' in trigger)) {
    const starts = methods.filter(isStart).length;
    if (isStart(listener) && starts <= 1) {
      return { ok: false, reason: `"${str(listener.name) ?? 'This method'}" is the only start method; a flow needs one. Add another method first.` };
    }
    condition = ref;
  } else {
    condition = addRef(trigger.listen, ref);
  }
  if (!isStart(listener) && condition === trigger.listen) return { ok: true, next: doc };
  return { ok: true, next: withMethod(doc, to, withPatch(listener, { trigger: { listen: condition } })) };
}

export function connectMethods(source: string, sourceHandle: string | null | undefined, target: string): FlowCommand {
  return {
    kind: 'flow',
    label: 'Connect',
    perform(doc) {
      const plan = planConnection(doc, source, sourceHandle, target);
      if (!plan.ok) throw new CommandRejected(plan.reason);
      return plan.next;
    },
  };
}
