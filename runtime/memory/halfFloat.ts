/**
 * IEEE 754 half precision (float16) for the recall cache's vectors: half the memory of float32, and
 * ~3 significant digits per component, which moves a cosine similarity by ~1e-4 (Node 20 has no
 * Float16Array).
 */
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** `value` as float16 bits, rounded to nearest (ties away from zero); out of range: ±Infinity. */
export function toHalf(value: number): number {
  f32[0] = value;
  const bits = u32[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0); // Infinity, NaN
  const e = exponent - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign; // below the smallest subnormal: ±0
    const full = mantissa | 0x800000;
    const shift = 14 - e;
    return sign | ((full >>> shift) + ((full >>> (shift - 1)) & 1));
  }
  // A carry out of the mantissa rounds up into the exponent, which is the right result.
  return (sign | (e << 10) | (mantissa >>> 13)) + ((mantissa >>> 12) & 1);
}

let table: Float32Array | undefined;

/** Every float16 bit pattern's value, built on first use (256 KB). */
export function halfToFloatTable(): Float32Array {
  if (table) return table;
  table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >>> 10) & 0x1f;
    const mantissa = h & 0x3ff;
    table[h] =
      exponent === 0
        ? sign * mantissa * 2 ** -24
        : exponent === 31
          ? mantissa
            ? NaN
            : sign * Infinity
          : sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
  }
  return table;
}
