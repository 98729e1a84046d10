import { pyString } from './pythonSource';

/**
 * Simple Python expressions of a CrewAI Flow method, read without running them: state and input
 * references (`self.state.x`, `result.raw`, `result["k"]`, the method's parameter), literals,
 * comparisons and boolean logic, arithmetic, f-strings and a few built-ins (len, str, int, float).
 * They become a Crewdeck template (`{state.x}`) where the value is text, or a JavaScript expression
 * for a QuickJS script. Anything else is `Unsupported`, and the method becomes a stub.
 */

export class UnsupportedPython extends Error {
  override name = 'UnsupportedPython';
}

type Node =
  | { k: 'lit'; v: string | number | boolean | null }
  | { k: 'name'; n: string }
  | { k: 'attr'; o: Node; a: string }
  | { k: 'index'; o: Node; i: Node }
  | { k: 'call'; f: Node; args: Node[] }
  | { k: 'bin'; op: string; l: Node; r: Node }
  | { k: 'not'; e: Node }
  | { k: 'neg'; e: Node }
  | { k: 'cmp'; first: Node; rest: { op: string; r: Node }[] }
  | { k: 'list'; items: Node[] }
  | { k: 'dict'; entries: [Node, Node][] }
  | { k: 'fstr'; parts: (string | Node)[] };

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

// ---- tokens -------------------------------------------------------------------------------------

type Token = { t: 'num' | 'str' | 'fstr' | 'name' | 'op'; v: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    const str = /^([rRuUfFbB]{0,2})("""|'''|"|')/.exec(src.slice(i));
    // Both groups always take part (the prefix may be empty).
    const prefix = str?.[1];
    if (str && prefix !== undefined && (prefix === '' || /^[rRuUfF]{1,2}$/.test(prefix))) {
      const q = str[2]!;
      let j = i + str[0].length;
      while (j < src.length && !src.startsWith(q, j)) j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) throw new UnsupportedPython('an unclosed string');
      const raw = src.slice(i, j + q.length);
      out.push({ t: /f/i.test(prefix) ? 'fstr' : 'str', v: raw });
      i = j + q.length;
      continue;
    }
    const num = /^\d[\d_]*(\.\d+)?([eE][-+]?\d+)?/.exec(src.slice(i));
    if (num) {
      out.push({ t: 'num', v: num[0].replace(/_/g, '') });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_]\w*/.exec(src.slice(i));
    if (name) {
      out.push({ t: 'name', v: name[0] });
      i += name[0].length;
      continue;
    }
    const op = /^(\*\*|\/\/|==|!=|<=|>=|[-+*/%<>()[\]{},.:])/.exec(src.slice(i));
    if (!op) throw new UnsupportedPython(`"${ch}"`);
    out.push({ t: 'op', v: op[0] });
    i += op[0].length;
  }
  return out;
}

// ---- parser -------------------------------------------------------------------------------------

const MAX_TOKENS = 400;
const MAX_NESTING = 32;

class Parser {
  private i = 0;
  constructor(private readonly toks: Token[]) {}

  parse(): Node {
    // A downloaded main.py is untrusted: the parser and the walks over its tree recurse, so an
    // expression nested or chained past what a person writes becomes a stub instead of a stack overflow.
    if (this.toks.length > MAX_TOKENS) throw new UnsupportedPython(`an expression of more than ${MAX_TOKENS} tokens`);
    let depth = 0;
    for (const t of this.toks) {
      if (t.v === '(' || t.v === '[' || t.v === '{') depth += 1;
      else if (t.v === ')' || t.v === ']' || t.v === '}') depth -= 1;
      if (depth > MAX_NESTING) throw new UnsupportedPython(`brackets nested more than ${MAX_NESTING} deep`);
    }
    const n = this.or();
    if (this.i < this.toks.length) throw new UnsupportedPython(`"${this.toks[this.i]!.v}"`);
    return n;
  }
  private peek(v?: string): Token | undefined {
    const t = this.toks[this.i];
    return v === undefined || (t && t.v === v && (t.t === 'op' || t.t === 'name')) ? t : undefined;
  }
  private eat(v: string): boolean {
    if (this.peek(v)) {
      this.i += 1;
      return true;
    }
    return false;
  }
  private expect(v: string): void {
    if (!this.eat(v)) throw new UnsupportedPython(`expected "${v}"`);
  }
  private or(): Node {
    let l = this.and();
    while (this.eat('or')) l = { k: 'bin', op: 'or', l, r: this.and() };
    return l;
  }
  private and(): Node {
    let l = this.not();
    while (this.eat('and')) l = { k: 'bin', op: 'and', l, r: this.not() };
    return l;
  }
  private not(): Node {
    if (this.eat('not')) return { k: 'not', e: this.not() };
    return this.cmp();
  }
  private cmp(): Node {
    const first = this.sum();
    const rest: { op: string; r: Node }[] = [];
    for (;;) {
      const t = this.peek();
      if (t && t.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) {
        this.i += 1;
        rest.push({ op: t.v, r: this.sum() });
      } else if (this.peek('in')) {
        this.i += 1;
        rest.push({ op: 'in', r: this.sum() });
      } else if (this.peek('not') && this.toks[this.i + 1]?.v === 'in') {
        this.i += 2;
        rest.push({ op: 'not in', r: this.sum() });
      } else if (this.peek('is')) {
        this.i += 1;
        const negated = this.eat('not');
        rest.push({ op: negated ? 'is not' : 'is', r: this.sum() });
      } else break;
    }
    return rest.length > 0 ? { k: 'cmp', first, rest } : first;
  }
  private sum(): Node {
    let l = this.term();
    for (let t = this.peek(); t && t.t === 'op' && (t.v === '+' || t.v === '-'); t = this.peek()) {
      this.i += 1;
      l = { k: 'bin', op: t.v, l, r: this.term() };
    }
    return l;
  }
  private term(): Node {
    let l = this.unary();
    for (let t = this.peek(); t && t.t === 'op' && ['*', '/', '//', '%'].includes(t.v); t = this.peek()) {
      this.i += 1;
      l = { k: 'bin', op: t.v, l, r: this.unary() };
    }
    return l;
  }
  private unary(): Node {
    if (this.eat('-')) return { k: 'neg', e: this.unary() };
    return this.postfix(this.atom());
  }
  private postfix(n: Node): Node {
    for (;;) {
      if (this.eat('.')) {
        const t = this.toks[this.i++];
        if (!t || t.t !== 'name') throw new UnsupportedPython('an attribute');
        n = { k: 'attr', o: n, a: t.v };
      } else if (this.eat('[')) {
        const i = this.or();
        this.expect(']');
        n = { k: 'index', o: n, i };
      } else if (this.eat('(')) {
        const args: Node[] = [];
        while (!this.eat(')')) {
          if (this.toks[this.i + 1]?.v === '=' ) throw new UnsupportedPython('a keyword argument');
          args.push(this.or());
          if (!this.eat(',')) {
            this.expect(')');
            break;
          }
        }
        n = { k: 'call', f: n, args };
      } else return n;
    }
  }
  private atom(): Node {
    const t = this.toks[this.i++];
    if (!t) throw new UnsupportedPython('an incomplete expression');
    if (t.t === 'num') return { k: 'lit', v: Number(t.v) };
    if (t.t === 'str') {
      let text = pyString(t.v);
      for (let next = this.toks[this.i]; next?.t === 'str'; next = this.toks[this.i]) {
        this.i += 1;
        text = (text ?? '') + (pyString(next.v) ?? '');
      }
      if (text === undefined) throw new UnsupportedPython('a string');
      return { k: 'lit', v: text };
    }
    if (t.t === 'fstr') return fstring(t.v);
    if (t.t === 'name') {
      if (t.v === 'True') return { k: 'lit', v: true };
      if (t.v === 'False') return { k: 'lit', v: false };
      if (t.v === 'None') return { k: 'lit', v: null };
      if (['lambda', 'await', 'yield', 'for', 'if', 'else'].includes(t.v)) throw new UnsupportedPython(`"${t.v}"`);
      return { k: 'name', n: t.v };
    }
    if (t.v === '(') {
      const n = this.or();
      if (this.peek(',')) throw new UnsupportedPython('a tuple');
      this.expect(')');
      return n;
    }
    if (t.v === '[') {
      const items: Node[] = [];
      while (!this.eat(']')) {
        items.push(this.or());
        if (this.peek('for')) throw new UnsupportedPython('a list comprehension');
        if (!this.eat(',')) {
          this.expect(']');
          break;
        }
      }
      return { k: 'list', items };
    }
    if (t.v === '{') {
      const entries: [Node, Node][] = [];
      while (!this.eat('}')) {
        const key = this.or();
        this.expect(':');
        entries.push([key, this.or()]);
        if (!this.eat(',')) {
          this.expect('}');
          break;
        }
      }
      return { k: 'dict', entries };
    }
    throw new UnsupportedPython(`"${t.v}"`);
  }
}

function fstring(raw: string): Node {
  const prefix = /^[a-zA-Z]+/.exec(raw)![0];
  const q = raw.slice(prefix.length).startsWith('"""') || raw.slice(prefix.length).startsWith("'''") ? 3 : 1;
  const body = raw.slice(prefix.length + q, raw.length - q);
  const parts: (string | Node)[] = [];
  let text = '';
  for (let i = 0; i < body.length; i += 1) {
    if (body.startsWith('{{', i) || body.startsWith('}}', i)) {
      text += body[i];
      i += 1;
      continue;
    }
    if (body[i] === '{') {
      const close = body.indexOf('}', i);
      if (close < 0) throw new UnsupportedPython('an f-string');
      const inner = body.slice(i + 1, close);
      if (/[!:]/.test(inner.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '').replace(/[!=<>]=/g, ''))) throw new UnsupportedPython('an f-string format');
      if (text) parts.push(/r/i.test(prefix) ? text : pyString(JSON.stringify(text)) ?? text);
      text = '';
      parts.push(parseExpr(inner));
      i = close;
      continue;
    }
    text += body[i];
  }
  if (text) parts.push(/r/i.test(prefix) ? text : unescapeText(text));
  return { k: 'fstr', parts: parts.map((p) => (typeof p === 'string' ? unescapeText(p) : p)) };
}

function unescapeText(text: string): string {
  return pyString(`"""${text.replace(/"""/g, '\\"\\"\\"')}"""`) ?? text;
}

function parseExpr(src: string): Node {
  return new Parser(tokenize(src)).parse();
}

// ---- references ---------------------------------------------------------------------------------

/** A reference: `state.a.b`, `input`, `input.k` (the input read as JSON), `item`, `item.k`, `index`. */
function refOf(n: Node, scope: ExprScope, depth = 0): string | undefined {
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

const complete = (ref: string | undefined) => (ref === undefined || ref.endsWith('.') || ref === 'state' ? undefined : ref);

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

/** A Python literal value (numbers, strings, booleans, None, lists and dicts of them). */
export function toValue(expr: string): { ok: true; value: unknown } | { ok: false } {
  try {
    const v = valueOf(parseExpr(expr));
    return { ok: true, value: v };
  } catch {
    return { ok: false };
  }
}

function valueOf(n: Node): unknown {
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

// ---- JavaScript ----------------------------------------------------------------------------------

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

const HELPERS: Record<string, string> = {
  __json: 'const __json = () => { try { return JSON.parse(input); } catch { return {}; } };',
  __truthy: 'const __truthy = (v) => Array.isArray(v) ? v.length > 0 : v !== null && typeof v === "object" ? Object.keys(v).length > 0 : Boolean(v);',
  __in: 'const __in = (a, b) => typeof b === "string" ? b.includes(String(a)) : Array.isArray(b) ? b.includes(a) : b !== null && typeof b === "object" ? a in b : false;',
  __add: 'const __add = (a, b) => Array.isArray(a) && Array.isArray(b) ? [...a, ...b] : a + b;',
  __str: 'const __str = (v) => typeof v === "string" ? v : v === null || v === undefined ? "None" : typeof v === "boolean" ? (v ? "True" : "False") : typeof v === "object" ? JSON.stringify(v) : String(v);',
};

/** The helpers (Python truthiness, `in`, str(), the input as JSON) that the script lines use. */
export function preludeFor(lines: string[]): string[] {
  const text = lines.join('\n');
  return Object.entries(HELPERS).filter(([name]) => new RegExp(`\\b${name}\\b`).test(text)).map(([, code]) => code);
}

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
