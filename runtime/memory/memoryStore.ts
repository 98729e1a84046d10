/**
 * The memory store (SPEC §5): memory records in a LanceDB table `memories` under
 * `<workspace>/.crewdeck/memory`, with a vector column (sized to the embedder) and a full-text
 * index on `content`. Recall fuses vector and full-text search (RRF, k = 60) and scores the
 * candidates by semantic similarity, recency and importance. The indices, kept up after every
 * write, are MemoryIndices'.
 */
import { redactKnownDeep } from '../redactSecrets';
import { lanceRows } from './arrowRows';
import { toNumbers, vectorValues } from './lanceVector';
import type * as lancedb from '@lancedb/lancedb';
import { randomBytes } from 'node:crypto';
import { filterToWhere, forgetWhere, matchesFilter, scopeMatches, sqlString, type ForgetOptions, type MemoryFilter } from './memoryFilter';
import { embedChecked } from './embedChecked';
import { cachedRow, RECORD_COLUMNS, rowToRecord, tableRow } from './memoryRows';
import { openMemoryTable } from './memoryTable';
import { RecallCache } from './recallCache';
import { recallLimit, rankMatches } from './recallRanking';
import { cosineSimilarity, normaliseWeights } from './recallScore';
import { fuseHits, hitScorer, searchBoth, type SearchTarget } from './recallSearch';
import { recallTimings, type RecallTimings } from './recallTimings';
import { MemoryNotFound } from './memoryErrors';
import { MemoryIndices, type IndexOptions } from './memoryIndices';
import { checkContent, newRecord, patchedRecord, type MemoryPatch } from './memoryRecords';
import { PendingAccess } from './pendingAccess';
import type { Embedder, MemoryRecord, NewMemory, RecallMatch, RecallQuery } from './types';

/** Candidates taken from each search, as a multiple of the limit. */
const CANDIDATE_FACTOR = 4;

export interface MemoryStoreOptions extends IndexOptions {
  /** Clock in epoch ms (tests inject one). */
  now?: () => number;
  /** How often (seconds) reads check for another process's newer version (default READ_CONSISTENCY_S; 0: every read). */
  readConsistencyS?: number;
}

export interface ListOptions extends MemoryFilter {
  limit?: number;
  offset?: number;
}

export class MemoryStore {
  private writes: Promise<unknown> = Promise.resolve();
  /** What reads wait for: every write except the deferred access-time updates of recall. */
  private readBarrier: Promise<unknown> = Promise.resolve();
  /** Recall's access times not yet written: written with the next write, or queued when due. */
  private readonly access = new PendingAccess(() => {
    const flush = () => this.flushAccessTimes();
    this.writes = this.writes.then(flush, flush).catch(() => undefined);
  });
  private closed = false;
  /**
   * Private rows in the table as this handle sees it (it sees only this store's own writes): unknown
   * (undefined) during every write, counted again after it (`exclusive`) and when opened. While it is 0,
   * recall leaves `is_private = false` out of its searches' filter: it would keep every row, and costs
   * each search ~1.5-2 ms at 100k rows. Recall checks every row against its filter again regardless.
   */
  private privateRows: number | undefined;
  /** Recall's copy of the rows (see RecallCache): loaded by the first recall, kept up by the writes. */
  private cache: RecallCache | undefined;
  private cacheLoad: Promise<RecallCache> | undefined;
  /** Recalls in flight: `close` closes the table once they are done. */
  private readonly recalls = new Set<Promise<unknown>>();

  private constructor(
    private readonly table: lancedb.Table,
    readonly embedder: Embedder,
    private readonly now: () => number,
    private readonly indices: MemoryIndices,
  ) {}

  /** Opens (creating if needed) the store in `dir`. Throws EmbedderMismatch for another embedder's store. */
  static async open(dir: string, embedder: Embedder, options: MemoryStoreOptions = {}): Promise<MemoryStore> {
    const table = await openMemoryTable(dir, embedder, options.readConsistencyS);
    const indices = await MemoryIndices.of(table, embedder.dimensions, options);
    const store = new MemoryStore(table, embedder, options.now ?? Date.now, indices);
    // Indices an earlier version did not build, or rows a process left unindexed (one killed before it
    // folded them in), are seen to now, behind the reads rather than in front of them.
    store.writes = store.countPrivateRows().then(() => indices.upkeep());
    return store;
  }

  /** Closes the table once the writes and recalls in flight are done, writing recall's pending access times first (best effort). */
  close(): Promise<void> {
    if (this.closed) return this.writes.then(() => undefined);
    this.closed = true;
    this.access.cancel();
    const flush = () => this.flushAccessTimes();
    const recalls = Promise.allSettled(this.recalls);
    this.writes = this.writes
      .then(() => recalls)
      .then(flush, flush)
      .catch(() => undefined)
      .finally(() => {
        this.cache = undefined;
        this.table.close();
      });
    return this.writes.then(() => undefined);
  }

  /** Runs writes one at a time (recall's pending access times go first); reads wait for them (`idle`). */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = async () => {
      await this.flushAccessTimes().catch(() => undefined); // best effort: never fails the write behind it
      this.privateRows = undefined;
      try {
        return await work();
      } finally {
        await this.countPrivateRows();
      }
    };
    const result = this.writes.then(run, run);
    this.writes = result.catch(() => undefined);
    this.readBarrier = this.writes;
    return result;
  }

  /**
   * After a write of the rows `ids` (and its upkeep): the addresses it gave them, for the recall cache
   * (if a recall loaded it). A delete gives no row a new address.
   */
  private async readWrittenAddresses(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.cache?.readWrittenAddresses(this.table, ids).catch(() => undefined); // recall reads them itself if this fails
  }

  private async countPrivateRows(): Promise<void> {
    this.privateRows = await this.table.countRows('is_private = true').catch(() => undefined);
  }

  /** Writes recall's pending access times now (after the writes in flight). */
  async flush(): Promise<void> {
    await this.exclusive(async () => undefined);
  }

  private async idle(): Promise<void> {
    await this.readBarrier;
  }

  /** Notes the access times of records recall returned (see PendingAccess). */
  private touch(ids: string[], at: number): void {
    if (this.closed) return;
    this.access.touch(ids, at);
  }

  /** Writes the pending access times; runs inside the write queue. */
  private async flushAccessTimes(): Promise<void> {
    const written = await this.access.write(this.table, () => this.cache);
    if (written.length === 0) return;
    // The updated rows are unindexed (searched by brute force) until folded in, also before closing.
    await this.indices.upkeep();
    await this.readWrittenAddresses(written);
  }

  private newId(): string {
    return `mem_${this.now().toString(36)}_${randomBytes(5).toString('hex')}`;
  }

  /** Why the last index upkeep failed, until one succeeds (the data is unaffected; see `upkeep`). */
  get indexProblem(): string | undefined {
    return this.indices.problem;
  }

  /** How many versions of the table are kept on disk (bounded by compaction's pruning). */
  async versionCount(): Promise<number> {
    await this.idle();
    return (await this.table.listVersions()).length;
  }

  /** Compacts now (what index upkeep does once enough rows are unindexed). */
  async compactNow(): Promise<void> {
    await this.exclusive(() => this.indices.compact());
  }

  /** Vector index coverage (undefined while the table is below `vectorIndexMinRows`). */
  async vectorIndexStatus(): Promise<{ type: string; indexedRows: number; unindexedRows: number; deltas: number } | undefined> {
    await this.idle();
    return this.indices.vectorStatus();
  }

  /** Full-text index coverage (undefined until the first rows create the index). */
  async ftsIndexStatus(): Promise<{ indexedRows: number; unindexedRows: number } | undefined> {
    await this.idle();
    return this.indices.ftsStatus();
  }

  /** Embeds texts in one batch with the store's embedder (checked: one vector per text, right dimension). */
  async embed(texts: string[]): Promise<number[][]> {
    return embedChecked(this.embedder, texts);
  }

  /** Adds records; `vectors` (from `embed`, one per memory) saves embedding them again. */
  async add(given: NewMemory[], vectors?: number[][]): Promise<MemoryRecord[]> {
    if (given.length === 0) return [];
    // A key a model echoed is neither stored nor sent to the embedder (docs/SECURITY.md).
    const memories = given.map((m) => redactKnownDeep(m));
    checkContent(memories);
    if (vectors && vectors.length !== memories.length) throw new Error(`${vectors.length} vectors given for ${memories.length} memories`);
    vectors ??= await this.embed(memories.map((m) => m.content));
    return this.exclusive(async () => {
      const now = this.now();
      const records = memories.map((m) => newRecord(m, this.newId(), now));
      // embed checked that it returned one vector per text, and there is one record per text.
      await this.table.add(records.map((r, i) => tableRow(r, vectors[i]!)));
      records.forEach((r, i) => this.cache?.set(r.id, cachedRow(r), vectors[i]!));
      await this.indices.upkeep();
      await this.readWrittenAddresses(records.map((r) => r.id));
      return records;
    });
  }

  async get(id: string): Promise<MemoryRecord | undefined> {
    await this.idle();
    const rows = lanceRows(await this.table.query().where(`id = ${sqlString(id)}`).select(RECORD_COLUMNS).limit(1).toArray());
    const [row] = rows;
    const record = row !== undefined ? this.access.apply(rowToRecord(row)) : undefined;
    return record && record.id === id ? record : undefined;
  }

  /** Records newest first. Private records are left out unless `includePrivate`. */
  async list(options: ListOptions = {}): Promise<MemoryRecord[]> {
    await this.idle();
    const where = filterToWhere(options);
    let q = this.table.query().select(RECORD_COLUMNS);
    if (where) q = q.where(where);
    const records = lanceRows(await q.toArray()).map((row) => this.access.apply(rowToRecord(row))).filter((r) => matchesFilter(r, options));
    records.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
    const offset = Math.max(0, options.offset ?? 0);
    const limit = options.limit === undefined ? undefined : Math.max(0, options.limit);
    return records.slice(offset, limit === undefined ? undefined : offset + limit);
  }

  async count(filter?: MemoryFilter): Promise<number> {
    await this.idle();
    if (!filter) return this.table.countRows();
    return (await this.list(filter)).length;
  }

  /** Changes a record; a new content is re-embedded and the old one goes onto `history`. `source` never changes. */
  async update(id: string, given: MemoryPatch): Promise<MemoryRecord> {
    const patch = redactKnownDeep(given);
    const before = await this.get(id);
    if (!before) throw new MemoryNotFound(id);
    const contentChanged = patch.content !== undefined && patch.content !== before.content;
    if (contentChanged && patch.content!.trim() === '') throw new Error('a memory needs non-empty content');
    const newVector = contentChanged ? (await this.embed([patch.content!]))[0] : undefined;
    return this.exclusive(async () => {
      const rows = lanceRows(await this.table.query().where(`id = ${sqlString(id)}`).limit(1).toArray());
      const [row] = rows;
      if (row === undefined) throw new MemoryNotFound(id);
      const current = this.access.apply(rowToRecord(row));
      const now = this.now();
      const next = patchedRecord(current, patch, contentChanged, now);
      const vector = newVector ?? toNumbers(row.vector);
      await this.table
        .mergeInsert('id')
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .execute([tableRow(next, vector)]);
      this.cache?.set(next.id, cachedRow(next), vector);
      await this.indices.upkeep();
      await this.readWrittenAddresses([next.id]);
      return next;
    });
  }

  /** Removes records by id and/or scope (both given: ids within the scope); returns how many went. */
  async forget(options: ForgetOptions): Promise<number> {
    const where = forgetWhere(options);
    if (where === undefined) return 0;
    return this.exclusive(async () => {
      const before = await this.table.countRows();
      await this.table.delete(where);
      if (options.scope === undefined) this.cache?.delete(options.ids ?? []);
      else this.cache?.deleteWhere((id, row) => (!options.ids || options.ids.includes(id)) && scopeMatches(String(row.scope), options.scope!));
      return before - (await this.table.countRows());
    });
  }

  /** Removes every record (the table and its embedder stay). */
  async reset(): Promise<void> {
    await this.exclusive(async () => {
      await this.table.delete('true');
      this.cache?.clear();
      await this.table.optimize({ cleanupOlderThan: new Date() }).catch(() => undefined);
    });
  }

  /**
   * Records of a scope (private ones included) whose cosine similarity to `vector` is at least
   * `minSimilarity`, most similar first: what consolidation compares a new memory with.
   */
  async similar(vector: number[], options: { scope: string; minSimilarity: number; limit: number }): Promise<{ record: MemoryRecord; similarity: number }[]> {
    await this.idle();
    const filter: MemoryFilter = { scope: options.scope, includePrivate: true };
    const where = filterToWhere(filter);
    let q = this.indices.searchIndex(this.table.query().nearestTo(vector).distanceType('cosine').limit(Math.max(1, options.limit)));
    if (where) q = q.where(where);
    const rows = lanceRows(await q.toArray());
    return rows
      .map((row) => ({ record: this.access.apply(rowToRecord(row)), similarity: cosineSimilarity(vector, vectorValues(row.vector)) }))
      .filter((m) => m.similarity >= options.minSimilarity && matchesFilter(m.record, filter))
      .sort((a, b) => b.similarity - a.similarity);
  }

  /**
   * The recall cache, loaded on first use inside the write queue (no write runs while the table is read,
   * and every later write keeps it up).
   */
  private recallCache(): Promise<RecallCache> {
    if (this.cache) return Promise.resolve(this.cache);
    if (!this.cacheLoad) {
      const load = async () => {
        const cache = await RecallCache.load(this.table, this.embedder.dimensions, RECORD_COLUMNS);
        if (!this.closed) this.cache = cache;
        return cache;
      };
      const loading = this.writes.then(load, load);
      this.cacheLoad = loading;
      loading.catch(() => {
        if (this.cacheLoad === loading) this.cacheLoad = undefined; // the next recall tries again
      });
      this.writes = loading.catch(() => undefined);
    }
    return this.cacheLoad;
  }

  /** `timings`, when given, is filled in with where the time went. */
  recall(query: RecallQuery, timings?: RecallTimings): Promise<RecallMatch[]> {
    // Asked for first, so the cache's first load is queued before any write or `close` that follows.
    const cacheReady = this.recallCache();
    const running = this.recallWith(cacheReady, query, timings);
    const done = () => this.recalls.delete(running);
    this.recalls.add(running);
    running.then(done, done);
    return running;
  }

  private async recallWith(cacheReady: Promise<RecallCache>, query: RecallQuery, timings?: RecallTimings): Promise<RecallMatch[]> {
    const start = performance.now();
    const limit = recallLimit(query);
    const weights = normaliseWeights(query.weights);
    const filter: MemoryFilter = { scope: query.scope, categories: query.categories, includePrivate: query.includePrivate };
    // embed checked that it returned one vector per text.
    const queryVector = (await this.embed([query.query]))[0]!;
    const embedded = performance.now();
    await this.idle();
    // Rows are checked against `filter` again when ranked; with no private rows there is none to leave out.
    const where = filterToWhere({ ...filter, includePrivate: filter.includePrivate || this.privateRows === 0 });
    const take = limit * CANDIDATE_FACTOR;
    const cache = await cacheReady;
    const target: SearchTarget = { table: this.table, cache, where, vectorIndexed: this.indices.hasVectorIndex, fullTextIndexed: this.indices.hasFtsIndex };
    const scored = hitScorer(cache, queryVector);
    const hits = await searchBoth(target, query.query, queryVector, take, scored);
    const searched = performance.now();
    const fusedHits = await fuseHits(target, hits, scored, take);
    const fused = performance.now();
    const now = this.now();
    const top = rankMatches({ cache, query, filter, weights, now, access: this.access }, fusedHits, limit);
    if (top.length > 0 && query.touch !== false) {
      this.touch(
        top.map((m) => m.record.id),
        now,
      );
      for (const m of top) m.record.lastAccessedAt = now;
    }
    if (timings) {
      const marks = { start, embedded, searchStarted: hits.startedAt, vectorDone: hits.vectorDoneAt, textDone: hits.textDoneAt, searched, fused };
      Object.assign(timings, recallTimings({ ...marks, end: performance.now() }));
    }
    return top;
  }
}

