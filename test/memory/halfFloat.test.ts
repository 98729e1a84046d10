import { describe, expect, it } from 'vitest';
import { halfToFloatTable, toHalf } from '../../runtime/memory/halfFloat';

const back = (x: number) => halfToFloatTable()[toHalf(x)];

describe('float16', () => {
  it('encodes the exact values, the limits and the special values', () => {
    expect(toHalf(0)).toBe(0x0000);
    expect(toHalf(-0)).toBe(0x8000);
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(toHalf(0.5)).toBe(0x3800);
    expect(toHalf(65504)).toBe(0x7bff); // the largest finite half
    expect(toHalf(1e6)).toBe(0x7c00); // out of range: Infinity
    expect(toHalf(-Infinity)).toBe(0xfc00);
    expect(Number.isNaN(back(NaN))).toBe(true);
    expect(toHalf(2 ** -24)).toBe(0x0001); // the smallest subnormal
    expect(toHalf(2 ** -14)).toBe(0x0400); // the smallest normal
    expect(toHalf(1e-9)).toBe(0x0000);
  });

  it('rounds to the nearest half (ties away from zero), carrying into the exponent', () => {
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c01); // halfway between 1 and 1 + 2^-10
    expect(toHalf(1 + 2 ** -12)).toBe(0x3c00);
    expect(toHalf(2 - 2 ** -12)).toBe(0x4000); // rounds up to 2
    expect(toHalf(3 * 2 ** -25)).toBe(0x0002); // subnormal, halfway: away from zero
  });

  it('keeps embedding-sized components within 2^-11 of their value', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    for (let i = 0; i < 10_000; i++) {
      const x = random() * 0.3;
      if (Math.abs(x) < 2 ** -14) continue;
      expect(Math.abs(back(x)! - x)).toBeLessThanOrEqual(Math.abs(x) * 2 ** -11);
    }
  });
});
