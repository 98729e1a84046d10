/**
 * The memory table's indices (checked against @lancedb/lancedb 0.31.0), all kept up by `upkeep` after writes:
 * - full-text on `content`; rows added, updated or deleted after an index was built are still found or
 *   hidden correctly (LanceDB searches the unindexed rows by brute force and drops deleted ones), but
 *   every unindexed row costs each search time, so `optimize()` folds them in once there are
 *   OPTIMIZE_AFTER_UNINDEXED (~0.2 s at 100k rows);
 * - scalar indices on `is_private` (bitmap) and `scope` (btree), so recall's filters don't scan the table;
 * - IVF_RQ on `vector` once the table has VECTOR_INDEX_MIN_ROWS rows (see there); a vector index of
 *   another type (an earlier version's IVF_PQ) or under another name is replaced when the store is opened.
 */
import * as lancedb from '@lancedb/lancedb';
import { errorMessage } from '../errors';

const FTS_INDEX = 'content_idx';
export const OPTIMIZE_AFTER_UNINDEXED = 256;
const SCALAR_INDICES = [
  { column: 'is_private', name: 'is_private_idx', config: () => lancedb.Index.bitmap() },
  { column: 'scope', name: 'scope_idx', config: () => lancedb.Index.btree() },
];
const VECTOR_INDEX = 'vector_idx';
/** The vector index as the table lists it. */
interface VectorIndexKind {
  name: string;
  /** Its type as LanceDB lists it. */
  type: string;
}
/**
 * The vector index for an embedder's vector size. IVF_RQ needs a size divisible by 8 (every common
 * embedding model's is); any other size gets IVF_FLAT (exact distances within the searched partitions,
 * ~2x slower at 100k rows but as cheap to train). IVF_RQ with 4 bits per dimension instead of 1 was
 * measured (100k rows, nprobes 32): as good at the top 20 only with refineFactor 2 (recall@20 100% vs
 * 98.2% for 1 bit at 5), and then no faster (11.4 vs 11.4 ms), while ~3x as slow to train.
 */
function vectorIndexFor(dimensions: number, rows: number): VectorIndexKind & { config: lancedb.Index } {
  return dimensions % 8 === 0
    ? { name: VECTOR_INDEX, type: 'IvfRq', config: lancedb.Index.ivfRq({ distanceType: 'cosine' }) }
    : { name: VECTOR_INDEX, type: 'IvfFlat', config: lancedb.Index.ivfFlat({ distanceType: 'cosine', numPartitions: Math.max(1, Math.round(Math.sqrt(rows))) }) };
}
/** The vector index a table has, whatever its name (one under another name is replaced by `maintain`). */
function vectorIndexIn(indices: lancedb.IndexConfig[]): VectorIndexKind | undefined {
  const found = indices.find((i) => i.name === VECTOR_INDEX) ?? indices.find((i) => i.columns.includes('vector'));
  return found ? { name: found.name, type: found.indexType } : undefined;
}
/**
 * Brute-force vector search costs ~4-5 µs per row here (~350-450 ms at 100k rows on 2 cores), so a
 * table gets a vector index once it has this many rows (`vectorIndexMinRows` overrides).
 * IVF_RQ (RaBitQ, `vectorIndexFor`): trained in ~1 s at 100k rows, where IVF_PQ took 37-65 s and an HNSW graph is rebuilt
 * by every `optimize()`; that makes retraining cheap enough to do as the table grows (below).
 */
export const VECTOR_INDEX_MIN_ROWS = 5_000;
/**
 * Each `optimize()` adds the new rows to the vector index as another delta index, still partitioned by
 * the centroids trained on the first rows; after this many the index is trained again on the whole table
 * (sqrt(rows) partitions, one index), so search cost stays that of a fresh index as the table grows.
 */
export const MAX_VECTOR_INDEX_DELTAS = 8;
/**
 * IVF partitions searched, and how many quantised candidates per result are re-ranked with exact
 * distances (recall re-ranks them itself, with the vectors of its RecallCache; `similar` has LanceDB
 * read them back from the table: re-ranking 100 candidates instead of 20 costs that ~3-5 ms of a
 * 100k-row search). At 100k rows, nprobes 32, the top 5 of 20 matched exact search 59% with no
 * re-ranking, 97.4% with 2, 99.2% with 3, 99.8% with 5, 100% with 10 (the whole top 20: 67.7% with 1,
 * 87.9% with 2, 94.6% with 3, 98.2% with 5; recall re-scores all 20 by recency and importance, so the
 * whole 20 counts); bench:memory measures the top 5 each run.
 */
export const IVF_NPROBES = 32;
export const REFINE_FACTOR = 5;

/**
 * Every write makes a table version, and a compaction rewrites fragments and indices into a new one;
 * LanceDB keeps superseded versions (and the files only they use) for 7 days by default: 28 GB on disk
 * for 497 MB of live data after 300k records. Each compaction removes the versions superseded more than
 * this long ago. What still needs them: a read in flight in another process (each process checks for a
 * newer version at least every READ_CONSISTENCY_S before it reads, so a read is never older than that
 * plus its own duration) — `reset` and recovery need only the latest version (a write is one commit).
 */
export const PRUNE_VERSIONS_AFTER_MS = 60_000;

export interface IndexOptions {
  /** Rows before the vector index is built (default VECTOR_INDEX_MIN_ROWS; Infinity: never). */
  vectorIndexMinRows?: number;
  /** Table versions superseded longer ago than this are removed at each compaction (default PRUNE_VERSIONS_AFTER_MS). */
  pruneVersionsAfterMs?: number;
}

/** A LanceDB error's message without its Rust source locations and the cause it repeats. */
function lanceMessage(error: unknown): string {
  return (errorMessage(error).split(/\s+Caused by:/)[0] ?? '').replace(/, \/\S+\.rs:\d+:\d+/g, '').trim();
}

/** The vector index after `keepVectorIndex`: its statistics from before (undefined: none, or retrained since), and why training failed. */
interface VectorUpkeep {
  stats: lancedb.IndexStatistics | undefined;
  failure: unknown;
}

/** Which indices the memory table has, and their upkeep; callers run the writes one at a time. */
export class MemoryIndices {
  private hasFts = false;
  private hasScalar = false;
  /** The vector index (undefined: none yet); another kind than `vectorIndexFor` wants is retrained. */
  private vectorIndex: VectorIndexKind | undefined;
  private lastProblem: string | undefined;

  private constructor(
    private readonly table: lancedb.Table,
    private readonly dimensions: number,
    private readonly vectorIndexMinRows: number,
    private readonly pruneAfterMs: number,
  ) {}

  /** The indices `table` has now (for vectors of `dimensions`). */
  static async of(table: lancedb.Table, dimensions: number, options: IndexOptions): Promise<MemoryIndices> {
    const listed = await table.listIndices();
    const indices = new MemoryIndices(
      table,
      dimensions,
      options.vectorIndexMinRows ?? VECTOR_INDEX_MIN_ROWS,
      options.pruneVersionsAfterMs ?? PRUNE_VERSIONS_AFTER_MS,
    );
    indices.hasFts = listed.some((i) => i.name === FTS_INDEX);
    indices.hasScalar = SCALAR_INDICES.every((s) => listed.some((i) => i.name === s.name));
    indices.vectorIndex = vectorIndexIn(listed);
    return indices;
  }

  get hasFtsIndex(): boolean {
    return this.hasFts;
  }

  get hasVectorIndex(): boolean {
    return this.vectorIndex !== undefined;
  }

  /** Why the last index upkeep failed, until one succeeds (the data is unaffected; see `upkeep`). */
  get problem(): string | undefined {
    return this.lastProblem;
  }

  /** How `similar` searches the index, when there is one (LanceDB re-ranks; recall re-ranks itself). */
  searchIndex(q: lancedb.VectorQuery): lancedb.VectorQuery {
    return this.vectorIndex ? q.nprobes(IVF_NPROBES).refineFactor(REFINE_FACTOR) : q;
  }

  /**
   * Index upkeep after a write. A failure (say, an index that cannot be trained on the rows there are)
   * does not fail the write, which is done: the indices stay as they were — searches still find every
   * row, unindexed ones by brute force — and the next write tries again. The failure is kept in
   * `problem` until an upkeep succeeds.
   */
  async upkeep(): Promise<void> {
    try {
      await this.maintain();
      this.lastProblem = undefined;
    } catch (error) {
      this.lastProblem = lanceMessage(error);
    }
  }

  /**
   * After a write: builds the full-text and scalar indices once there are rows and the vector index
   * once there are `vectorIndexMinRows`; retrains the vector index when it has too many deltas (or is of
   * an older type); folds unindexed rows into every index once there are OPTIMIZE_AFTER_UNINDEXED.
   */
  private async maintain(): Promise<void> {
    const rows = await this.table.countRows();
    if (rows === 0) return;
    await this.ensureFullText();
    await this.ensureScalar();
    const vector = await this.keepVectorIndex(rows);
    const ftsStats = await this.table.indexStats(FTS_INDEX);
    const unindexed = Math.max(ftsStats?.numUnindexedRows ?? 0, vector.stats?.numUnindexedRows ?? 0);
    if (unindexed >= OPTIMIZE_AFTER_UNINDEXED) await this.compact();
    if (vector.failure) throw vector.failure;
  }

  private async ensureFullText(): Promise<void> {
    if (this.hasFts) return;
    await this.table.createIndex('content', { config: lancedb.Index.fts(), replace: true });
    this.hasFts = true;
  }

  private async ensureScalar(): Promise<void> {
    if (this.hasScalar) return;
    for (const s of SCALAR_INDICES) await this.table.createIndex(s.column, { config: s.config(), name: s.name, replace: true });
    this.hasScalar = true;
  }

  /** Builds the vector index once there are enough rows, and trains it again when it is due. */
  private async keepVectorIndex(rows: number): Promise<VectorUpkeep> {
    const wanted = vectorIndexFor(this.dimensions, rows);
    const current = this.vectorIndex;
    const stats = current ? await this.table.indexStats(current.name) : undefined;
    const retrain = current
      ? current.name !== wanted.name || current.type !== wanted.type || (stats?.numIndices ?? 1) > MAX_VECTOR_INDEX_DELTAS
      : rows >= this.vectorIndexMinRows;
    if (!retrain) return { stats, failure: undefined };
    try {
      if (current && current.name !== wanted.name) {
        // One vector index per column: the old one goes first (searches meanwhile are exhaustive, not wrong).
        await this.table.dropIndex(current.name);
        this.vectorIndex = undefined;
      }
      await this.table.createIndex('vector', { config: wanted.config, name: wanted.name, replace: true });
      this.vectorIndex = { name: wanted.name, type: wanted.type };
      return { stats: undefined, failure: undefined };
    } catch (error) {
      return { stats, failure: error }; // the other indices are still kept up
    }
  }

  /**
   * Folds unindexed rows into the indices and small fragments together, then removes the table versions
   * superseded more than `pruneAfterMs` ago (and the files only they used). Files no version
   * refers to are left alone (they may belong to another process's write in progress).
   */
  async compact(): Promise<void> {
    // Wall time (versions carry real timestamps), not the store's clock, which tests may set anywhere.
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - this.pruneAfterMs) });
  }

  /** Vector index coverage (undefined while the table is below `vectorIndexMinRows`). */
  async vectorStatus(): Promise<{ type: string; indexedRows: number; unindexedRows: number; deltas: number } | undefined> {
    if (!this.vectorIndex) return undefined;
    const stats = await this.table.indexStats(this.vectorIndex.name);
    return stats
      ? { type: stats.indexType, indexedRows: stats.numIndexedRows, unindexedRows: stats.numUnindexedRows, deltas: stats.numIndices ?? 1 }
      : undefined;
  }

  /** Full-text index coverage (undefined until the first rows create the index). */
  async ftsStatus(): Promise<{ indexedRows: number; unindexedRows: number } | undefined> {
    if (!this.hasFts) return undefined;
    const stats = await this.table.indexStats(FTS_INDEX);
    return stats ? { indexedRows: stats.numIndexedRows, unindexedRows: stats.numUnindexedRows } : undefined;
  }
}
