/**
 * The Python syntax tree the importer works on: a typed subset of Python's own `ast` module, built from
 * tree-sitter's concrete tree (cstStatements.ts, cstExpressions.ts). Positions are 1-based lines and
 * columns (UTF-16 code units, as the editor shows them). Anything the tree holds that this subset has no
 * node for is an `unknown` expression or statement carrying its source text, so nothing is dropped
 * silently: the readers decide what an unknown part means (usually: that method is a stub).
 */

export interface Pos {
  line: number;
  col: number;
  endLine: number;
  endCol: number;
  /** Offsets of the node in its module's source (UTF-16 code units): `sourceOf` gives its text. */
  start: number;
  end: number;
}

/** The source text of a node of `mod`. */
export function sourceOf(mod: { source: string }, node: Pos): string {
  return mod.source.slice(node.start, node.end);
}

export type PyConst = string | number | boolean | null;

/** One piece of an f-string: literal text, or an expression with its conversion (`!r`) and format spec. */
export type FPart = string | { e: PyExpr; conv?: string; spec?: FPart[] };

export type PyArg = { kind: 'pos'; e: PyExpr } | { kind: 'kw'; name: string; e: PyExpr } | { kind: 'star'; e: PyExpr } | { kind: 'dstar'; e: PyExpr };

export interface PyComprehensionFor {
  target: PyExpr;
  iter: PyExpr;
  ifs: PyExpr[];
  isAsync: boolean;
}

export interface PyParam {
  name: string;
  kind: 'normal' | 'star' | 'dstar';
  default?: PyExpr;
  annotation?: PyExpr;
}

export type PyExpr = Pos &
  (
    | { k: 'name'; id: string }
    | { k: 'const'; v: PyConst; bytes?: boolean }
    | { k: 'ellipsis' }
    | { k: 'fstr'; parts: FPart[] }
    | { k: 'attr'; obj: PyExpr; name: string }
    | { k: 'sub'; obj: PyExpr; index: PyExpr }
    | { k: 'slice'; lo?: PyExpr; hi?: PyExpr; step?: PyExpr }
    | { k: 'call'; fn: PyExpr; args: PyArg[] }
    | { k: 'bin'; op: string; l: PyExpr; r: PyExpr }
    | { k: 'bool'; op: 'and' | 'or'; l: PyExpr; r: PyExpr }
    | { k: 'not'; e: PyExpr }
    | { k: 'unary'; op: string; e: PyExpr }
    | { k: 'cmp'; first: PyExpr; rest: { op: string; r: PyExpr }[] }
    | { k: 'list' | 'tuple' | 'set'; items: PyExpr[] }
    | { k: 'dict'; entries: ({ key: PyExpr; value: PyExpr } | { spread: PyExpr })[] }
    | { k: 'comp'; kind: 'list' | 'set' | 'gen' | 'dict'; elt: PyExpr; value?: PyExpr; gens: PyComprehensionFor[] }
    | { k: 'lambda'; params: PyParam[]; body: PyExpr }
    | { k: 'ifexp'; test: PyExpr; body: PyExpr; orelse: PyExpr }
    | { k: 'await'; e: PyExpr }
    | { k: 'star'; e: PyExpr }
    | { k: 'dstar'; e: PyExpr }
    | { k: 'walrus'; target: string; value: PyExpr }
    | { k: 'unknown'; what: string }
  );

export interface PyExceptHandler {
  type?: PyExpr;
  name?: string;
  body: PyStmt[];
  line: number;
}

export type PyStmt = Pos &
  (
    | { k: 'expr'; e: PyExpr }
    | { k: 'assign'; targets: PyExpr[]; value: PyExpr; annotation?: PyExpr }
    | { k: 'annassign'; target: PyExpr; annotation: PyExpr }
    | { k: 'augassign'; target: PyExpr; op: string; value: PyExpr }
    | { k: 'return'; value?: PyExpr }
    | { k: 'if'; test: PyExpr; body: PyStmt[]; orelse: PyStmt[] }
    | { k: 'for'; target: PyExpr; iter: PyExpr; body: PyStmt[]; orelse: PyStmt[]; isAsync: boolean }
    | { k: 'while'; test: PyExpr; body: PyStmt[]; orelse: PyStmt[] }
    | { k: 'with'; items: { e: PyExpr; as?: PyExpr }[]; body: PyStmt[]; isAsync: boolean }
    | { k: 'try'; body: PyStmt[]; handlers: PyExceptHandler[]; orelse: PyStmt[]; finalbody: PyStmt[] }
    | { k: 'raise'; e?: PyExpr }
    | { k: 'pass' | 'break' | 'continue' }
    | { k: 'def'; name: string; params: PyParam[]; body: PyStmt[]; decorators: PyExpr[]; isAsync: boolean; returns?: PyExpr; docstring?: string }
    | { k: 'class'; name: string; bases: PyArg[]; body: PyStmt[]; decorators: PyExpr[]; docstring?: string }
    | { k: 'import'; names: { name: string; as?: string }[] }
    | { k: 'from'; module: string; level: number; names: { name: string; as?: string }[] }
    | { k: 'global' | 'nonlocal'; names: string[] }
    | { k: 'del'; targets: PyExpr[] }
    | { k: 'assert'; test: PyExpr; msg?: PyExpr }
    | { k: 'unknown'; what: string }
  );

export type PyDef = Extract<PyStmt, { k: 'def' }>;
export type PyClass = Extract<PyStmt, { k: 'class' }>;
export type PyCall = Extract<PyExpr, { k: 'call' }>;

/** A parsed file: its statements and the syntax errors tree-sitter recovered from. */
export interface PyModule {
  /** The file, relative to the project folder (`/` separators). */
  file: string;
  source: string;
  body: PyStmt[];
  errors: PySyntaxProblem[];
}

export interface PySyntaxProblem {
  line: number;
  col: number;
  message: string;
}

/** A call's keyword argument by name. */
export function kwarg(call: PyCall, name: string): PyExpr | undefined {
  for (const a of call.args) if (a.kind === 'kw' && a.name === name) return a.e;
  return undefined;
}

/** A call's positional arguments. */
export function positional(call: PyCall): PyExpr[] {
  return call.args.flatMap((a) => (a.kind === 'pos' ? [a.e] : []));
}

/** `a.b.c` as "a.b.c" when the expression is only names and attributes; undefined otherwise. */
export function dotted(e: PyExpr): string | undefined {
  if (e.k === 'name') return e.id;
  if (e.k === 'attr') {
    const base = dotted(e.obj);
    return base === undefined ? undefined : `${base}.${e.name}`;
  }
  return undefined;
}

/** The last name of a callee (`crewai.Agent` → `Agent`, `self.llm` → `llm`). */
export function calleeName(call: PyCall): string | undefined {
  return call.fn.k === 'name' ? call.fn.id : call.fn.k === 'attr' ? call.fn.name : undefined;
}

/** A plain string constant (implicit concatenation included); undefined for anything else. */
export function constString(e: PyExpr | undefined): string | undefined {
  return e !== undefined && e.k === 'const' && typeof e.v === 'string' && !e.bytes ? e.v : undefined;
}

/** Every expression of a statement list, nested statements and sub-expressions included (pre-order). */
export function* walkExprs(stmts: PyStmt[]): Generator<PyExpr> {
  for (const s of stmts) yield* stmtExprs(s);
}

function* stmtExprs(s: PyStmt): Generator<PyExpr> {
  const sub = (e: PyExpr | undefined) => (e ? exprTree(e) : []);
  switch (s.k) {
    case 'expr':
      yield* sub(s.e);
      break;
    case 'assign':
      for (const t of s.targets) yield* sub(t);
      yield* sub(s.value);
      break;
    case 'augassign':
      yield* sub(s.target);
      yield* sub(s.value);
      break;
    case 'return':
    case 'raise':
      yield* sub(s.k === 'return' ? s.value : s.e);
      break;
    case 'if':
    case 'while':
      yield* sub(s.test);
      yield* walkExprs(s.body);
      yield* walkExprs(s.orelse);
      break;
    case 'for':
      yield* sub(s.target);
      yield* sub(s.iter);
      yield* walkExprs(s.body);
      yield* walkExprs(s.orelse);
      break;
    case 'with':
      for (const item of s.items) yield* sub(item.e);
      yield* walkExprs(s.body);
      break;
    case 'try':
      yield* walkExprs(s.body);
      for (const h of s.handlers) yield* walkExprs(h.body);
      yield* walkExprs(s.orelse);
      yield* walkExprs(s.finalbody);
      break;
    case 'def':
      for (const d of s.decorators) yield* sub(d);
      yield* walkExprs(s.body);
      break;
    case 'class':
      for (const d of s.decorators) yield* sub(d);
      yield* walkExprs(s.body);
      break;
    case 'del':
      for (const t of s.targets) yield* sub(t);
      break;
    case 'assert':
      yield* sub(s.test);
      break;
    default:
      break;
  }
}

/** The expression and every expression inside it (pre-order). */
export function* exprTree(e: PyExpr): Generator<PyExpr> {
  const stack: PyExpr[] = [e];
  while (stack.length > 0) {
    const n = stack.pop()!;
    yield n;
    stack.push(...children(n).reverse());
  }
}

function children(n: PyExpr): PyExpr[] {
  switch (n.k) {
    case 'attr':
      return [n.obj];
    case 'sub':
      return [n.obj, n.index];
    case 'slice':
      return [n.lo, n.hi, n.step].filter((x): x is PyExpr => x !== undefined);
    case 'call':
      return [n.fn, ...n.args.map((a) => a.e)];
    case 'bin':
    case 'bool':
      return [n.l, n.r];
    case 'not':
    case 'unary':
    case 'await':
    case 'star':
    case 'dstar':
      return [n.e];
    case 'cmp':
      return [n.first, ...n.rest.map((r) => r.r)];
    case 'list':
    case 'tuple':
    case 'set':
      return n.items;
    case 'dict':
      return n.entries.flatMap((en) => ('spread' in en ? [en.spread] : [en.key, en.value]));
    case 'comp':
      return [n.elt, ...(n.value ? [n.value] : []), ...n.gens.flatMap((g) => [g.target, g.iter, ...g.ifs])];
    case 'lambda':
      return [n.body];
    case 'ifexp':
      return [n.test, n.body, n.orelse];
    case 'walrus':
      return [n.value];
    case 'fstr':
      return n.parts.flatMap(fpartExprs);
    default:
      return [];
  }
}

function fpartExprs(p: FPart): PyExpr[] {
  return typeof p === 'string' ? [] : [p.e, ...(p.spec ?? []).flatMap(fpartExprs)];
}
