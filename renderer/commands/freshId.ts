/** Ids in documents: letters, digits, _ and - (the crew schema's rule). */
export const ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A readable id derived from `base`, made valid and different from every id in `taken`. */
export function freshId(base: string, taken: ReadonlySet<string>): string {
  const slug = ID_PATTERN.test(base)
    ? base.slice(0, 60)
    : base
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'item';
  if (!taken.has(slug)) return slug;
  // "agent-3" taken → "agent-4", "agent-5"…; "writer" taken → "writer-2"…
  const numbered = /^(.*)-(\d+)$/.exec(slug);
  const stem = numbered ? numbered[1] : slug;
  for (let n = numbered ? Number(numbered[2]) + 1 : 2; ; n += 1) {
    const candidate = `${stem}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** "Agent 3" style labels: the first `prefix n` (n ≥ start) not in `taken` (compared case-insensitively). */
export function freshLabel(prefix: string, taken: readonly string[], start = taken.length + 1): string {
  const lower = new Set(taken.map((t) => t.trim().toLowerCase()));
  for (let n = start; ; n += 1) {
    const candidate = `${prefix} ${n}`;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}
