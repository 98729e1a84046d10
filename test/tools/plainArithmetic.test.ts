import { create, all } from 'mathjs';
import { describe, expect, it } from 'vitest';
import { BoundedMath } from '../../runtime/tools/boundedMath';
import { evaluatePlainArithmetic, formatNumber, PLAIN_ARITHMETIC_MAX_CHARS } from '../../runtime/tools/plainArithmetic';

/** What the calculator's child answers (same mathjs, same precision), for comparison. */
const math = create(all!, {});
const mathjs = (expression: string) => math.format(math.evaluate(expression), { precision: 14 });

/** A small deterministic generator, so a failure names an expression that can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const pick = <T,>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const number = () => pick([() => String(Math.floor(next() * 10)), () => String(Math.floor(next() * 100000)), () => (next() * 1000).toFixed(1 + Math.floor(next() * 6)), () => '0.1', () => '007'])!();
  const expression = (depth: number): string => {
    if (depth <= 0 || next() < 0.3) return `${pick(['', '', '', '-', '+', '--'])}${number()}`;
    const form = Math.floor(next() * 3);
    if (form === 0) return `(${expression(depth - 1)})`;
    return `${expression(depth - 1)}${pick([' ', '', '  '])}${pick(['+', '-', '*', '/'])}${pick([' ', '', '\t'])}${expression(depth - 1)}`;
  };
  return () => expression(5);
}

describe('plain arithmetic in the host', () => {
  it('gives exactly the text mathjs gives, on 3000 generated expressions', () => {
    const next = generator(19);
    let answered = 0;
    for (let i = 0; i < 3000; i++) {
      const expression = next();
      const quick = evaluatePlainArithmetic(expression);
      if (quick === undefined) continue;
      answered++;
      expect(quick, expression).toBe(mathjs(expression));
    }
    // The generator writes only plain arithmetic: every one of them is answered here.
    expect(answered).toBe(3000);
  });

  it('formats numbers as mathjs does at 14 digits: ties, carries, both notations, tiny and huge', () => {
    let state = 11;
    const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const numbers = [
      0, -0, 1, -1, 42, 0.1 + 0.2, 1 / 3, 2 / 3, 99999.99999999999, 99999.5, 100000, 123456, 0.001, 0.00099999999999999, 1e-7, 1e21, -1e21,
      1.00000000000005, 1.000000000000049, 9.99999999999995, 0.000123456789012345, 5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, NaN, Infinity, -Infinity,
    ];
    for (let i = 0; i < 5000; i++) {
      const magnitude = 10 ** Math.floor(random() * 40 - 20);
      numbers.push((random() - 0.5) * magnitude, Math.round(random() * 1e6) / 1e3, Number((random() * 100).toFixed(15)));
    }
    for (const value of numbers) expect(formatNumber(value), String(value)).toBe(math.format(value, { precision: 14 }));
  });

  it.each([
    ['2 * (3 + 4)', '14'],
    ['0.1 + 0.2', '0.3'],
    ['1/3', '0.33333333333333'],
    ['123456 * 1', '1.23456e+5'],
    ['2 - -3', '5'],
    ['1 / 0', 'Infinity'],
    ['-(2 + 3) * 4', '-20'],
  ])('%s is %s, as in mathjs', (expression, text) => {
    expect(evaluatePlainArithmetic(expression)).toBe(text);
    expect(mathjs(expression)).toBe(text);
  });

  it.each([
    ['2^10', 'a power'],
    ['sqrt(16)', 'a function'],
    ['5 km to mile', 'a unit'],
    ['2(3)', 'implicit multiplication'],
    ['(2)(3)', 'implicit multiplication'],
    ['2 3', 'two numbers'],
    ['1e3', 'an exponent'],
    ['.5', 'a bare fraction'],
    ['10 % 3', 'a modulo'],
    ['1\n2', 'two statements'],
    ['1 +', 'an unfinished sum'],
    ['', 'nothing'],
    [`${'1+'.repeat(PLAIN_ARITHMETIC_MAX_CHARS)}1`, 'a very long sum'],
  ])('leaves %s (%s) to mathjs', (expression) => {
    expect(evaluatePlainArithmetic(expression)).toBeUndefined();
  });

  it('answers the first 6 * 7 of a calculator that was never started, in the same turn of the event loop', async () => {
    const cold = new BoundedMath();
    try {
      // Answered before the microtask queued after it: no child process started, no I/O waited for.
      // (How long a first call takes is measured in bench:runtime, not here.)
      let answer: string | undefined;
      void cold.evaluate('6 * 7').then((text) => (answer = text));
      await Promise.resolve();
      expect(answer).toBe('42');
    } finally {
      cold.dispose();
    }
  });
});
