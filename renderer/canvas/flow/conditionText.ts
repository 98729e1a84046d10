import { gateOf, routeOf } from '../../commands/flow/conditionTree';

/** A listen condition as people read it: `draft`, `route yes`, `(a or b) and route retry`. */
export function conditionText(condition: unknown, nested = false): string {
  if (typeof condition === 'string') return condition;
  const route = routeOf(condition);
  if (route !== undefined) return `route ${route}`;
  const gate = gateOf(condition);
  if (gate) {
    const text = gate.members.map((m) => conditionText(m, true)).join(` ${gate.op} `);
    return nested && gate.members.length > 1 ? `(${text})` : text;
  }
  return condition === undefined ? 'nothing' : JSON.stringify(condition);
}
