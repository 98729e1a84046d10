import { pyString } from '../pythonSource';
import { UnsupportedPython, type Node } from './exprSyntax';
import { tokenize, type Token } from './exprTokens';

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

/** A Python expression as its syntax tree; throws UnsupportedPython for what the reader does not cover. */
export function parseExpr(src: string): Node {
  return new Parser(tokenize(src)).parse();
}
