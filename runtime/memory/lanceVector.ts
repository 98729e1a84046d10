/** A vector column as LanceDB returns it (an Arrow vector or a plain array) as plain numbers. */
export function toNumbers(vector: unknown): number[] {
  if (Array.isArray(vector)) return vector as number[];
  if (vector && typeof (vector as Iterable<number>)[Symbol.iterator] === 'function') return Array.from(vector as Iterable<number>, Number);
  return [];
}
