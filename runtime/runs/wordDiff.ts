import type { WordDiffPart } from '../../shared/runDiff';

/** Past this many cells the middle of two texts is shown as one removal and one addition. */
const MAX_CELLS = 4_000_000;

/** Words and the whitespace after them, so joining the parts gives back the texts. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/**
 * A word-level diff of `a` into `b` (longest common subsequence over words, after trimming the common
 * prefix and suffix). Joining the `equal` and `remove` parts gives `a`; `equal` and `add` give `b`.
 */
export function wordDiff(a: string, b: string): WordDiffPart[] {
  const x = words(a);
  const y = words(b);
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let endX = x.length;
  let endY = y.length;
  while (endX > start && endY > start && x[endX - 1] === y[endY - 1]) {
    endX--;
    endY--;
  }
  const parts: WordDiffPart[] = [];
  const push = (op: WordDiffPart['op'], text: string) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last?.op === op) last.text += text;
    else parts.push({ op, text });
  };
  push('equal', x.slice(0, start).join(''));
  const mx = x.slice(start, endX);
  const my = y.slice(start, endY);
  if (mx.length * my.length > MAX_CELLS) {
    push('remove', mx.join(''));
    push('add', my.join(''));
  } else {
    middle(mx, my, push);
  }
  push('equal', x.slice(endX).join(''));
  return parts;
}

function middle(x: string[], y: string[], push: (op: WordDiffPart['op'], text: string) => void): void {
  const n = x.length;
  const m = y.length;
  // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  // Every index below is in range: i < n and j < m, so i + 1 <= n and j + 1 <= m.
  for (let i = n - 1; i >= 0; i--) {
    const row = lcs[i]!;
    const below = lcs[i + 1]!;
    for (let j = m - 1; j >= 0; j--) row[j] = x[i] === y[j] ? below[j + 1]! + 1 : Math.max(below[j]!, row[j + 1]!);
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      push('equal', x[i++]!);
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) push('remove', x[i++]!);
    else push('add', y[j++]!);
  }
  while (i < n) push('remove', x[i++]!);
  while (j < m) push('add', y[j++]!);
}
