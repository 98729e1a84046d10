import type { SuggestionDiff } from '../../shared/training';

/** Two suggestions this alike (shared words over all words) are the same suggestion, reworded. */
const CHANGED_SIMILARITY = 0.4;

/**
 * What changed between two versions' suggestions. Equal texts are unchanged (wherever they moved);
 * of the rest, a removed and an added suggestion that share most of their words are one suggestion
 * changed; the others were removed or added.
 */
export function diffSuggestions(from: { version: number; suggestions: string[] }, to: { version: number; suggestions: string[] }): SuggestionDiff {
  const remaining = [...to.suggestions];
  const unchanged: string[] = [];
  const gone: string[] = [];
  for (const s of from.suggestions) {
    const i = remaining.indexOf(s);
    if (i >= 0) {
      unchanged.push(s);
      remaining.splice(i, 1);
    } else {
      gone.push(s);
    }
  }
  const changed: SuggestionDiff['changed'] = [];
  const removed: string[] = [];
  for (const before of gone) {
    let best = -1;
    let bestScore = CHANGED_SIMILARITY;
    remaining.forEach((after, i) => {
      const score = similarity(before, after);
      if (score >= bestScore) {
        best = i;
        bestScore = score;
      }
    });
    if (best >= 0) {
      changed.push({ before, after: remaining[best]! }); // best is an index of remaining
      remaining.splice(best, 1);
    } else {
      removed.push(before);
    }
  }
  return { from: from.version, to: to.version, added: remaining, removed, changed, unchanged };
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

function similarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 && wb.size === 0) return 1;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared += 1;
  return shared / (wa.size + wb.size - shared);
}
