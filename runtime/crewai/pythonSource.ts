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
  const quote = src[start];
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
    if (OPEN[ch]) stack.push(i);
    else if (ch === ')' || ch === ']' || ch === '}') {
      const top = stack.pop();
      // A closer that does not fit leaves every bracket still open unclosed, as a scan from each would.
      if (top === undefined || OPEN[src[top]] !== ch) stack.length = 0;
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
    return { callee: m[1], args: src.slice(open + 1, close), at: m.index };
  }
  return undefined;
}

/** Positional and keyword arguments of a call, as raw expression text. */
export function callArguments(args: string): { positional: string[]; keywords: Map<string, string> } {
  const positional: string[] = [];
  const keywords = new Map<string, string>();
  for (const part of splitTopLevel(args)) {
    const m = /^([A-Za-z_]\w*)\s*=(?!=)\s*([\s\S]*)$/.exec(part);
    if (m) keywords.set(m[1], m[2].trim());
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
    while (i < text.length && /\s/.test(text[i])) i += 1;
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

/** A top-level or class-level function definition with its decorators and body. */
export interface PyFunction {
  name: string;
  decorators: string[];
  body: string;
  /** 1-based line of the `def`. */
  line: number;
}

/** Every `def` in the source (comments blanked first), in order, with the decorators just above it. */
export function functions(src: string): PyFunction[] {
  const lines = blankComments(src).split('\n');
  const found: PyFunction[] = [];
  lines.forEach((line, index) => {
    const m = /^(\s*)(?:async\s+)?def\s+(\w+)\s*\(/.exec(line);
    if (!m) return;
    const indent = m[1].length;
    const decorators: string[] = [];
    for (let j = index - 1; j >= 0; j -= 1) {
      const d = /^\s*@([\w.]+)/.exec(lines[j]);
      if (d) decorators.unshift(d[1].split('.').pop()!);
      else if (lines[j].trim() !== '') break;
    }
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const l = lines[end];
      if (l.trim() === '') continue;
      const ind = /^\s*/.exec(l)![0].length;
      if (ind <= indent && !/^\s*[)\]}]/.test(l)) break;
    }
    found.push({ name: m[2], decorators, body: lines.slice(index, end).join('\n'), line: index + 1 });
  });
  return found;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
