import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Plain arithmetic — decimal numbers, `+ - * /`, unary signs and parentheses, nothing else — answered
 * in the host at once, with the value and the text mathjs would give: mathjs evaluates these with the
 * same IEEE double operations (its `number` type), and the text comes from mathjs's own number
 * formatter (`lib/cjs/utils/number.js`, which needs nothing else of mathjs), at the calculator's
 * precision. So the first `6 * 7` of a run does not wait for the calculator's child process to load
 * mathjs (boundedMath.ts). Anything else — a function, a unit, `^`, `%`, an exponent, implicit
 * multiplication, several statements — returns undefined and goes to the child. Bounded by
 * construction: at most MAX_CHARS characters, read once from left to right, numbers only.
 */
export const PLAIN_ARITHMETIC_MAX_CHARS = 200;
const PLAIN = /^[0-9. \t+\-*/()]+$/;
const FORMAT = { precision: 14 };

type FormatNumber = (value: number, options: { precision: number }) => string;
let formatNumber: FormatNumber | undefined;

/** Loads the formatter ahead (a few small modules, ~5-20 ms), so the first answer does not wait for it. */
export function preparePlainArithmetic(): void {
  mathjsFormat();
}

function mathjsFormat(): FormatNumber {
  if (!formatNumber) {
    const require = createRequire(import.meta.url);
    // 'mathjs' resolves to lib/cjs/index.js; its number utilities sit beside it.
    const utils = join(dirname(require.resolve('mathjs')), 'utils', 'number.js');
    formatNumber = (require(utils) as { format: FormatNumber }).format;
  }
  return formatNumber;
}

/** The calculator's answer for plain arithmetic, or undefined when the expression is anything more. */
export function evaluatePlainArithmetic(expression: string): string | undefined {
  if (expression.length > PLAIN_ARITHMETIC_MAX_CHARS || !PLAIN.test(expression)) return undefined;
  const value = new Reader(expression).read();
  return value === undefined ? undefined : mathjsFormat()(value, FORMAT);
}

/** Recursive descent over sum → product → signed → number | ( sum ); undefined on anything unexpected. */
class Reader {
  private at = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  read(): number | undefined {
    const value = this.sum();
    this.skipSpaces();
    return value !== undefined && this.at === this.text.length ? value : undefined;
  }

  private sum(): number | undefined {
    let value = this.product();
    for (;;) {
      if (value === undefined) return undefined;
      const op = this.peek();
      if (op !== '+' && op !== '-') return value;
      this.at++;
      const right = this.product();
      if (right === undefined) return undefined;
      value = op === '+' ? value + right : value - right;
    }
  }

  private product(): number | undefined {
    let value = this.signed();
    for (;;) {
      if (value === undefined) return undefined;
      const op = this.peek();
      if (op !== '*' && op !== '/') return value;
      this.at++;
      const right = this.signed();
      if (right === undefined) return undefined;
      value = op === '*' ? value * right : value / right;
    }
  }

  private signed(): number | undefined {
    const c = this.peek();
    if (c === '-' || c === '+') {
      this.at++;
      if (++this.depth > PLAIN_ARITHMETIC_MAX_CHARS) return undefined;
      const value = this.signed();
      this.depth--;
      return value === undefined ? undefined : c === '-' ? -value : value;
    }
    return this.primary();
  }

  private primary(): number | undefined {
    const c = this.peek();
    if (c === '(') {
      this.at++;
      if (++this.depth > PLAIN_ARITHMETIC_MAX_CHARS) return undefined;
      const value = this.sum();
      this.depth--;
      if (value === undefined || this.peek() !== ')') return undefined;
      this.at++;
      return value;
    }
    // Only what both read the same way: digits with an optional fraction ("1.5", not ".5", "1." or "1e3").
    const match = /^[0-9]+(?:\.[0-9]+)?/.exec(this.text.slice(this.at));
    if (!match) return undefined;
    this.at += match[0].length;
    // A number followed directly by "(" or another number is implicit multiplication in mathjs: not plain.
    const next = this.text[this.at];
    if (next === '(' || next === '.') return undefined;
    return Number(match[0]);
  }

  /** The next character after spaces and tabs (which mathjs skips too), without consuming it. */
  private peek(): string | undefined {
    this.skipSpaces();
    return this.text[this.at];
  }

  private skipSpaces(): void {
    while (this.text[this.at] === ' ' || this.text[this.at] === '\t') this.at++;
  }
}
