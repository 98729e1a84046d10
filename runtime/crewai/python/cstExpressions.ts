import type { Node } from 'web-tree-sitter';
import type { FPart, PyArg, PyComprehensionFor, PyExpr, PyParam, Pos } from './pyAst';
import { decodeStringBody, stringPrefix } from './pyStrings';

/** Where a tree-sitter node is, as 1-based line and column, with its text. */
export function pos(n: Node): Pos {
  return { line: n.startPosition.row + 1, col: n.startPosition.column + 1, endLine: n.endPosition.row + 1, endCol: n.endPosition.column + 1, start: n.startIndex, end: n.endIndex };
}

/** The named children that are not comments. */
export function named(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment' && c.type !== 'line_continuation');
}

const field = (n: Node, name: string): Node | null => n.childForFieldName(name);

function unknown(n: Node, what: string): PyExpr {
  return { ...pos(n), k: 'unknown', what };
}

/** A tree-sitter expression (or pattern) node as a PyExpr. */
export function expr(n: Node | null | undefined, depth = 0): PyExpr {
  if (!n) return { line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0, k: 'unknown', what: 'a missing expression' };
  // A downloaded project is untrusted: an expression nested past anything a person writes is not followed.
  if (depth > 200) return unknown(n, 'an expression nested more than 200 deep');
  const d = depth + 1;
  const p = pos(n);
  switch (n.type) {
    case 'identifier':
      return { ...p, k: 'name', id: n.text };
    case 'integer':
      return intLiteral(n);
    case 'float':
      return /[jJ]$/.test(n.text) ? unknown(n, 'a complex number') : { ...p, k: 'const', v: Number(n.text.replace(/_/g, '')) };
    case 'true':
    case 'false':
      return { ...p, k: 'const', v: n.type === 'true' };
    case 'none':
      return { ...p, k: 'const', v: null };
    case 'ellipsis':
      return { ...p, k: 'ellipsis' };
    case 'string':
      return stringNode(n, d);
    case 'concatenated_string':
      return concatenated(n, d);
    case 'attribute': {
      const name = field(n, 'attribute');
      return name ? { ...p, k: 'attr', obj: expr(field(n, 'object'), d), name: name.text } : unknown(n, 'an attribute');
    }
    case 'subscript':
      return subscript(n, d);
    case 'slice':
      return slice(n, d);
    case 'call':
      return call(n, d);
    case 'parenthesized_expression': {
      const inner = named(n);
      return inner.length === 1 ? expr(inner[0], d) : unknown(n, 'a parenthesized expression');
    }
    case 'list':
    case 'set':
    case 'tuple':
    case 'expression_list':
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
      return { ...p, k: n.type === 'list' || n.type === 'list_pattern' ? 'list' : n.type === 'set' ? 'set' : 'tuple', items: named(n).map((c) => expr(c, d)) };
    case 'dictionary':
      return dictionary(n, d);
    case 'list_comprehension':
    case 'set_comprehension':
    case 'generator_expression':
    case 'dictionary_comprehension':
      return comprehension(n, d);
    default:
      return operatorExpr(n, d) ?? annotationExpr(n, d) ?? unknown(n, n.isError || n.isMissing ? 'a syntax error' : n.type.replace(/_/g, ' '));
  }
}

/** Operators, and the expressions built around one (lambda, conditional, await, splats, walrus); undefined for other nodes. */
function operatorExpr(n: Node, d: number): PyExpr | undefined {
  const p = pos(n);
  switch (n.type) {
    case 'binary_operator':
      return { ...p, k: 'bin', op: field(n, 'operator')?.text ?? '?', l: expr(field(n, 'left'), d), r: expr(field(n, 'right'), d) };
    case 'boolean_operator':
      return { ...p, k: 'bool', op: field(n, 'operator')?.text === 'and' ? 'and' : 'or', l: expr(field(n, 'left'), d), r: expr(field(n, 'right'), d) };
    case 'not_operator':
      return { ...p, k: 'not', e: expr(field(n, 'argument'), d) };
    case 'unary_operator':
      return unaryNode(n, d);
    case 'comparison_operator':
      return comparison(n, d);
    case 'lambda':
      return { ...p, k: 'lambda', params: params(field(n, 'parameters'), d), body: expr(field(n, 'body'), d) };
    case 'conditional_expression': {
      const [body, test, orelse] = named(n);
      return { ...p, k: 'ifexp', body: expr(body, d), test: expr(test, d), orelse: expr(orelse, d) };
    }
    case 'await':
      return { ...p, k: 'await', e: expr(named(n)[0], d) };
    case 'list_splat':
    case 'list_splat_pattern':
      return { ...p, k: 'star', e: expr(named(n)[0], d) };
    case 'dictionary_splat':
    case 'dictionary_splat_pattern':
      return { ...p, k: 'dstar', e: expr(named(n)[0], d) };
    case 'named_expression': {
      const name = field(n, 'name');
      return name ? { ...p, k: 'walrus', target: name.text, value: expr(field(n, 'value'), d) } : unknown(n, 'an assignment expression');
    }
    case 'keyword_argument':
      return unknown(n, 'a keyword argument outside a call');
    default:
      return undefined;
  }
}

/** Type annotations: `int`, `list[str]`, `str | None`, `typing.Optional[X]`; undefined for other nodes. */
function annotationExpr(n: Node, d: number): PyExpr | undefined {
  const p = pos(n);
  switch (n.type) {
    case 'type': {
      const inner = named(n);
      return inner.length === 1 ? expr(inner[0], d) : unknown(n, 'a type');
    }
    case 'generic_type': {
      const [base, parameter] = named(n);
      const items = parameter ? named(parameter).map((c) => expr(c, d)) : [];
      const index: PyExpr = items.length === 1 ? items[0]! : { ...p, k: 'tuple', items };
      return { ...p, k: 'sub', obj: expr(base, d), index };
    }
    case 'union_type': {
      const [l, r] = named(n);
      return { ...p, k: 'bin', op: '|', l: expr(l, d), r: expr(r, d) };
    }
    case 'member_type': {
      const [obj, name] = named(n);
      return name ? { ...p, k: 'attr', obj: expr(obj, d), name: name.text } : unknown(n, 'a type');
    }
    default:
      return undefined;
  }
}

function intLiteral(n: Node): PyExpr {
  const t = n.text.replace(/_/g, '').replace(/[lL]$/, '');
  let v: number;
  if (/^0[xX]/.test(t)) v = parseInt(t.slice(2), 16);
  else if (/^0[oO]/.test(t)) v = parseInt(t.slice(2), 8);
  else if (/^0[bB]/.test(t)) v = parseInt(t.slice(2), 2);
  else if (/[jJ]$/.test(t)) return unknown(n, 'a complex number');
  else v = Number(t);
  return Number.isFinite(v) ? { ...pos(n), k: 'const', v } : unknown(n, 'a number');
}

function unaryNode(n: Node, d: number): PyExpr {
  const op = field(n, 'operator')?.text ?? '-';
  const arg = expr(field(n, 'argument'), d);
  // -1 is a constant, as Python's own reader folds it for literal_eval.
  if (op === '-' && arg.k === 'const' && typeof arg.v === 'number') return { ...pos(n), k: 'const', v: -arg.v };
  return { ...pos(n), k: 'unary', op, e: arg };
}

function stringNode(n: Node, d: number): PyExpr {
  const p = pos(n);
  const start = n.children.find((c) => c?.type === 'string_start');
  const prefix = stringPrefix(start?.text ?? '"');
  const raw = prefix.includes('r');
  if (!prefix.includes('f')) {
    let text = '';
    for (const c of n.children) if (c?.type === 'string_content') text += decodeStringBody(c.text, raw);
    return { ...p, k: 'const', v: text, ...(prefix.includes('b') ? { bytes: true } : {}) };
  }
  return { ...p, k: 'fstr', parts: fParts(n, raw, d) };
}

/** The parts of an f-string (or of a format spec, which may itself hold `{expressions}`). */
function fParts(n: Node, raw: boolean, d: number): FPart[] {
  const parts: FPart[] = [];
  const text = (t: string) => {
    if (t === '') return;
    const last = parts[parts.length - 1];
    if (typeof last === 'string') parts[parts.length - 1] = last + t;
    else parts.push(t);
  };
  for (const c of n.children) {
    if (!c) continue;
    if (c.type === 'string_content') {
      // `{{` and `}}` are escape_interpolation children: decode the text between them.
      let at = c.startIndex;
      for (const e of c.children) {
        if (e?.type !== 'escape_interpolation') continue;
        text(decodeStringBody(c.text.slice(at - c.startIndex, e.startIndex - c.startIndex), raw));
        text(e.text.charAt(0));
        at = e.endIndex;
      }
      text(decodeStringBody(c.text.slice(at - c.startIndex), raw));
    } else if (c.type === 'interpolation' || c.type === 'format_expression') {
      const e = expr(field(c, 'expression'), d);
      const conv = field(c, 'type_conversion')?.text.slice(1);
      const specNode = field(c, 'format_specifier');
      const spec = specNode ? formatSpec(specNode, raw, d) : undefined;
      parts.push({ e, ...(conv ? { conv } : {}), ...(spec ? { spec } : {}) });
    }
  }
  return parts;
}

/** `:>{width}` → [">", {width}] (the colon dropped). */
function formatSpec(n: Node, raw: boolean, d: number): FPart[] {
  const parts: FPart[] = [];
  let at = n.startIndex + 1;
  for (const c of n.children) {
    if (!c || c.type !== 'format_expression') continue;
    if (c.startIndex > at) parts.push(n.text.slice(at - n.startIndex, c.startIndex - n.startIndex));
    parts.push({ e: expr(field(c, 'expression'), d) });
    at = c.endIndex;
  }
  if (n.endIndex > at) parts.push(n.text.slice(at - n.startIndex));
  void raw;
  return parts;
}

function concatenated(n: Node, d: number): PyExpr {
  const pieces = named(n).map((c) => expr(c, d));
  if (pieces.every((x) => x.k === 'const')) {
    const bytes = pieces.some((x) => x.k === 'const' && x.bytes);
    return { ...pos(n), k: 'const', v: pieces.map((x) => (x.k === 'const' ? String(x.v) : '')).join(''), ...(bytes ? { bytes } : {}) };
  }
  const parts: FPart[] = [];
  for (const x of pieces) {
    if (x.k === 'const') parts.push(String(x.v));
    else if (x.k === 'fstr') parts.push(...x.parts);
  }
  return { ...pos(n), k: 'fstr', parts };
}

function subscript(n: Node, d: number): PyExpr {
  const value = expr(field(n, 'value'), d);
  const indexes = n.childrenForFieldName('subscript').filter((c): c is Node => c !== null);
  const p = pos(n);
  if (indexes.length === 1) return { ...p, k: 'sub', obj: value, index: expr(indexes[0], d) };
  // a[x, y] indexes with a tuple.
  return { ...p, k: 'sub', obj: value, index: { ...p, k: 'tuple', items: indexes.map((c) => expr(c, d)) } };
}

function slice(n: Node, d: number): PyExpr {
  // Children in order: [lo] ':' [hi] [':' [step]].
  const out: (PyExpr | undefined)[] = [undefined, undefined, undefined];
  let slot = 0;
  for (const c of n.children) {
    if (!c) continue;
    if (c.type === ':') slot += 1;
    else if (c.isNamed && c.type !== 'comment') out[slot] = expr(c, d);
  }
  const [lo, hi, step] = out;
  return { ...pos(n), k: 'slice', ...(lo ? { lo } : {}), ...(hi ? { hi } : {}), ...(step ? { step } : {}) };
}

function call(n: Node, d: number): PyExpr {
  const fn = expr(field(n, 'function'), d);
  const argsNode = field(n, 'arguments');
  const args: PyArg[] = [];
  if (argsNode?.type === 'generator_expression') args.push({ kind: 'pos', e: expr(argsNode, d) });
  else if (argsNode) {
    for (const a of named(argsNode)) {
      if (a.type === 'keyword_argument') args.push({ kind: 'kw', name: field(a, 'name')?.text ?? '', e: expr(field(a, 'value'), d) });
      else if (a.type === 'list_splat') args.push({ kind: 'star', e: expr(named(a)[0], d) });
      else if (a.type === 'dictionary_splat') args.push({ kind: 'dstar', e: expr(named(a)[0], d) });
      else args.push({ kind: 'pos', e: expr(a, d) });
    }
  }
  return { ...pos(n), k: 'call', fn, args };
}

function comparison(n: Node, d: number): PyExpr {
  const operands = named(n).map((c) => expr(c, d));
  // "not in" and "is not" are one token each; spacing inside them is normalised.
  const ops = n.childrenForFieldName('operators').filter((c): c is Node => c !== null).map((c) => c.text.replace(/\s+/g, ' '));
  const [first, ...rest] = operands;
  return { ...pos(n), k: 'cmp', first: first ?? unknown(n, 'a comparison'), rest: rest.map((r, i) => ({ op: ops[i] === '<>' ? '!=' : (ops[i] ?? '=='), r })) };
}

function dictionary(n: Node, d: number): PyExpr {
  const entries = named(n).map((c) =>
    c.type === 'pair' ? { key: expr(field(c, 'key'), d), value: expr(field(c, 'value'), d) } : { spread: expr(c.type === 'dictionary_splat' ? named(c)[0] : c, d) },
  );
  return { ...pos(n), k: 'dict', entries };
}

function comprehension(n: Node, d: number): PyExpr {
  const kind = n.type === 'list_comprehension' ? 'list' : n.type === 'set_comprehension' ? 'set' : n.type === 'dictionary_comprehension' ? 'dict' : 'gen';
  const body = field(n, 'body');
  const gens: PyComprehensionFor[] = [];
  for (const c of named(n)) {
    if (c.type === 'for_in_clause') {
      const rights = c.childrenForFieldName('right').filter((x): x is Node => x !== null && x.isNamed);
      const iter = rights.length === 1 ? expr(rights[0], d) : { ...pos(c), k: 'tuple' as const, items: rights.map((x) => expr(x, d)) };
      gens.push({ target: expr(field(c, 'left'), d), iter, ifs: [], isAsync: c.children.some((x) => x?.type === 'async') });
    } else if (c.type === 'if_clause') gens[gens.length - 1]?.ifs.push(expr(named(c)[0], d));
  }
  if (kind === 'dict' && body?.type === 'pair') {
    return { ...pos(n), k: 'comp', kind, elt: expr(field(body, 'key'), d), value: expr(field(body, 'value'), d), gens };
  }
  return { ...pos(n), k: 'comp', kind, elt: expr(body, d), gens };
}

/** Function or lambda parameters. */
export function params(n: Node | null, d = 0): PyParam[] {
  if (!n) return [];
  const out: PyParam[] = [];
  for (const c of named(n)) {
    switch (c.type) {
      case 'identifier':
        out.push({ name: c.text, kind: 'normal' });
        break;
      case 'typed_parameter': {
        const inner = named(c)[0];
        const kind = inner?.type === 'list_splat_pattern' ? 'star' : inner?.type === 'dictionary_splat_pattern' ? 'dstar' : 'normal';
        const name = kind === 'normal' ? (inner?.text ?? '') : (inner ? named(inner)[0]?.text ?? '' : '');
        out.push({ name, kind, annotation: expr(field(c, 'type'), d) });
        break;
      }
      case 'default_parameter':
      case 'typed_default_parameter':
        out.push({ name: field(c, 'name')?.text ?? '', kind: 'normal', default: expr(field(c, 'value'), d), ...(field(c, 'type') ? { annotation: expr(field(c, 'type'), d) } : {}) });
        break;
      case 'list_splat_pattern':
        out.push({ name: named(c)[0]?.text ?? '', kind: 'star' });
        break;
      case 'dictionary_splat_pattern':
        out.push({ name: named(c)[0]?.text ?? '', kind: 'dstar' });
        break;
      default:
        break;
    }
  }
  return out;
}
