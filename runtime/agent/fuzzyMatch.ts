import { distance } from 'fastest-levenshtein';

/** Lower-case, drop quotes, collapse whitespace: how roles and tool names are compared. */
export function normaliseName(name: string): string {
  return name
    .replace(/["'`“”‘’]/g, '')
    .replace(/[\s_-]+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * Finds `wanted` among `candidates`: exact normalised match first (first wins), then the closest
 * near miss within a small edit distance. Returns undefined when nothing is close enough.
 */
export function matchName<T>(wanted: string, candidates: readonly T[], nameOf: (c: T) => string): T | undefined {
  const key = normaliseName(wanted);
  if (key === '') return undefined;
  const exact = candidates.find((c) => normaliseName(nameOf(c)) === key);
  if (exact !== undefined) return exact;
  let best: T | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const other = normaliseName(nameOf(c));
    const d = distance(key, other);
    const allowed = Math.max(1, Math.floor(Math.max(key.length, other.length) * 0.25));
    if (d <= allowed && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
