import { parseExpr } from './exprParser';
import { complete, refOf, type ExprScope } from './exprRefs';
import type { Node } from './exprSyntax';
import { valueOf } from './exprValue';

/** A condition as a rules predicate (`self.state.x > 3`, `self.state.ok`, `not self.state.ok`), when it is that simple. */
export function toPredicate(expr: string, scope: ExprScope): { path: string; op: string; value?: unknown } | undefined {
  let n: Node;
  try {
    n = parseExpr(expr);
  } catch {
    return undefined;
  }
  const path = (x: Node) => {
    const r = complete(refOf(x, scope));
    return r !== undefined && (r.startsWith('state.') || r === 'input' || r.startsWith('input.')) ? r : undefined;
  };
  const direct = path(n);
  if (direct) return { path: direct, op: 'truthy' };
  if (n.k === 'not') {
    const p = path(n.e);
    return p ? { path: p, op: 'falsy' } : undefined;
  }
  if (n.k !== 'cmp' || n.rest.length !== 1) return undefined;
  const { op, r } = n.rest[0]!;
  const ops: Record<string, string> = { '==': 'eq', '!=': 'neq', '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte' };
  const flipped: Record<string, string> = { '>': 'lt', '>=': 'lte', '<': 'gt', '<=': 'gte', '==': 'eq', '!=': 'neq' };
  const lit = (x: Node) => {
    try {
      return { ok: true as const, v: valueOf(x) };
    } catch {
      return { ok: false as const };
    }
  };
  const lp = path(n.first);
  const rv = lit(r);
  if (lp && rv.ok) {
    if (op === 'is' && rv.v === null) return { path: lp, op: 'not_exists' };
    if (op === 'is not' && rv.v === null) return { path: lp, op: 'exists' };
    if (ops[op] && rv.v !== null && typeof rv.v !== 'object') return { path: lp, op: ops[op], value: rv.v };
  }
  const rp = path(r);
  const lv = lit(n.first);
  if (rp && lv.ok && typeof lv.v === 'string') {
    if (op === 'in') return { path: rp, op: 'contains', value: lv.v };
    if (op === 'not in') return { path: rp, op: 'not_contains', value: lv.v };
  }
  if (rp && lv.ok && flipped[op] && lv.v !== null && typeof lv.v !== 'object') return { path: rp, op: flipped[op], value: lv.v };
  return undefined;
}
