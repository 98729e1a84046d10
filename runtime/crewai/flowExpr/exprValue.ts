import { parseExpr } from './exprParser';
import { UnsupportedPython, type Node } from './exprSyntax';

/** A Python literal value (numbers, strings, booleans, None, lists and dicts of them). */
export function toValue(expr: string): { ok: true; value: unknown } | { ok: false } {
  try {
    const v = valueOf(parseExpr(expr));
    return { ok: true, value: v };
  } catch {
    return { ok: false };
  }
}

/** The value of a literal's syntax tree; throws UnsupportedPython when it is not a literal. */
export function valueOf(n: Node): unknown {
  if (n.k === 'lit') return n.v;
  if (n.k === 'neg') {
    const v = valueOf(n.e);
    if (typeof v !== 'number') throw new UnsupportedPython('a negated non-number');
    return -v;
  }
  if (n.k === 'list') return n.items.map(valueOf);
  if (n.k === 'dict') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of n.entries) {
      const key = valueOf(k);
      if (typeof key !== 'string') throw new UnsupportedPython('a dict key');
      out[key] = valueOf(v);
    }
    return out;
  }
  throw new UnsupportedPython('not a literal');
}
