/** Recall scoring (SPEC §5): reciprocal-rank fusion of the two searches, then weighted parts and reasons. */
import { DEFAULT_RECALL_WEIGHTS, RECENCY_HALF_LIFE_DAYS, type RecallWeights } from './types';

export const RRF_K = 60;
const DAY_MS = 86_400_000;

/** Reciprocal-rank fusion of ranked id lists: score(id) = Σ 1 / (k + rank), rank from 1. */
export function reciprocalRankFusion(lists: string[][], k = RRF_K): Map<string, number> {
  const fused = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, index) => fused.set(id, (fused.get(id) ?? 0) + 1 / (k + index + 1)));
  }
  return fused;
}

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ai = a[i]!;
    const bi = b[i]!;
    dot += ai * bi;
    na += ai * ai;
    nb += bi * bi;
  }
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}

export function clamp01(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return Math.min(1, Math.max(0, x));
}

/** 0.5^(age / half-life); future timestamps count as now. */
export function recencyScore(lastAccessedAt: number, now: number, halfLifeDays = RECENCY_HALF_LIFE_DAYS): number {
  const ageDays = Math.max(0, now - lastAccessedAt) / DAY_MS;
  return Math.pow(0.5, ageDays / halfLifeDays);
}

/** Negative weights count as 0; weights are scaled to sum to 1 (all zero → the defaults). */
export function normaliseWeights(weights: RecallWeights | undefined): RecallWeights {
  const w = weights ?? DEFAULT_RECALL_WEIGHTS;
  const s = Math.max(0, w.semantic || 0);
  const r = Math.max(0, w.recency || 0);
  const i = Math.max(0, w.importance || 0);
  const sum = s + r + i;
  if (sum === 0) return { ...DEFAULT_RECALL_WEIGHTS };
  return { semantic: s / sum, recency: r / sum, importance: i / sum };
}

const STOP_WORDS = new Set(
  'a an and are as at be by for from has have how i in is it its of on or that the this to was were what when where which who why will with you your'.split(' '),
);

export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Query words (not stop words) that also occur in the content, in query order, each once. */
export function sharedWords(query: string, content: string): string[] {
  const have = new Set(words(content));
  const out: string[] = [];
  for (const w of words(query)) {
    if (STOP_WORDS.has(w) || !have.has(w) || out.includes(w)) continue;
    out.push(w);
  }
  return out;
}

export interface ScoreParts {
  semantic: number;
  recency: number;
  importance: number;
}

export function weightedScore(parts: ScoreParts, weights: RecallWeights): number {
  return clamp01(parts.semantic * weights.semantic + parts.recency * weights.recency + parts.importance * weights.importance);
}

export function explainMatch(
  parts: ScoreParts,
  ctx: { fromVector: boolean; fromText: boolean; matchedWords: string[]; ageMs: number },
): string[] {
  const reasons: string[] = [];
  if (ctx.fromVector || parts.semantic >= 0.3) reasons.push(`similar meaning (${parts.semantic.toFixed(2)})`);
  if (ctx.fromText && ctx.matchedWords.length > 0) {
    reasons.push(`matches words: ${ctx.matchedWords.map((w) => `"${w}"`).join(', ')}`);
  } else if (ctx.fromText) {
    reasons.push('full-text match');
  }
  const days = Math.floor(Math.max(0, ctx.ageMs) / DAY_MS);
  if (parts.recency >= 0.5) reasons.push(days === 0 ? 'recent (today)' : `recent (${days} day${days === 1 ? '' : 's'})`);
  if (parts.importance >= 0.7) reasons.push(`important (${parts.importance.toFixed(1)})`);
  return reasons;
}
