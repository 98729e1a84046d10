import type { Node } from 'web-tree-sitter';
import { expr, named, params, pos } from './cstExpressions';
import type { PyExceptHandler, PyExpr, PyStmt } from './pyAst';

const field = (n: Node, name: string): Node | null => n.childForFieldName(name);
const MAX_BLOCK_DEPTH = 100;

/** The statements of a module or block node. */
export function block(n: Node | null, depth = 0): PyStmt[] {
  if (!n) return [];
  if (depth > MAX_BLOCK_DEPTH) return [{ ...pos(n), k: 'unknown', what: `blocks nested more than ${MAX_BLOCK_DEPTH} deep` }];
  const out: PyStmt[] = [];
  for (const c of named(n)) {
    if (c.type !== 'ERROR') {
      out.push(...stmt(c, depth + 1));
      continue;
    }
    // What tree-sitter could not fit is one unknown statement; whole statements it recovered inside stay.
    out.push({ ...pos(c), k: 'unknown', what: 'a syntax error' });
    // A cursor reads each child's type without building a node for it (an ERROR node may have 100k children).
    const cursor = c.walk();
    try {
      for (let more = cursor.gotoFirstChild(); more; more = cursor.gotoNextSibling()) {
        if (STATEMENT.test(cursor.nodeType)) out.push(...stmt(cursor.currentNode, depth + 1));
      }
    } finally {
      cursor.delete();
    }
  }
  return out;
}

const STATEMENT = /_statement$|^(function_definition|class_definition|decorated_definition)$/;

function stmt(n: Node, depth: number): PyStmt[] {
  const p = pos(n);
  switch (n.type) {
    case 'expression_statement':
      return [expressionStatement(n)];
    case 'return_statement': {
      const v = named(n)[0];
      return [{ ...p, k: 'return', ...(v ? { value: expr(v) } : {}) }];
    }
    case 'pass_statement':
      return [{ ...p, k: 'pass' }];
    case 'break_statement':
      return [{ ...p, k: 'break' }];
    case 'continue_statement':
      return [{ ...p, k: 'continue' }];
    case 'if_statement':
      return [ifStatement(n, depth)];
    case 'for_statement':
      return [
        { ...p, k: 'for', target: expr(field(n, 'left')), iter: expr(field(n, 'right')), body: block(field(n, 'body'), depth), orelse: elseBody(field(n, 'alternative'), depth), isAsync: isAsync(n) },
      ];
    case 'while_statement':
      return [{ ...p, k: 'while', test: expr(field(n, 'condition')), body: block(field(n, 'body'), depth), orelse: elseBody(field(n, 'alternative'), depth) }];
    case 'with_statement':
      return [withStatement(n, depth)];
    case 'try_statement':
      return [tryStatement(n, depth)];
    case 'raise_statement': {
      const v = named(n)[0];
      return [{ ...p, k: 'raise', ...(v ? { e: expr(v) } : {}) }];
    }
    case 'function_definition':
      return [definition(n, [], depth)];
    case 'class_definition':
      return [classDefinition(n, [], depth)];
    case 'decorated_definition': {
      const decorators = named(n)
        .filter((c) => c.type === 'decorator')
        .map((c) => expr(named(c)[0]));
      const def = field(n, 'definition');
      if (!def) return [{ ...p, k: 'unknown', what: 'a decorated definition' }];
      const out = def.type === 'class_definition' ? classDefinition(def, decorators, depth) : definition(def, decorators, depth);
      // The definition's position starts at its first decorator, as Python's does for the lines it spans.
      return [{ ...out, start: n.startIndex }];
    }
    case 'import_statement':
      return [{ ...p, k: 'import', names: importNames(n.childrenForFieldName('name')) }];
    case 'import_from_statement':
      return [importFrom(n)];
    case 'future_import_statement':
      return [];
    case 'global_statement':
    case 'nonlocal_statement':
      return [{ ...p, k: n.type === 'global_statement' ? 'global' : 'nonlocal', names: named(n).map((c) => c.text) }];
    case 'delete_statement':
      return [{ ...p, k: 'del', targets: named(n).flatMap((c) => (c.type === 'expression_list' ? named(c).map((x) => expr(x)) : [expr(c)])) }];
    case 'assert_statement': {
      const [test, msg] = named(n);
      return [{ ...p, k: 'assert', test: expr(test), ...(msg ? { msg: expr(msg) } : {}) }];
    }
    default:
      return [{ ...p, k: 'unknown', what: n.isError || n.isMissing ? 'a syntax error' : n.type.replace(/_statement$/, ' statement').replace(/_/g, ' ') }];
  }
}

function isAsync(n: Node): boolean {
  return n.children.some((c) => c?.type === 'async');
}

function expressionStatement(n: Node): PyStmt {
  const p = pos(n);
  const inner = named(n)[0];
  if (!inner) return { ...p, k: 'unknown', what: 'an empty statement' };
  if (inner.type === 'assignment') {
    const targets: PyExpr[] = [];
    let cur: Node | null = inner;
    let annotation: PyExpr | undefined;
    while (cur && cur.type === 'assignment') {
      targets.push(expr(field(cur, 'left')));
      const type = field(cur, 'type');
      if (type && annotation === undefined) annotation = expr(type);
      const right = field(cur, 'right');
      if (!right) return { ...p, k: 'annassign', target: targets[0]!, annotation: annotation ?? expr(type) };
      cur = right;
    }
    if (cur?.type === 'augmented_assignment') return { ...p, k: 'unknown', what: 'an augmented assignment inside an assignment' };
    if (cur?.type === 'yield') return { ...p, k: 'unknown', what: 'yield' };
    return { ...p, k: 'assign', targets, value: expr(cur), ...(annotation ? { annotation } : {}) };
  }
  if (inner.type === 'augmented_assignment') {
    const op = field(inner, 'operator')?.text.replace(/=$/, '') ?? '+';
    return { ...p, k: 'augassign', target: expr(field(inner, 'left')), op, value: expr(field(inner, 'right')) };
  }
  if (inner.type === 'yield') return { ...p, k: 'unknown', what: 'yield' };
  return { ...p, k: 'expr', e: expr(inner) };
}

function ifStatement(n: Node, depth: number): PyStmt {
  const p = pos(n);
  const alternatives = n.childrenForFieldName('alternative').filter((c): c is Node => c !== null);
  // elif clauses become nested ifs in the else branch, as in Python's own tree.
  let orelse: PyStmt[] = [];
  for (let i = alternatives.length - 1; i >= 0; i -= 1) {
    const alt = alternatives[i]!;
    if (alt.type === 'else_clause') orelse = block(field(alt, 'body'), depth);
    else orelse = [{ ...pos(alt), k: 'if', test: expr(field(alt, 'condition')), body: block(field(alt, 'consequence'), depth), orelse }];
  }
  return { ...p, k: 'if', test: expr(field(n, 'condition')), body: block(field(n, 'consequence'), depth), orelse };
}

function elseBody(n: Node | null, depth: number): PyStmt[] {
  return n ? block(field(n, 'body'), depth) : [];
}

function withStatement(n: Node, depth: number): PyStmt {
  const clause = named(n).find((c) => c.type === 'with_clause');
  const items = (clause ? named(clause) : [])
    .filter((c) => c.type === 'with_item')
    .map((item) => {
      const value = field(item, 'value');
      if (value?.type === 'as_pattern') {
        const target = field(value, 'alias');
        return { e: expr(named(value)[0]), ...(target ? { as: expr(named(target)[0] ?? target) } : {}) };
      }
      return { e: expr(value) };
    });
  return { ...pos(n), k: 'with', items, body: block(field(n, 'body'), depth), isAsync: isAsync(n) };
}

function tryStatement(n: Node, depth: number): PyStmt {
  const handlers: PyExceptHandler[] = [];
  let orelse: PyStmt[] = [];
  let finalbody: PyStmt[] = [];
  for (const c of named(n)) {
    if (c.type === 'except_clause' || c.type === 'except_group_clause') {
      const body = named(c).find((x) => x.type === 'block') ?? null;
      const types = c.childrenForFieldName('value').filter((x): x is Node => x !== null);
      const alias = field(c, 'alias');
      let type = types[0] ? expr(types[0]) : undefined;
      let name = alias?.text;
      // `except E as e` may come as one as_pattern.
      if (type?.k === 'unknown' && types[0]?.type === 'as_pattern') {
        type = expr(named(types[0])[0]);
        name = field(types[0], 'alias')?.text;
      }
      handlers.push({ ...(type ? { type } : {}), ...(name ? { name } : {}), body: block(body, depth), line: c.startPosition.row + 1 });
    } else if (c.type === 'else_clause') orelse = block(field(c, 'body'), depth);
    else if (c.type === 'finally_clause') finalbody = block(named(c).find((x) => x.type === 'block') ?? null, depth);
  }
  return { ...pos(n), k: 'try', body: block(field(n, 'body'), depth), handlers, orelse, finalbody };
}

function docstringOf(body: PyStmt[]): string | undefined {
  const first = body[0];
  return first?.k === 'expr' && first.e.k === 'const' && typeof first.e.v === 'string' ? first.e.v : undefined;
}

function definition(n: Node, decorators: PyExpr[], depth: number): PyStmt {
  const body = block(field(n, 'body'), depth);
  const returns = field(n, 'return_type');
  const doc = docstringOf(body);
  return {
    ...pos(n),
    k: 'def',
    name: field(n, 'name')?.text ?? '',
    params: params(field(n, 'parameters')),
    body,
    decorators,
    isAsync: isAsync(n),
    ...(returns ? { returns: expr(returns) } : {}),
    ...(doc !== undefined ? { docstring: doc } : {}),
  };
}

function classDefinition(n: Node, decorators: PyExpr[], depth: number): PyStmt {
  const body = block(field(n, 'body'), depth);
  const supers = field(n, 'superclasses');
  const bases = supers ? argList(supers) : [];
  const doc = docstringOf(body);
  return { ...pos(n), k: 'class', name: field(n, 'name')?.text ?? '', bases, body, decorators, ...(doc !== undefined ? { docstring: doc } : {}) };
}

function argList(n: Node) {
  return named(n).map((a) =>
    a.type === 'keyword_argument' ? { kind: 'kw' as const, name: field(a, 'name')?.text ?? '', e: expr(field(a, 'value')) } : { kind: 'pos' as const, e: expr(a) },
  );
}

function importNames(nodes: (Node | null)[]): { name: string; as?: string }[] {
  return nodes
    .filter((c): c is Node => c !== null)
    .map((c) => (c.type === 'aliased_import' ? { name: field(c, 'name')?.text ?? '', as: field(c, 'alias')?.text } : { name: c.text }))
    .map((x) => (x.as === undefined ? { name: x.name } : { name: x.name, as: x.as }));
}

function importFrom(n: Node): PyStmt {
  const mod = field(n, 'module_name');
  let level = 0;
  let module = '';
  if (mod?.type === 'relative_import') {
    const prefix = named(mod).find((c) => c.type === 'import_prefix');
    level = prefix?.text.length ?? 0;
    module = named(mod).find((c) => c.type === 'dotted_name')?.text ?? '';
  } else module = mod?.text ?? '';
  const wildcard = named(n).some((c) => c.type === 'wildcard_import');
  const names = wildcard ? [{ name: '*' }] : importNames(n.childrenForFieldName('name'));
  return { ...pos(n), k: 'from', module: module.replace(/\s+/g, ''), level, names };
}
