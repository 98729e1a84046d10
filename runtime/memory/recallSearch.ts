/**
 * Recall's two searches, vector and full-text, and their fusion (RRF). Both searches return row
 * addresses only: the ids, rows and vectors come from the recall cache. With an index the vector
 * search's quantised distances are re-ranked here: its top `take × REFINE_FACTOR` candidates, by exact
 * cosine similarity (what `refineFactor` has LanceDB do, reading each candidate's vector back from the
 * table). Each search's hits are scored as it returns, while the other may still be running.
 */
import type * as lancedb from '@lancedb/lancedb';
import { IVF_NPROBES, REFINE_FACTOR } from './memoryIndices';
import type { RecallCache } from './recallCache';
import { reciprocalRankFusion } from './recallScore';
import { rowAddresses } from './rowAddresses';

/** A search hit: its row address, its id and its cosine similarity to the query (NaN: not in the recall cache). */
interface Hit {
  address: bigint;
  id: string | undefined;
  similarity: number;
}

/** The hits at these row addresses, scored against the query from the recall cache. */
export type HitScorer = (addresses: bigint[]) => Hit[];

/** What the searches run on. */
export interface SearchTarget {
  table: lancedb.Table;
  cache: RecallCache;
  /** The searches' filter (each row is checked against the recall's filter again when scored). */
  where: string | undefined;
  vectorIndexed: boolean;
  fullTextIndexed: boolean;
}

/** Both searches' hits, and when they started and each finished (`performance.now()`). */
export interface SearchHits {
  vectorHits: Hit[];
  textHits: Hit[];
  startedAt: number;
  vectorDoneAt: number;
  textDoneAt: number;
}

/** The hits' records ranked by reciprocal rank fusion, and each one's similarity to the query. */
export interface FusedHits {
  similarity: Map<string, number>;
  /** The vector search's records, most similar first. */
  vectorIds: string[];
  textIds: string[];
  /** Ids and fused scores, best first. */
  candidates: [string, number][];
}

export function hitScorer(cache: RecallCache, queryVector: number[]): HitScorer {
  const queryNorm = Math.hypot(...queryVector);
  return (addresses) =>
    addresses.map((address) => {
      const id = cache.idAt(address);
      return { address, id, similarity: id === undefined ? NaN : cache.similarity(id, queryVector, queryNorm) };
    });
}

/** Runs both searches at once (LanceDB works off the JS thread): recall waits for the slower one only. */
export async function searchBoth(target: SearchTarget, text: string, queryVector: number[], take: number, scored: HitScorer): Promise<SearchHits> {
  const vq = vectorQuery(target, queryVector, take);
  const startedAt = performance.now();
  let vectorDoneAt = startedAt;
  let textDoneAt = startedAt;
  const vectorSearch = vq.toArrow().then(rowAddresses).then(scored).finally(() => (vectorDoneAt = performance.now()));
  const textSearch = fullTextSearch(target, text, take, scored);
  const [vectorHits, textHits] = await Promise.all([vectorSearch, textSearch.finally(() => (textDoneAt = performance.now()))]);
  return { vectorHits, textHits, startedAt, vectorDoneAt, textDoneAt };
}

function vectorQuery(target: SearchTarget, queryVector: number[], take: number): lancedb.VectorQuery {
  const indexed = target.vectorIndexed;
  let vq = target.table.query().nearestTo(queryVector).distanceType('cosine').select(['_distance']).withRowId().limit(indexed ? take * REFINE_FACTOR : take);
  if (indexed) vq = vq.nprobes(IVF_NPROBES);
  if (target.where) vq = vq.where(target.where);
  return vq;
}

function fullTextSearch(target: SearchTarget, text: string, take: number, scored: HitScorer): Promise<Hit[]> {
  if (!target.fullTextIndexed || !/[\p{L}\p{N}]/u.test(text)) return Promise.resolve([]);
  try {
    let tq = target.table.query().fullTextSearch(text).select(['_score']).withRowId().limit(take);
    if (target.where) tq = tq.where(target.where);
    return tq.toArrow().then(rowAddresses, () => []).then(scored); // a query the FTS parser rejects just contributes nothing
  } catch {
    return Promise.resolve([]);
  }
}

/**
 * The hits with every address known to the cache. An address the cache has not read (another process's
 * row, or a write of this store's whose rows were not at the table's end): the new addresses are read,
 * with any rows written there by another process. A hit whose record is still unknown was deleted while
 * the searches ran, and is left out (by `fuseHits`).
 */
async function resolveHits(target: SearchTarget, hits: SearchHits, scored: HitScorer): Promise<{ vectorHits: Hit[]; textHits: Hit[] }> {
  const { vectorHits, textHits } = hits;
  if (![...vectorHits, ...textHits].some((h) => h.id === undefined)) return { vectorHits, textHits };
  await target.cache.readNewAddresses(target.table);
  return { vectorHits: scored(vectorHits.map((h) => h.address)), textHits: scored(textHits.map((h) => h.address)) };
}

/** The searches' known records fused into one ranking of at most `take`. */
export async function fuseHits(target: SearchTarget, hits: SearchHits, scored: HitScorer, take: number): Promise<FusedHits> {
  const { vectorHits, textHits } = await resolveHits(target, hits, scored);
  const known = (h: Hit): h is Hit & { id: string } => h.id !== undefined && !Number.isNaN(h.similarity);
  const similarity = new Map(vectorHits.concat(textHits).filter(known).map((h) => [h.id, h.similarity]));
  const vectorIds = vectorHits
    .filter(known)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, take)
    .map((h) => h.id);
  const textIds = textHits.filter(known).map((h) => h.id);
  const fused = reciprocalRankFusion([vectorIds, textIds]);
  const candidates = [...fused.entries()].sort((a, b) => b[1] - a[1]).slice(0, take);
  return { similarity, vectorIds, textIds, candidates };
}
