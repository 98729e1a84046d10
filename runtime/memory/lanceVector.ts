/** A vector column as LanceDB returns it (an Arrow vector or a plain array) as plain numbers. */
export function toNumbers(vector: unknown): number[] {
  if (Array.isArray(vector)) return vector as number[];
  if (vector && typeof (vector as Iterable<number>)[Symbol.iterator] === 'function') return Array.from(vector as Iterable<number>, Number);
  return [];
}

/** The same numbers without copying them out one by one: an Arrow vector's typed array, else `toNumbers`. */
export function vectorValues(vector: unknown): ArrayLike<number> {
  const typed = (vector as { toArray?: () => unknown } | null)?.toArray?.();
  if (ArrayBuffer.isView(typed) && !(typed instanceof DataView)) return typed as unknown as ArrayLike<number>;
  return toNumbers(vector);
}
