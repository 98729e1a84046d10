/**
 * Just enough reading of Python source to pick settings out of a CrewAI crew.py: the file is never
 * executed. Strings, comments and bracket nesting are respected; anything else is left as raw text.
 */

/** A Python literal we can use, or `undefined` for an expression we cannot evaluate without running code. */
export type PyValue = string | number | boolean | null | PyValue[];

/** The source with every comment replaced by spaces (offsets are kept). */
export function blankComments(src: string): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === '#') {
      while (i < src.length && src[i] !== '\n') {
        out += ' ';
        i += 1;
      }
      continue;
    }
    if (ch === '"' || ch === "'") {
      const end = stringEnd(src, i);
      out += src.slice(i, end);
      i = end;
      continue;
    }
    out += ch;
    i += 1;
  }
  return out;
}

/** Index just past the string literal starting at `start` (a quote character). */
function stringEnd(src: string, start: number): number {
  const quote = src.charAt(start);
  const triple = src.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  let i = start + close.length;
  while (i < src.length) {
    if (src[i] === '\\') {
      i += 2;
      continue;
    }
    if (!triple && src[i] === '\n') return i;
    if (src.startsWith(close, i)) return i + close.length;
    i += 1;
  }
  return src.length;
}

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Index of the bracket closing the one at `open`, or -1 when it is never closed (or `open` is inside a string or comment). */
export function matchingBracket(src: string, open: number): number {
  return bracketPairs(src)[open] ?? -1;
}

// The pairs of the last source asked about: callers look up many brackets of one file, and a scan per
// bracket made a crafted file of unclosed calls quadratic (minutes for 20k lines of `x = f(`).
let pairsOf: { src: string; close: Int32Array } | undefined;

/** For every opening bracket of `src`, the index of its closing one (-1 when never closed), in one pass. */
function bracketPairs(src: string): Int32Array {
  if (pairsOf?.src === src) return pairsOf.close;
  const close = new Int32Array(src.length).fill(-1);
  const stack: number[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === '"' || ch === "'") {
      i = stringEnd(src, i);
      continue;
    }
    if (ch === '#') {
      while (i < src.length && src[i] !== '\n') i += 1;
      continue;
    }
    if (ch !== undefined && OPEN[ch]) stack.push(i);
    else if (ch === ')' || ch === ']' || ch === '}') {
      const top = stack.pop();
      // A closer that does not fit leaves every bracket still open unclosed, as a scan from each would.
      if (top === undefined || OPEN[src.charAt(top)] !== ch) stack.length = 0;
      else close[top] = i;
    }
    i += 1;
  }
  pairsOf = { src, close };
  return close;
}

/** Splits on `sep` at nesting depth 0, outside strings; parts are trimmed and empty ones dropped. */
export function splitTopLevel(text: string, sep = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      i = stringEnd(text, i);
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth += 1;
    else if (ch === ')' || ch === ']' || ch === '}') depth -= 1;
    else if (ch === sep && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
    i += 1;
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** A call `Name(...)` found in source: its callee and the raw text between the parentheses. */
export interface PyCall {
  callee: string;
  args: string;
  /** Offset of the callee in the searched text. */
  at: number;
}

/** The first call of one of `callees` (e.g. `Agent`) in `src`, with its balanced argument text. */
export function findCall(src: string, callees: string[]): PyCall | undefined {
  const re = new RegExp(`(?<![\\w.])(${callees.map(escapeRe).join('|')})\\s*\\(`, 'g');
  for (const m of src.matchAll(re)) {
    const open = m.index + m[0].length - 1;
    const close = matchingBracket(src, open);
    if (close < 0) continue;
    return { callee: m[1]!, args: src.slice(open + 1, close), at: m.index };
  }
  return undefined;
}

/** Positional and keyword arguments of a call, as raw expression text. */
export function callArguments(args: string): { positional: string[]; keywords: Map<string, string> } {
  const positional: string[] = [];
  const keywords = new Map<string, string>();
  for (const part of splitTopLevel(args)) {
    const m = /^([A-Za-z_]\w*)\s*=(?!=)\s*([\s\S]*)$/.exec(part);
    if (m) keywords.set(m[1]!, m[2]!.trim());
    else positional.push(part);
  }
  return { positional, keywords };
}

/** Evaluates a literal (string, number, True/False/None, list or tuple of literals); `undefined` otherwise. */
export function pyLiteral(raw: string): PyValue | undefined {
  const text = raw.trim();
  if (text === 'True') return true;
  if (text === 'False') return false;
  if (text === 'None') return null;
  if (/^[-+]?(\d[\d_]*)(\.\d+)?([eE][-+]?\d+)?$/.test(text)) return Number(text.replace(/_/g, ''));
  if ((text.startsWith('[') && text.endsWith(']')) || (text.startsWith('(') && text.endsWith(')'))) {
    const items = splitTopLevel(text.slice(1, -1)).map(pyLiteral);
    return items.every((v) => v !== undefined) ? (items as PyValue[]) : undefined;
  }
  return pyString(text);
}

/** A (possibly implicitly concatenated) plain or raw string literal; f-strings and bytes are not literals. */
export function pyString(raw: string): string | undefined {
  let text = raw.trim();
  if (text.startsWith('(') && text.endsWith(')')) text = text.slice(1, -1).trim();
  let out = '';
  let i = 0;
  let any = false;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
    if (i >= text.length) break;
    const prefix = /^[rRuU]?/.exec(text.slice(i))![0];
    const q = text[i + prefix.length];
    if (q !== '"' && q !== "'") return undefined;
    const start = i + prefix.length;
    const end = stringEnd(text, start);
    const triple = text.startsWith(q.repeat(3), start);
    const body = text.slice(start + (triple ? 3 : 1), end - (triple ? 3 : 1));
    out += /r/i.test(prefix) ? body : unescape(body);
    any = true;
    i = end;
  }
  return any ? out : undefined;
}

function unescape(body: string): string {
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\n|.)/g, (_, e: string) => {
    if (e === '\n') return '';
    if (e[0] === 'u' || e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', '0': '\0' } as Record<string, string>)[e] ?? e;
  });
}

/** A Python string literal for `text` (JSON string syntax is valid Python). */
export function pyQuote(text: string): string {
  return JSON.stringify(text);
}

/** A decorator as written: `@router(generate)` → name `router`, args `generate`. */
export interface PyDecorator {
  /** The last dotted part (`crewai.flow.start` → `start`). */
  name: string;
  /** The raw text between its parentheses; `undefined` when it is not called (`@agent`). */
  args?: string;
  /** 1-based line of the `@`. */
  line: number;
}

/** A top-level or class-level function definition with its decorators and body. */
export interface PyFunction {
  name: string;
  decorators: string[];
  /** The decorators with their arguments (multi-line ones included), top to bottom. */
  decoratorCalls: PyDecorator[];
  /** Parameter names, `self` included, without annotations or defaults. */
  params: string[];
  isAsync: boolean;
  /** Columns of indentation of the `def`. */
  indent: number;
  /** The `def` line and everything below it (comments blanked). */
  body: string;
  /** 1-based line of the `def`. */
  line: number;
}

/** Every `def` in the source (comments blanked first), in order, with the decorators just above it. */
export function functions(src: string): PyFunction[] {
  const text = blankComments(src);
  const lines = text.split('\n');
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i += 1) starts.push(at);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  // Decorators by the line they end on (a call may span lines: `@human_feedback(\n message=…\n)`).
  const byEnd = new Map<number, { start: number; decorator: PyDecorator }>();
  lines.forEach((line, index) => {
    const d = /^(\s*)@([\w.]+)\s*(\()?/.exec(line);
    if (!d) return;
    const name = d[2]!.split('.').pop()!;
    if (!d[3]) {
      byEnd.set(index, { start: index, decorator: { name, line: index + 1 } });
      return;
    }
    // One start per line.
    const open = starts[index]! + d[0].length - 1;
    const close = matchingBracket(text, open);
    if (close < 0) return;
    byEnd.set(lineOf(close), { start: index, decorator: { name, args: text.slice(open + 1, close), line: index + 1 } });
  });
  const found: PyFunction[] = [];
  lines.forEach((line, index) => {
    const m = /^(\s*)(async\s+)?def\s+(\w+)\s*\(/.exec(line);
    if (!m) return;
    const indent = m[1]!.length;
    const decoratorCalls: PyDecorator[] = [];
    for (let j = index - 1; j >= 0; j -= 1) {
      if (lines[j]!.trim() === '') continue;
      const d = byEnd.get(j);
      if (!d) break;
      decoratorCalls.unshift(d.decorator);
      j = d.start;
    }
    // One start per line.
    const open = starts[index]! + m[0].length - 1;
    const close = matchingBracket(text, open);
    const params = close < 0 ? [] : splitTopLevel(text.slice(open + 1, close)).map((p) => /^\**(\w+)/.exec(p)?.[1] ?? p);
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const l = lines[end]!;
      if (l.trim() === '') continue;
      const ind = /^\s*/.exec(l)![0].length;
      if (ind <= indent && !/^\s*[)\]}]/.test(l)) break;
    }
    while (end > index + 1 && lines[end - 1]!.trim() === '') end -= 1;
    found.push({
      name: m[3]!,
      decorators: decoratorCalls.map((d) => d.name),
      decoratorCalls,
      params,
      isAsync: Boolean(m[2]),
      indent,
      body: lines.slice(index, end).join('\n'),
      line: index + 1,
    });
  });
  return found;
}

/** One logical line of Python: continued while brackets or a triple-quoted string are open. */
export interface PyStatement {
  /** The statement's text, joined lines included (trimmed). */
  text: string;
  /** 1-based line in the file. */
  line: number;
  indent: number;
  /** The statements of the block it opens (`if …:`, `with …:`, `async def …:`), nested by indentation. */
  block: PyStatement[];
}

/**
 * The statements of a block of source (comments already blanked), nested by indentation; `firstLine`
 * is the file line of the block's first line. A one-line compound statement (`if x: return "a"`)
 * becomes the header with its body as a block of one.
 */
export function statements(src: string, firstLine: number): PyStatement[] {
  const flat: PyStatement[] = [];
  let i = 0;
  let line = 0;
  while (i < src.length) {
    const lineEnd = src.indexOf('\n', i) < 0 ? src.length : src.indexOf('\n', i);
    const raw = src.slice(i, lineEnd);
    if (raw.trim() === '') {
      i = lineEnd + 1;
      line += 1;
      continue;
    }
    // Extend over open brackets, strings and backslash continuations.
    let j = i;
    let end = -1;
    let depth = 0;
    while (j < src.length) {
      const ch = src[j];
      if (ch === '"' || ch === "'") {
        j = stringEnd(src, j);
        continue;
      }
      if (ch === '(' || ch === '[' || ch === '{') depth += 1;
      else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
      else if (ch === '\n') {
        if (depth === 0 && src[j - 1] !== '\\') {
          end = j;
          break;
        }
      }
      j += 1;
    }
    if (end < 0) end = Math.min(j, src.length);
    void lineEnd;
    const text = src.slice(i, end);
    const indent = /^[ \t]*/.exec(text)![0].length;
    flat.push({ text: text.trim().replace(/\\\n\s*/g, ' '), line: firstLine + line, indent, block: [] });
    line += text.split('\n').length;
    i = end + 1;
  }
  return nest(flat.flatMap(splitOneLiner));
}

/** `if x: return "a"` → the header `if x:` and a block statement `return "a"`. */
function splitOneLiner(s: PyStatement): PyStatement[] {
  const head = /^(if|elif|else|with|for|while|try|except|finally)\b/.exec(s.text);
  if (!head) return [s];
  const colon = topLevelColon(s.text);
  if (colon < 0 || colon === s.text.length - 1) return [s];
  return [
    { ...s, text: s.text.slice(0, colon + 1) },
    { text: s.text.slice(colon + 1).trim(), line: s.line, indent: s.indent + 1, block: [] },
  ];
}

/** The colon ending a compound statement's header, outside brackets, strings and lambdas; -1 if none. */
function topLevelColon(text: string): number {
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      i = stringEnd(text, i);
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth += 1;
    else if (ch === ')' || ch === ']' || ch === '}') depth -= 1;
    else if (ch === ':' && depth === 0) return i;
    i += 1;
  }
  return -1;
}

function nest(flat: PyStatement[]): PyStatement[] {
  const root: PyStatement[] = [];
  const stack: PyStatement[] = [];
  for (const s of flat) {
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= s.indent) stack.pop();
    (stack.at(-1)?.block ?? root).push(s);
    if (s.text.endsWith(':')) stack.push(s);
  }
  return root;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
