/** A copy of `record` with `patch` applied; `undefined` in the patch removes the key (so defaults apply). */
export function patchRecord(record: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...record };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete next[k];
    else next[k] = v;
  }
  return next;
}
