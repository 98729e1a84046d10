import { parseExpr } from './exprParser';
import type { Node } from './exprSyntax';

/** What names mean in the method being read. */
export interface ExprScope {
  /** Names holding the method's input: its parameter, and after a crew kickoff the result's text. */
  input: Set<string>;
  /** Names bound to a crew kickoff result (`result.raw` is the input, `result["k"]` a field of it). */
  results: Set<string>;
  /** Inside a for_each helper: the item's and the index's names. */
  item?: string;
  index?: string;
  /** Local names assigned earlier in the method, with their expression. */
  locals: Map<string, string>;
}

export function emptyScope(): ExprScope {
  return { input: new Set(), results: new Set(), locals: new Map() };
}


/** A reference: `state.a.b`, `input`, `input.k` (the input read as JSON), `item`, `item.k`, `index`. */
export function refOf(n: Node, scope: ExprScope, depth = 0): string | undefined {
  if (depth > 20) return undefined;
  switch (n.k) {
    case 'name':
      if (scope.input.has(n.n) || scope.results.has(n.n)) return 'input';
      if (n.n === scope.item) return 'item';
      if (n.n === scope.index) return 'index';
      if (scope.locals.has(n.n)) {
        try {
          return refOf(parseExpr(scope.locals.get(n.n)!), scope, depth + 1);
        } catch {
          return undefined;
        }
      }
      return undefined;
    case 'attr': {
      if (n.o.k === 'name' && n.o.n === 'self' && n.a === 'state') return 'state';
      if (n.o.k === 'name' && scope.results.has(n.o.n)) {
        if (n.a === 'raw') return 'input';
        if (n.a === 'pydantic' || n.a === 'json_dict') return 'input.';
        return undefined;
      }
      const base = refOf(n.o, scope, depth + 1);
      if (base === undefined || base === 'input' || base === 'index') return undefined;
      return base.endsWith('.') ? `${base}${n.a}` : `${base}.${n.a}`;
    }
    case 'index': {
      if (n.i.k !== 'lit' || (typeof n.i.v !== 'string' && typeof n.i.v !== 'number')) return undefined;
      const key = String(n.i.v);
      if (!/^[A-Za-z0-9_-]+$/.test(key)) return undefined;
      if (n.o.k === 'name' && scope.results.has(n.o.n)) return `input.${key}`;
      const base = refOf(n.o, scope, depth + 1);
      if (base === undefined || base === 'index') return undefined;
      if (base === 'input') return `input.${key}`;
      return base.endsWith('.') ? `${base}${key}` : `${base}.${key}`;
    }
    case 'call':
      // str(x) is x as text; json.loads(input) is the input read as JSON.
      if (n.f.k === 'name' && n.f.n === 'str' && n.args.length === 1) return refOf(n.args[0]!, scope, depth + 1);
      if (n.f.k === 'attr' && n.f.a === 'loads' && n.f.o.k === 'name' && n.f.o.n === 'json' && n.args.length === 1 && refOf(n.args[0]!, scope, depth + 1) === 'input') return 'input.';
      return undefined;
    default:
      return undefined;
  }
}

/** A reference that names one value (not a JSON prefix like `input.`, not the whole state). */
export const complete = (ref: string | undefined) => (ref === undefined || ref.endsWith('.') || ref === 'state' ? undefined : ref);

