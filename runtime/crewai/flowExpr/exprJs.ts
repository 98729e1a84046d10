import { parseExpr } from './exprParser';
import { complete, refOf, type ExprScope } from './exprRefs';
import { UnsupportedPython, type Node } from './exprSyntax';

/** The JavaScript for an expression (state as `state`, the input as `input`, its JSON fields through `__json()`). */
export function toJs(expr: string, scope: ExprScope): string {
  return jsOf(parseExpr(expr), scope);
}

const CMP: Record<string, string> = { '==': '===', '!=': '!==', '<': '<', '<=': '<=', '>': '>', '>=': '>=', is: '===', 'is not': '!==' };

function jsRef(ref: string): string {
  const [head, ...rest] = ref.split('.');
  const path = rest.map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join('');
  if (head === 'state') return `state${path}`;
  if (head === 'input') return rest.length === 0 ? 'input' : `__json()${path}`;
  throw new UnsupportedPython(`{${ref}} outside a for_each`);
}

function jsOf(n: Node, scope: ExprScope): string {
  const ref = complete(refOf(n, scope));
  if (ref !== undefined && n.k !== 'call') return jsRef(ref);
  switch (n.k) {
    case 'lit':
      return JSON.stringify(n.v);
    case 'fstr':
      return `(${n.parts.map((p) => (typeof p === 'string' ? JSON.stringify(p) : `__str(${jsOf(p, scope)})`)).join(' + ') || '""'})`;
    case 'list':
      return `[${n.items.map((i) => jsOf(i, scope)).join(', ')}]`;
    case 'dict':
      return `({${n.entries.map(([k, v]) => `[${jsOf(k, scope)}]: ${jsOf(v, scope)}`).join(', ')}})`;
    case 'not':
      return `!__truthy(${jsOf(n.e, scope)})`;
    case 'neg':
      return `(-${jsOf(n.e, scope)})`;
    case 'bin': {
      const l = jsOf(n.l, scope);
      const r = jsOf(n.r, scope);
      if (n.op === 'and') return `(__truthy(${l}) ? ${r} : ${l})`;
      if (n.op === 'or') return `(__truthy(${l}) ? ${l} : ${r})`;
      if (n.op === '//') return `Math.floor(${l} / ${r})`;
      // Python's + joins lists (JavaScript's would make text of them); with a number or text literal it cannot be lists.
      if (n.op === '+' && !isScalarLiteral(n.l) && !isScalarLiteral(n.r)) return `__add(${l}, ${r})`;
      return `(${l} ${n.op} ${r})`;
    }
    case 'cmp': {
      const parts: string[] = [];
      let left = jsOf(n.first, scope);
      for (const { op, r } of n.rest) {
        const right = jsOf(r, scope);
        if (op === 'in') parts.push(`__in(${left}, ${right})`);
        else if (op === 'not in') parts.push(`!__in(${left}, ${right})`);
        else parts.push(`(${left} ${CMP[op]} ${right})`);
        left = right;
      }
      return parts.length === 1 ? parts[0]! : `(${parts.join(' && ')})`;
    }
    case 'call': {
      if (n.f.k === 'name') {
        const [a] = n.args;
        if (a !== undefined && n.args.length === 1) {
          if (n.f.n === 'len') return `${jsOf(a, scope)}.length`;
          if (n.f.n === 'str') return `__str(${jsOf(a, scope)})`;
          if (n.f.n === 'int') return `Math.trunc(Number(${jsOf(a, scope)}))`;
          if (n.f.n === 'float') return `Number(${jsOf(a, scope)})`;
          if (n.f.n === 'bool') return `__truthy(${jsOf(a, scope)})`;
        }
        if (n.f.n === 'min' || n.f.n === 'max') return `Math.${n.f.n}(${n.args.map((x) => jsOf(x, scope)).join(', ')})`;
      }
      if (n.f.k === 'attr') {
        const o = jsOf(n.f.o, scope);
        const method: Record<string, string> = { strip: 'trim', lower: 'toLowerCase', upper: 'toUpperCase' };
        if (n.args.length === 0 && method[n.f.a]) return `__str(${o}).${method[n.f.a]}()`;
        const [first, second] = n.args;
        if (first !== undefined && n.args.length === 1) {
          if (n.f.a === 'join') return `${jsOf(first, scope)}.map(__str).join(${o})`;
          if (n.f.a === 'startswith') return `__str(${o}).startsWith(${jsOf(first, scope)})`;
          if (n.f.a === 'endswith') return `__str(${o}).endsWith(${jsOf(first, scope)})`;
        }
        if (first !== undefined && n.f.a === 'get' && (n.args.length === 1 || n.args.length === 2)) return `(${o}?.[${jsOf(first, scope)}] ?? ${second ? jsOf(second, scope) : 'null'})`;
      }
      throw new UnsupportedPython('a call');
    }
    case 'name':
      if (scope.locals.has(n.n)) return `__local_${n.n}`;
      throw new UnsupportedPython(`the name ${n.n}`);
    case 'attr':
    case 'index':
      throw new UnsupportedPython('a reference');
  }
}

const isScalarLiteral = (n: Node) => (n.k === 'lit' && (typeof n.v === 'number' || typeof n.v === 'string')) || n.k === 'fstr';
