import { toTemplate, type ExprScope } from '../flowExpression';
import type { PyStatement } from '../pythonSource';
import { Unmappable } from './unmappable';

/** A loop's variables and the list it runs over: `x in items`, or `i, x in enumerate(items)`. */
export interface LoopTarget {
  item: string;
  index: string | undefined;
  /** The list expression (without `enumerate(…)`), trimmed. */
  list: string;
}

/** Reads `vars in source` of a loop at `at`; `pairsWhy` says why a loop over other pairs is not read. */
export function loopTarget(vars: string, source: string, at: PyStatement, pairsWhy: string): LoopTarget {
  const enumerated = /^enumerate\(([\s\S]+)\)$/.exec(source.trim());
  if (enumerated) {
    const [a, b] = vars.split(',').map((v) => v.trim());
    if (!b) throw new Unmappable(at, 'enumerate() with one loop variable');
    return { index: a, item: b, list: enumerated[1]!.trim() };
  }
  if (vars.includes(',')) throw new Unmappable(at, pairsWhy);
  return { index: undefined, item: vars.trim(), list: source.trim() };
}

/** The template of the state (or input) list a loop runs over; undefined when `list` is not one. */
export function stateList(list: string, scope: ExprScope): string | undefined {
  const items = toTemplate(list, scope);
  return items === undefined || !/^\{(state|input)[^}]*\}$/.test(items) ? undefined : items;
}
