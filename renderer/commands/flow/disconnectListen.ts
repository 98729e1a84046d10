import type { FlowCommand } from '../command';
import { withPatch } from '../crewDraft';
import { removePaths } from './conditionTree';
import { methodIndexByKey, methodsOf, triggerOf, withMethod, type FlowDraft } from './flowDraft';
import { triggerFor } from './listenerTrigger';

/** A listen edge: the listener (by method key) and the place of the reference in its condition. */
export type ListenRef = { listener: string; path: number[] };

/**
 * Removes the references the edges stand for from their listeners' conditions. A gate left with one
 * member becomes that member; a listener left with no condition becomes a start method (nothing
 * triggers it any more, so it runs when the flow starts — the same rule as a method just added).
 */
export function disconnectListens(refs: readonly ListenRef[]): FlowCommand {
  return {
    kind: 'flow',
    label: refs.length === 1 ? 'Remove connection' : `Remove ${refs.length} connections`,
    perform: (doc) => removeListenRefs(doc, refs),
  };
}

export function removeListenRefs(doc: FlowDraft, refs: readonly ListenRef[]): FlowDraft {
  const byListener = new Map<string, number[][]>();
  for (const ref of refs) byListener.set(ref.listener, [...(byListener.get(ref.listener) ?? []), ref.path]);
  let next = doc;
  for (const [listener, paths] of byListener) {
    const index = methodIndexByKey(next, listener);
    const method = methodsOf(next)[index];
    if (method === undefined) continue;
    const trigger = triggerOf(method);
    if (!('listen' in trigger)) continue;
    const condition = removePaths(trigger.listen, paths);
    if (condition === trigger.listen) continue;
    next = withMethod(next, index, withPatch(method, { trigger: triggerFor(condition) }));
  }
  return next;
}
