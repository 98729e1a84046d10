import type { FlowMethod } from '../../shared/model/flow';
import type { BodyOutcome } from './bodies/types';
import type { ActiveCall, CheckpointOp, ItemsRef } from './flowCheckpoint';
import { FlowRouteInvalid } from './flowErrors';
import { setOps, type StateOp } from './stateOps';

type DoneOutcome = Extract<BodyOutcome, { kind: 'done' }>;

/** The route a router chose (undefined for a method that is not a router); a missing or unknown route throws. */
export function chosenRoute(method: FlowMethod, outcome: DoneOutcome): string | undefined {
  if (!method.routes) return undefined;
  if (outcome.route === undefined) throw new FlowRouteInvalid(`router "${method.name}" chose no route; it must choose one of: ${method.routes.join(', ')}`);
  if (!method.routes.includes(outcome.route)) throw new FlowRouteInvalid(`router "${method.name}" chose "${outcome.route}", which is not one of its routes (${method.routes.join(', ')})`);
  return outcome.route;
}

/** A body's changes to the state as operations: its `set` fields, then its finer operations. */
export function outcomeOps(outcome: DoneOutcome): StateOp[] {
  return [...setOps(outcome.set), ...(outcome.ops ?? [])];
}

/** A for_each's results as a reference to its item entries, when every item is among them (else undefined: written out). */
export function itemsRef(call: ActiveCall, outcome: DoneOutcome): ItemsRef | undefined {
  if (outcome.itemsInto === undefined) return undefined;
  const list = outcome.set?.[outcome.itemsInto];
  if (!Array.isArray(list) || !call.items) return undefined;
  const done = call.items;
  return list.every((_, i) => Object.hasOwn(done, String(i))) ? { items: call.key, count: list.length } : undefined;
}

/** The operations as a checkpoint holds them: the for_each's list (`set` of `into`) as a reference to its items. */
export function withItemsRef(ops: StateOp[], into: string | undefined, items: ItemsRef): CheckpointOp[] {
  return ops.map((op) => (op.op === 'set' && op.path.length === 1 && op.path[0] === into ? { op: 'items', path: op.path, ...items } : op));
}
