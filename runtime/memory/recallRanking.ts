/**
 * Recall's ranking of the fused candidates: each is scored from its cached row by semantic similarity,
 * recency and importance (weighted), and only those returned become records.
 */
import { matchesFilter, type MemoryFilter } from './memoryFilter';
import { parseJson, rowToRecord } from './memoryRows';
import type { PendingAccess } from './pendingAccess';
import type { CachedRow, RecallCache } from './recallCache';
import { clamp01, explainMatch, recencyScore, sharedWords, weightedScore, type ScoreParts } from './recallScore';
import type { FusedHits } from './recallSearch';
import type { RecallMatch, RecallQuery, RecallWeights } from './types';

export const MAX_RECALL_LIMIT = 50;
export const DEFAULT_RECALL_LIMIT = 5;

/** How many matches a recall returns. */
export function recallLimit(query: RecallQuery): number {
  return Math.min(MAX_RECALL_LIMIT, Math.max(1, Math.floor(query.limit ?? DEFAULT_RECALL_LIMIT)));
}

/** What the candidates are scored with. */
export interface Ranking {
  cache: RecallCache;
  query: RecallQuery;
  filter: MemoryFilter;
  weights: RecallWeights;
  now: number;
  /** Recall's access times not yet written (they count for recency, and show in the records). */
  access: Pick<PendingAccess, 'of' | 'apply'>;
}

interface ScoredMatch {
  id: string;
  row: CachedRow;
  parts: ScoreParts;
  score: number;
  fusedScore: number;
  matchedWords: string[];
  lastUsed: number;
}

/** A candidate scored from its cached row; undefined when it was forgotten meanwhile or the filter leaves it out. */
function scoreCandidate(ranking: Ranking, fused: FusedHits, id: string, fusedScore: number): ScoredMatch | undefined {
  const { cache, query, filter } = ranking;
  const row = cache.row(id);
  if (!row) return undefined; // forgotten while the searches ran
  const categories = filter.categories?.length ? parseJson<string[]>(row.categories, []) : [];
  if (!matchesFilter({ scope: String(row.scope), categories, private: Boolean(row.is_private) }, filter)) return undefined;
  const semantic = clamp01(fused.similarity.get(id)!);
  if (semantic < (query.minSemantic ?? 0)) return undefined;
  const lastUsed = Math.max(Number(row.last_accessed_at), ranking.access.of(id) ?? 0) || Number(row.updated_at);
  const parts = { semantic, recency: recencyScore(lastUsed, ranking.now), importance: clamp01(Number(row.importance)) };
  const matchedWords = sharedWords(query.query, String(row.content));
  return { id, row, parts, score: weightedScore(parts, ranking.weights), fusedScore, matchedWords, lastUsed };
}

/** The best `limit` candidates as matches, best first, each with the reasons it matched. */
export function rankMatches(ranking: Ranking, fused: FusedHits, limit: number): RecallMatch[] {
  const scored: ScoredMatch[] = [];
  for (const [id, fusedScore] of fused.candidates) {
    const match = scoreCandidate(ranking, fused, id, fusedScore);
    if (match) scored.push(match);
  }
  // Ties (equal weighted score) go to the better fused search rank, then to more shared query words.
  scored.sort((a, b) => b.score - a.score || b.fusedScore - a.fusedScore || b.matchedWords.length - a.matchedWords.length);
  return scored.slice(0, limit).map((m) => ({
    record: ranking.access.apply(rowToRecord(m.row)),
    score: m.score,
    ...m.parts,
    reasons: explainMatch(m.parts, {
      fromVector: fused.vectorIds.includes(m.id),
      fromText: fused.textIds.includes(m.id),
      matchedWords: m.matchedWords,
      ageMs: ranking.now - m.lastUsed,
    }),
  }));
}
