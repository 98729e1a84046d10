import { distance } from 'fastest-levenshtein';

/** Lower-case, drop quotes, collapse whitespace: how roles and tool names are compared. */
export function normaliseName(name: string): string {
  return name
    .replace(/["'`“”‘’]/g, '')
    .replace(/[\s_-]+/g, ' ')
    .trim()
    .toLowerCase();
}

const MAX_WANTED_NAME = 1024;

/**
 * Finds `wanted` among `candidates`: exact normalised match first (first wins), then the closest
 * near miss within a small edit distance. Returns undefined when nothing is close enough.
 */
export function matchName<T>(wanted: string, candidates: readonly T[], nameOf: (c: T) => string): T | undefined {
  // A "name" longer than this (from a model's tool arguments) is prose: it names nothing, and is not normalised.
  if (wanted.length > MAX_WANTED_NAME) return undefined;
  const key = normaliseName(wanted);
  if (key === '') return undefined;
  const exact = candidates.find((c) => normaliseName(nameOf(c)) === key);
  if (exact !== undefined) return exact;
  let best: T | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const other = normaliseName(nameOf(c));
    const allowed = Math.max(1, Math.floor(Math.max(key.length, other.length) * 0.25));
    // The distance is at least the difference in length: skip the (quadratic) computation when that
    // alone is too far, so a megabyte "name" in a model's tool arguments costs nothing.
    if (Math.abs(key.length - other.length) > allowed) continue;
    const d = distance(key, other);
    if (d <= allowed && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
