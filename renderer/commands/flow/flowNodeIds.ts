import { gateNodeId } from '../../model/nodeIds';
import { gateOf } from './conditionTree';
import { keyedMethods, triggerOf, type FlowDraft } from './flowDraft';
import { methodNodeId } from '../../model/nodeIds';

/** The gates of a listener's condition: their places in it and their `and`/`or`, outermost first. */
export function gatesOf(condition: unknown): { path: number[]; op: 'and' | 'or'; members: unknown[] }[] {
  const out: { path: number[]; op: 'and' | 'or'; members: unknown[] }[] = [];
  const walk = (c: unknown, path: number[]) => {
    const g = gateOf(c);
    if (!g) return;
    out.push({ path, op: g.op, members: g.members });
    g.members.forEach((m, i) => walk(m, [...path, i]));
  };
  walk(condition, []);
  return out;
}

/** Every node the flow canvas draws: methods, then the gates of their listen conditions. */
export function flowNodeIds(doc: FlowDraft): string[] {
  const methods = keyedMethods(doc);
  const gates = methods.flatMap(({ method, key }) => gatesOf(triggerOf(method).listen).map((g) => gateNodeId(key, g.path)));
  return [...methods.map(({ key }) => methodNodeId(key)), ...gates];
}
