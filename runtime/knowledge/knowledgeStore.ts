/**
 * The knowledge store: chunks of knowledge sources in a LanceDB table `chunks` under
 * `<workspace>/.crewdeck/knowledge` (its own database, apart from memory), with a vector column sized to
 * the embedder (whose id is kept in the table metadata) and a full-text index on `content`.
 *
 * Every chunk row carries its source's `content_hash` (SHA-256 of the source text) and the chunking it
 * was cut with, so ingesting an unchanged source is a no-op (nothing embedded, nothing written) and a
 * changed one replaces all its chunks in one commit (merge-insert that deletes the source's old rows).
 *
 * Search fuses vector (cosine) and full-text results (reciprocal-rank fusion) within the given sources,
 * then scores each candidate 0..1 from its cosine similarity and the share of query words it contains.
 */
import { redactKnown } from '../redactSecrets';
import { lanceRows } from '../memory/arrowRows';
import { toNumbers } from '../memory/lanceVector';
import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { sqlString } from '../memory/memoryFilter';
import { clamp01, cosineSimilarity, reciprocalRankFusion, sharedWords } from '../memory/recallScore';
import type { Embedder } from '../memory/types';
import { chunkText, DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE } from './chunkText';
import { KnowledgeEmbedderMismatch } from './errors';
import type { LoadedSource } from './loadSource';

export const KNOWLEDGE_TABLE = 'chunks';
const META_EMBEDDER = 'crewdeck.embedder';
const META_DIMENSIONS = 'crewdeck.dimensions';
const FTS_INDEX = 'content_idx';
/** Tries of a write whose commit lost a race with another writer's (with 4 writers at once, 5 were not always enough). */
const COMMIT_ATTEMPTS = 10;

/** LanceDB's "Retryable commit conflict … preempted by concurrent transaction": the write may simply be tried again. */
function isCommitConflict(error: unknown): boolean {
  return /retryable commit conflict|preempted by concurrent transaction/i.test(error instanceof Error ? error.message : String(error));
}
const OPTIMIZE_AFTER_UNINDEXED = 256;
import { DEFAULT_KNOWLEDGE_LIMIT, DEFAULT_KNOWLEDGE_MIN_SCORE } from './knowledgeDefaults';
export { DEFAULT_KNOWLEDGE_LIMIT, DEFAULT_KNOWLEDGE_MIN_SCORE };
const MAX_LIMIT = 50;
const CANDIDATE_FACTOR = 4;
/** Score = SEMANTIC_WEIGHT · cosine + (1 − SEMANTIC_WEIGHT) · share of the query's words found in the chunk. */
export const SEMANTIC_WEIGHT = 0.6;
/** Chunks embedded per embedder call. */
const EMBED_BATCH = 64;

export interface ChunkSettings {
  size: number;
  overlap: number;
}

export interface IngestResult {
  key: string;
  name: string;
  status: 'unchanged' | 'added' | 'replaced';
  chunks: number;
  contentHash: string;
}

export interface KnowledgeSourceInfo {
  key: string;
  name: string;
  type: string;
  chunks: number;
  contentHash: string;
  ingestedAt: number;
}

export interface KnowledgeQuery {
  query: string;
  /** Only chunks of these sources (an empty list finds nothing). */
  sourceKeys: string[];
  limit?: number;
  /** Matches scoring below this (0..1) are dropped. */
  minScore?: number;
}

export interface KnowledgeMatch {
  id: string;
  sourceKey: string;
  sourceName: string;
  chunkIndex: number;
  content: string;
  /** 0..1 */
  score: number;
}

function chunkSchema(embedder: Embedder): Schema {
  return new Schema(
    [
      new Field('id', new Utf8(), false),
      new Field('source_key', new Utf8(), false),
      new Field('source_name', new Utf8(), false),
      new Field('source_type', new Utf8(), false),
      new Field('chunk_index', new Int32(), false),
      new Field('content', new Utf8(), false),
      new Field('vector', new FixedSizeList(embedder.dimensions, new Field('item', new Float32(), true)), false),
      new Field('content_hash', new Utf8(), false),
      new Field('chunking', new Utf8(), false),
      new Field('ingested_at', new Float64(), false),
    ],
    new Map([
      [META_EMBEDDER, embedder.id],
      [META_DIMENSIONS, String(embedder.dimensions)],
    ]),
  );
}

export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const chunkingLabel = (c: ChunkSettings) => `${c.size}/${c.overlap}`;


export class KnowledgeStore {
  private writes: Promise<unknown> = Promise.resolve();
  private hasFtsIndex = false;

  private constructor(
    private readonly table: lancedb.Table,
    readonly embedder: Embedder,
    private readonly now: () => number,
  ) {}

  /**
   * Opens (creating if needed) the store in `dir`. A store built by another embedder throws
   * KnowledgeEmbedderMismatch, or with `rebuildForEmbedder` is emptied and made anew for this one (its
   * chunks are only a copy of their sources, which the next ingest embeds again).
   */
  static async open(dir: string, embedder: Embedder, options: { now?: () => number; rebuildForEmbedder?: boolean } = {}): Promise<KnowledgeStore> {
    mkdirSync(dir, { recursive: true });
    const db = await lancedb.connect(dir);
    let table: lancedb.Table | undefined;
    if ((await db.tableNames()).includes(KNOWLEDGE_TABLE)) {
      table = await db.openTable(KNOWLEDGE_TABLE);
      const meta = (await table.schema()).metadata;
      const storedId = meta.get(META_EMBEDDER) ?? '(unknown)';
      if (storedId !== embedder.id || Number(meta.get(META_DIMENSIONS)) !== embedder.dimensions) {
        table.close();
        if (!options.rebuildForEmbedder) throw new KnowledgeEmbedderMismatch(storedId, embedder.id);
        await db.dropTable(KNOWLEDGE_TABLE);
        table = undefined;
      }
    }
    if (!table) {
      try {
        table = await db.createEmptyTable(KNOWLEDGE_TABLE, chunkSchema(embedder));
      } catch (error) {
        // Another process created it first.
        if (!(await db.tableNames()).includes(KNOWLEDGE_TABLE)) throw error;
        table = await db.openTable(KNOWLEDGE_TABLE);
      }
    }
    const store = new KnowledgeStore(table, embedder, options.now ?? Date.now);
    store.hasFtsIndex = (await table.listIndices()).some((i) => i.name === FTS_INDEX);
    return store;
  }

  close(): void {
    this.table.close();
  }

  /** The table's version: it changes with every write (tests use it to prove a no-op). */
  version(): Promise<number> {
    return this.table.version();
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.writes.then(work, work);
    this.writes = result.catch(() => undefined);
    return result;
  }

  private async idle(): Promise<void> {
    await this.writes;
  }

  /**
   * Runs an idempotent write again when LanceDB refused its commit because another writer's commit
   * (another run's store on the same table, e.g. two crews of a flow ingesting at once) got in first.
   */
  private async retryingConflicts(work: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= COMMIT_ATTEMPTS || !isCommitConflict(error)) throw error;
        await this.table.checkoutLatest();
        this.hasFtsIndex = (await this.table.listIndices()).some((i) => i.name === FTS_INDEX);
        // Exponential backoff with jitter (25 ms, 50 ms, … up to 400 ms), so rivals stop colliding.
        await new Promise((resolve) => setTimeout(resolve, Math.min(25 * 2 ** (attempt - 1), 400) * (0.5 + Math.random())));
      }
    }
  }

  private async maintainFtsIndex(): Promise<void> {
    if (!this.hasFtsIndex) {
      if ((await this.table.countRows()) === 0) return;
      await this.table.createIndex('content', { config: lancedb.Index.fts(), replace: true });
      this.hasFtsIndex = true;
      return;
    }
    const stats = await this.table.indexStats(FTS_INDEX);
    if (stats && stats.numUnindexedRows >= OPTIMIZE_AFTER_UNINDEXED) await this.table.optimize();
  }

  private async embed(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      const batch = texts.slice(i, i + EMBED_BATCH);
      const out = await this.embedder.embed(batch);
      if (out.length !== batch.length) throw new Error(`embedder "${this.embedder.id}" returned ${out.length} vectors for ${batch.length} texts`);
      for (const v of out) {
        if (v.length !== this.embedder.dimensions) throw new Error(`embedder "${this.embedder.id}" returned a ${v.length}-d vector, expected ${this.embedder.dimensions}`);
      }
      vectors.push(...out);
    }
    return vectors;
  }

  private async stored(key: string): Promise<{ hash: string; chunking: string; name: string } | undefined> {
    const rows = lanceRows(
      await this.table
        .query()
        .where(`source_key = ${sqlString(key)}`)
        .select(['source_key', 'content_hash', 'chunking', 'source_name'])
        .limit(1)
        .toArray(),
    );
    const row = rows[0];
    if (!row || row.source_key !== key) return undefined;
    return { hash: String(row.content_hash), chunking: String(row.chunking), name: String(row.source_name) };
  }

  /**
   * Stores a source's chunks. Unchanged text (same hash, same chunking) writes nothing and embeds
   * nothing (a new name is recorded without re-embedding); changed text replaces every old chunk.
   */
  async ingest(loaded: LoadedSource, chunking: Partial<ChunkSettings> = {}): Promise<IngestResult> {
    // A key in a source (a page or file that holds one) is neither stored nor sent to the embedder.
    const source = { ...loaded, text: redactKnown(loaded.text) };
    const settings: ChunkSettings = { size: chunking.size ?? DEFAULT_CHUNK_SIZE, overlap: chunking.overlap ?? DEFAULT_CHUNK_OVERLAP };
    const hash = contentHash(source.text);
    await this.idle();
    const before = await this.stored(source.key);
    if (before && before.hash === hash && before.chunking === chunkingLabel(settings)) {
      if (before.name !== source.name) {
        await this.exclusive(() => this.table.update({ where: `source_key = ${sqlString(source.key)}`, values: { source_name: source.name } }));
      }
      return { key: source.key, name: source.name, status: 'unchanged', chunks: await this.countChunks(source.key), contentHash: hash };
    }
    const chunks = chunkText(source.text, settings);
    const vectors = await this.embed(chunks);
    const now = this.now();
    const keyId = contentHash(source.key).slice(0, 16);
    const rows = chunks.map((content, i) => ({
      id: `kc_${keyId}_${hash.slice(0, 12)}_${i}`,
      source_key: source.key,
      source_name: source.name,
      source_type: source.type,
      chunk_index: i,
      content,
      vector: vectors[i],
      content_hash: hash,
      chunking: chunkingLabel(settings),
      ingested_at: now,
    }));
    await this.exclusive(() =>
      this.retryingConflicts(async () => {
        // One commit: insert the new chunks, delete the source's chunks that are not among them.
        await this.table
          .mergeInsert('id')
          .whenMatchedUpdateAll()
          .whenNotMatchedInsertAll()
          .whenNotMatchedBySourceDelete({ where: `source_key = ${sqlString(source.key)}` })
          .execute(rows);
        await this.maintainFtsIndex();
      }),
    );
    return { key: source.key, name: source.name, status: before ? 'replaced' : 'added', chunks: chunks.length, contentHash: hash };
  }

  private async countChunks(key: string): Promise<number> {
    return this.table.countRows(`source_key = ${sqlString(key)}`);
  }

  /** Every stored source, by name. */
  async sources(): Promise<KnowledgeSourceInfo[]> {
    await this.idle();
    const rows = lanceRows(await this.table.query().select(['source_key', 'source_name', 'source_type', 'content_hash', 'ingested_at']).toArray());
    const byKey = new Map<string, KnowledgeSourceInfo>();
    for (const row of rows) {
      const key = String(row.source_key);
      const info = byKey.get(key);
      if (info) info.chunks += 1;
      else {
        byKey.set(key, {
          key,
          name: String(row.source_name),
          type: String(row.source_type),
          chunks: 1,
          contentHash: String(row.content_hash),
          ingestedAt: Number(row.ingested_at),
        });
      }
    }
    return [...byKey.values()].sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
  }

  /** Removes the sources' chunks; returns how many chunks went. */
  async remove(keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const where = `source_key IN (${keys.map(sqlString).join(', ')})`;
    return this.exclusive(async () => {
      const before = await this.table.countRows(where);
      if (before > 0) await this.table.delete(where);
      return before;
    });
  }

  async search(query: KnowledgeQuery): Promise<KnowledgeMatch[]> {
    if (query.sourceKeys.length === 0 || query.query.trim() === '') return [];
    const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(query.limit ?? DEFAULT_KNOWLEDGE_LIMIT)));
    const minScore = query.minScore ?? DEFAULT_KNOWLEDGE_MIN_SCORE;
    const where = `source_key IN (${query.sourceKeys.map(sqlString).join(', ')})`;
    // embed checked that it returned one vector per text.
    const queryVector = (await this.embed([query.query]))[0]!;
    await this.idle();
    const take = limit * CANDIDATE_FACTOR;
    const vectorRows = lanceRows(await this.table.query().nearestTo(queryVector).distanceType('cosine').where(where).limit(take).toArray());
    let textRows: Record<string, unknown>[] = [];
    if (this.hasFtsIndex && /[\p{L}\p{N}]/u.test(query.query)) {
      try {
        textRows = lanceRows(await this.table.query().fullTextSearch(query.query).where(where).limit(take).toArray());
      } catch {
        textRows = []; // a query the FTS parser rejects just contributes nothing
      }
    }
    const keys = new Set(query.sourceKeys);
    const rowsById = new Map<string, Record<string, unknown>>();
    for (const row of [...vectorRows, ...textRows]) if (keys.has(String(row.source_key))) rowsById.set(String(row.id), row);
    const fused = reciprocalRankFusion([vectorRows.map((r) => String(r.id)), textRows.map((r) => String(r.id))]);
    const queryWords = sharedWords(query.query, query.query).length;
    const matches: (KnowledgeMatch & { fused: number })[] = [];
    for (const [id, fusedScore] of fused) {
      const row = rowsById.get(id);
      if (!row) continue;
      const content = String(row.content);
      const semantic = clamp01(cosineSimilarity(queryVector, toNumbers(row.vector)));
      const lexical = queryWords === 0 ? 0 : sharedWords(query.query, content).length / queryWords;
      const score = clamp01(SEMANTIC_WEIGHT * semantic + (1 - SEMANTIC_WEIGHT) * lexical);
      if (score < minScore) continue;
      matches.push({
        id,
        sourceKey: String(row.source_key),
        sourceName: String(row.source_name),
        chunkIndex: Number(row.chunk_index),
        content,
        score,
        fused: fusedScore,
      });
    }
    matches.sort((a, b) => b.score - a.score || b.fused - a.fused);
    return matches.slice(0, limit).map(({ fused: _fused, ...match }) => match);
  }
}
