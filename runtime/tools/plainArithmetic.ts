/**
 * Plain arithmetic — decimal numbers, `+ - * /`, unary signs and parentheses, nothing else — answered
 * in the host at once, with the value and the text mathjs would give: mathjs evaluates these with the
 * same IEEE double operations (its `number` type), and `formatNumber` writes the result as mathjs's
 * `format(value, { precision: 14 })` does (checked against mathjs itself in
 * test/tools/plainArithmetic.test.ts). So the first `6 * 7` of a run does not wait for the
 * calculator's child process to load mathjs (boundedMath.ts). Anything else — a function, a unit, `^`,
 * `%`, an exponent, implicit multiplication, several statements — returns undefined and goes to the
 * child. Bounded by construction: at most MAX_CHARS characters, read once from left to right, numbers only.
 */
export const PLAIN_ARITHMETIC_MAX_CHARS = 200;
const PLAIN = /^[0-9. \t+\-*/()]+$/;
const PRECISION = 14;
/** mathjs's "auto" notation: exponential below 1e-3 and from 1e5 on. */
const LOWER_EXP = -3;
const UPPER_EXP = 5;

/**
 * A number as mathjs formats it at 14 significant digits: the digits of the shortest decimal that
 * reads back as the value (`String`), rounded half up, trailing zeros dropped; exponential notation
 * outside [1e-3, 1e5).
 */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  const [, sign, wholeGroup, fraction = '', exp = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value))!;
  const whole = wholeGroup!; // group 2 is not optional
  let digits = whole + fraction;
  let exponent = whole.length - 1 + Number(exp);
  const zeros = /^0*/.exec(digits)![0].length;
  if (zeros === digits.length) return '0';
  digits = digits.slice(zeros);
  exponent -= zeros;
  if (digits.length > PRECISION) {
    const up = digits.charCodeAt(PRECISION) >= 53; // '5'
    const kept = digits.slice(0, PRECISION).split('').map(Number);
    if (up) {
      let i = PRECISION - 1;
      // i stays in 0 … PRECISION - 1, the indexes of kept.
      kept[i]!++;
      while (i > 0 && kept[i] === 10) {
        kept[i] = 0;
        kept[--i]!++;
      }
      if (kept[0] === 10) {
        kept[0] = 0;
        kept.unshift(1);
        exponent++;
      }
    }
    digits = kept.join('');
  }
  digits = digits.replace(/0+$/, '');
  let text: string;
  if (exponent < LOWER_EXP || exponent >= UPPER_EXP) {
    text = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  } else if (exponent >= 0) {
    const fractional = digits.slice(exponent + 1);
    text = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0') + (fractional ? `.${fractional}` : '');
  } else {
    text = `0.${'0'.repeat(-exponent - 1)}${digits}`;
  }
  return sign + text;
}

/** The calculator's answer for plain arithmetic, or undefined when the expression is anything more. */
export function evaluatePlainArithmetic(expression: string): string | undefined {
  if (expression.length > PLAIN_ARITHMETIC_MAX_CHARS || !PLAIN.test(expression)) return undefined;
  const value = new Reader(expression).read();
  return value === undefined ? undefined : formatNumber(value);
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
