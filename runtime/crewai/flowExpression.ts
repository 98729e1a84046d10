import { parseExpr } from './flowExpr/exprParser';
import { complete, refOf, type ExprScope } from './flowExpr/exprRefs';
import type { Node } from './flowExpr/exprSyntax';

/**
 * Simple Python expressions of a CrewAI Flow method, read without running them: state and input
 * references (`self.state.x`, `result.raw`, `result["k"]`, the method's parameter), literals,
 * comparisons and boolean logic, arithmetic, f-strings and a few built-ins (len, str, int, float).
 * They become a Crewdeck template (`{state.x}`) where the value is text, or a JavaScript expression
 * for a QuickJS script. Anything else is `Unsupported`, and the method becomes a stub.
 */

export type { ExprScope } from './flowExpr/exprRefs';
export { UnsupportedPython } from './flowExpr/exprSyntax';
export { toJs } from './flowExpr/exprJs';
export { preludeFor } from './flowExpr/exprPrelude';
export { toPredicate } from './flowExpr/exprPredicate';

/**
 * The expression as a Crewdeck template when its value is text made of literals and references
 * (`"Book about {state.topic}"`); `undefined` when it is not that simple.
 */
export function toTemplate(expr: string, scope: ExprScope): string | undefined {
  let n: Node;
  try {
    n = parseExpr(expr);
  } catch {
    return undefined;
  }
  return templateOf(n, scope);
}

function templateOf(n: Node, scope: ExprScope): string | undefined {
  if (n.k === 'lit') return typeof n.v === 'string' && !/\{[A-Za-z_]/.test(n.v) ? n.v : undefined;
  if (n.k === 'fstr') {
    let out = '';
    for (const p of n.parts) {
      if (typeof p === 'string') {
        if (/\{[A-Za-z_]/.test(p)) return undefined;
        out += p;
      } else {
        const r = complete(refOf(p, scope));
        if (r === undefined) return undefined;
        out += `{${r}}`;
      }
    }
    return out;
  }
  if (n.k === 'bin' && n.op === '+') {
    const l = templateOf(n.l, scope);
    const r = templateOf(n.r, scope);
    return l !== undefined && r !== undefined && (isText(n.l, scope) || isText(n.r, scope)) ? l + r : undefined;
  }
  const r = complete(refOf(n, scope));
  return r === undefined ? undefined : `{${r}}`;
}

function isText(n: Node, scope: ExprScope): boolean {
  return (n.k === 'lit' && typeof n.v === 'string') || n.k === 'fstr' || (n.k === 'call' && n.f.k === 'name' && n.f.n === 'str') || refOf(n, scope) === 'input';
}

/** A reference path (`state.x`, `input.k`…) when the whole expression is one. */
export function toRef(expr: string, scope: ExprScope): string | undefined {
  try {
    return complete(refOf(parseExpr(expr), scope));
  } catch {
    return undefined;
  }
}
