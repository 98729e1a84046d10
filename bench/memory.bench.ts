/**
 * `npm run bench:memory`: the memory store at 100,000 records with the offline embedder.
 *
 * The same 100,000 records are ingested (batched `embed` + `add`) into two fresh stores: one with the
 * vector index disabled (brute-force vector search; full-text index on) and one with the default
 * settings (the store builds its vector index at VECTOR_INDEX_MIN_ROWS and keeps it up). Recall latency
 * is measured on each with the same queries; the indexed results are checked against brute force.
 *
 * On the indexed store, each query is also run straight against LanceDB in the same process, interleaved
 * with `recall` (same query vector, same table): the raw IVF floor, in two shapes — a minimal top-5
 * query (ids, nprobes only: no re-ranking, no filter), which the target is judged against, and recall's
 * own vector query (the ids of its 100 candidates, the same nprobes and filter). Recall's time is broken
 * down into embedding, vector search with its re-ranking, full-text search (the two run at once), fusion and
 * scoring (`MemoryStore.recall`'s timings); the first recall, which loads the recall cache, is timed
 * apart, with the memory the cache adds.
 *
 * Options (after `npm run bench:memory --`): --records N (default 100000), --batch N (1000),
 * --queries N (200), --ann-queries N (queries for the vector-search recall@5 check, 100),
 * --no-write (do not update docs/PERFORMANCE.md).
 */
import * as lancedb from '@lancedb/lancedb';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HashingEmbedder } from '../runtime/memory/hashingEmbedder';
import { filterToWhere } from '../runtime/memory/memoryFilter';
import { IVF_NPROBES, MAX_VECTOR_INDEX_DELTAS, REFINE_FACTOR } from '../runtime/memory/memoryIndices';
import { MemoryStore } from '../runtime/memory/memoryStore';
import { MEMORY_TABLE } from '../runtime/memory/memoryTable';
import type { RecallTimings } from '../runtime/memory/recallTimings';
import { cosineSimilarity } from '../runtime/memory/recallScore';
import { vectorValues } from '../runtime/memory/lanceVector';
import type { NewMemory, RecallQuery } from '../runtime/memory/types';
import { CATEGORIES, memoryQuery, memorySentence, SCOPES, seededRandom } from './memory/memoryCorpus';
import { fmt, writeMemorySection, type IngestFigures, type MemoryBenchReport, type RecallFloor, type Spread } from './memory/memoryPerformanceDoc';
import { median, percentile } from './stats';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '1000' },
    queries: { type: 'string', default: '200' },
    'ann-queries': { type: 'string', default: '100' },
    'no-write': { type: 'boolean', default: false },
  },
});
const RECORDS = Number(args.records);
const BATCH = Number(args.batch);
const QUERIES = Number(args.queries);
const ANN_QUERIES = Math.min(QUERIES, Number(args['ann-queries']));
const WARMUP = 10;
const TARGETS = { recallP95Ms: 25, ingestRecordsPerSecond: 1000, recallFloorRatio: 2 };
/** Vector candidates recall takes (limit 5 × 4) and re-ranks (× REFINE_FACTOR). */
const CANDIDATES = 5 * 4 * REFINE_FACTOR;
/** A fixed clock: recency is then equal for every record, so the two recall variants can be compared result for result. */
const NOW = Date.UTC(2026, 10, 1);

const spread = (values: number[]): Spread => ({ median: median(values), p95: percentile(values, 95) });
const log = (msg: string) => process.stderr.write(`${msg}\n`);

function memories(r: () => number, n: number): NewMemory[] {
  return Array.from({ length: n }, () => ({
    content: memorySentence(r),
    scope: SCOPES[Math.floor(r() * SCOPES.length)]!,
    categories: [CATEGORIES[Math.floor(r() * CATEGORIES.length)]!],
    importance: Math.round(r() * 100) / 100,
    source: { kind: 'task' as const, runId: 'bench' },
  }));
}

/** Every third query is scoped to a crew, as recall in runs is. */
function queries(n: number): RecallQuery[] {
  const r = seededRandom(7);
  return Array.from({ length: n }, (_, i) => ({ query: memoryQuery(r), limit: 5, ...(i % 3 === 2 ? { scope: SCOPES[i % SCOPES.length] } : {}) }));
}

async function ingest(store: MemoryStore, r: () => number, batches: number, watchIndex = false) {
  let indexBuild: { atRows: number; batchMs: number } | undefined;
  const batchMs: number[] = [];
  const embedMs: number[] = [];
  const writeMs: number[] = [];
  let statusMs = 0; // the index check between batches is not ingest time
  const t0 = performance.now();
  for (let b = 0; b < batches; b++) {
    const batch = memories(r, BATCH);
    const a = performance.now();
    const vectors = await store.embed(batch.map((m) => m.content));
    const e = performance.now();
    await store.add(batch, vectors);
    const w = performance.now();
    batchMs.push(w - a);
    embedMs.push(e - a);
    writeMs.push(w - e);
    if (watchIndex && !indexBuild && (await store.vectorIndexStatus())) indexBuild = { atRows: (b + 1) * BATCH, batchMs: w - a };
    statusMs += performance.now() - w;
    if ((b + 1) % 10 === 0) log(`  ${((b + 1) * BATCH).toLocaleString('en-US')} records, last batch ${fmt(w - a, 0)} ms`);
  }
  return { totalMs: performance.now() - t0 - statusMs, batchMs, embedMs, writeMs, indexBuild };
}

interface RecallRun {
  latency: number[];
  /** Each query's top 5 by content (the two stores give the same texts different ids). */
  top5: string[][];
  timings: RecallTimings[];
  /** Only with a floor table: the raw queries' latencies. */
  floor?: { sameShape: number[]; minimal: number[] };
  /** The first recall (it loads the recall cache) and the memory it added. */
  cacheLoad: RecallFloor['cacheLoad'];
}

/**
 * The filter recall puts on its vector query: scope and below; private records left out, which recall
 * leaves to its own check of each row while the store has none (as here: the bench writes no private
 * records).
 */
function recallWhere(q: RecallQuery): string | undefined {
  return filterToWhere({ scope: q.scope, categories: q.categories, includePrivate: true });
}

/**
 * Recall latencies and results. With `floor` (the store's table, opened apart), the raw LanceDB queries
 * run beside each recall, in rotating order so neither always goes first.
 */
async function timeRecall(store: MemoryStore, qs: RecallQuery[], floor?: lancedb.Table): Promise<RecallRun> {
  const warmUp = queries(WARMUP + qs.length).slice(qs.length); // other queries
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  const a = performance.now();
  await store.recall(warmUp[0]!);
  const loadMs = performance.now() - a;
  (globalThis as { gc?: () => void }).gc?.();
  const after = process.memoryUsage();
  const cacheLoad = { ms: loadMs, rows: await store.count(), heapMiB: (after.heapUsed - before.heapUsed) / 2 ** 20, rssMiB: (after.rss - before.rss) / 2 ** 20 };
  for (const q of warmUp.slice(1)) await store.recall(q);
  const run: RecallRun = { latency: [], top5: [], timings: [], cacheLoad, ...(floor ? { floor: { sameShape: [], minimal: [] } } : {}) };
  for (const [i, q] of qs.entries()) {
    const steps: (() => Promise<void>)[] = [
      async () => {
        const timings = {} as RecallTimings;
        const a = performance.now();
        const hits = await store.recall(q, timings);
        run.latency.push(performance.now() - a);
        run.timings.push(timings);
        run.top5.push(hits.map((h) => h.record.content));
      },
    ];
    if (floor) {
      const [v] = await store.embed([q.query]);
      steps.push(
        async () => {
          const a = performance.now();
          const where = recallWhere(q);
          let query = floor.query().nearestTo(v!).distanceType('cosine').select(['_distance']).withRowId().limit(CANDIDATES).nprobes(IVF_NPROBES);
          if (where) query = query.where(where);
          await query.toArrow();
          run.floor!.sameShape.push(performance.now() - a);
        },
        async () => {
          const a = performance.now();
          await floor.query().nearestTo(v!).distanceType('cosine').select(['id', '_distance']).limit(5).nprobes(IVF_NPROBES).toArray();
          run.floor!.minimal.push(performance.now() - a);
        },
      );
    }
    for (let k = 0; k < steps.length; k++) await steps[(i + k) % steps.length]!();
  }
  return run;
}

const SMALL_WRITES = 20;

/**
 * 3-record adds on the same table: first by the store holding the recall cache, then by one without (not
 * interleaved: each store's handle sees the other's rows once it writes, and the cache would read them
 * in as another process's).
 */
async function timeSmallWrites(cached: MemoryStore, plain: MemoryStore, r: () => number): Promise<RecallFloor['smallWrite']> {
  const time = async (store: MemoryStore) => {
    const times: number[] = [];
    for (let i = 0; i < SMALL_WRITES; i++) {
      const batch = memories(r, 3);
      const a = performance.now();
      await store.add(batch);
      times.push(performance.now() - a);
    }
    return times;
  };
  try {
    await cached.flush(); // recall's pending access times, written by the first write otherwise
    const withCache = await time(cached);
    const withoutCache = await time(plain);
    return { withCache: spread(withCache), withoutCache: spread(withoutCache), writes: SMALL_WRITES };
  } finally {
    await plain.close();
  }
}

function phases(timings: RecallTimings[]): Record<keyof RecallTimings, Spread> {
  const keys: (keyof RecallTimings)[] = ['embeddingMs', 'vectorMs', 'fullTextMs', 'searchMs', 'fusionMs', 'scoringMs', 'totalMs'];
  return Object.fromEntries(keys.map((k) => [k, spread(timings.map((t) => t[k]))])) as Record<keyof RecallTimings, Spread>;
}

function overlap(a: string[][], b: string[][]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const ref = new Set(b[i]);
    sum += ref.size === 0 ? 1 : a[i]!.filter((id) => ref.has(id)).length / ref.size;
  }
  return sum / a.length;
}

/** The vector search alone, index vs exact (bypassVectorIndex), as recall runs it: mean share of the exact top 5 found. */
async function annRecallAt5(dir: string, embedder: HashingEmbedder, qs: RecallQuery[]): Promise<number> {
  const db = await lancedb.connect(dir);
  const table = await db.openTable(MEMORY_TABLE);
  let sum = 0;
  try {
    for (const q of qs) {
      const [v] = await embedder.embed([q.query]);
      const where = q.scope ? `(scope = '${q.scope}' OR scope LIKE '${q.scope}/%')` : undefined;
      const base = (limit: number) =>
        // private records filtered out, as recall does
        table
          .query()
          .nearestTo(v!)
          .distanceType('cosine')
          .select(['id', 'vector', '_distance'])
          .limit(limit)
          .where(where ? `${where} AND is_private = false` : 'is_private = false');
      const top5 = (rows: Record<string, unknown>[]) => rows.slice(0, 5).map((r) => String(r.id));
      const exact = new Set(top5(await base(5).bypassVectorIndex().toArray()));
      // as recall searches: the index's CANDIDATES nearest, re-ranked by exact similarity
      const candidates = await base(CANDIDATES).nprobes(IVF_NPROBES).toArray();
      const reranked = candidates
        .map((r) => ({ id: String(r.id), similarity: cosineSimilarity(v!, vectorValues(r.vector)) }))
        .sort((x, y) => y.similarity - x.similarity);
      const approx = reranked.slice(0, 5).map((r) => r.id);
      sum += exact.size === 0 ? 1 : approx.filter((id) => exact.has(id)).length / exact.size;
    }
  } finally {
    table.close();
  }
  return sum / qs.length;
}

function floorFigures(b: RecallRun, smallWrite: RecallFloor['smallWrite']): RecallFloor {
  const f = b.floor!;
  const recallMs = spread(b.latency);
  const sameShapeMs = spread(f.sameShape);
  const minimalMs = spread(f.minimal);
  return {
    queries: b.latency.length,
    recallMs,
    sameShapeMs,
    minimalMs,
    ratioSameShape: recallMs.median / sameShapeMs.median,
    ratioMinimal: recallMs.median / minimalMs.median,
    nprobes: IVF_NPROBES,
    candidates: CANDIDATES,
    targetRatio: TARGETS.recallFloorRatio,
    cacheLoad: b.cacheLoad,
    smallWrite,
    phases: phases(b.timings),
  };
}

function machine(): MemoryBenchReport['machine'] {
  const cpu = cpus();
  return { cores: cpu.length, cpuModel: cpu[0]?.model.trim() ?? 'unknown', node: process.version, platform: `${process.platform} ${process.arch}`, memoryGiB: totalmem() / 1024 ** 3 };
}

function printReport(r: MemoryBenchReport): void {
  const m = r.machine;
  console.log(`\nCrewdeck memory benchmark — ${r.date}`);
  console.log(`${m.cores} cores (${m.cpuModel}), ${fmt(m.memoryGiB)} GiB, Node ${m.node}, ${m.platform}`);
  console.log(`1-minute load average (other processes included): ${fmt(r.loadAverage1m[0], 2)} before, ${fmt(r.loadAverage1m[1], 2)} after`);
  console.log(`${r.records.toLocaleString('en-US')} records, batches of ${r.batchSize}, embedder ${r.embedder}\n`);
  for (const i of r.ingest) {
    console.log(`ingest, ${i.label}: ${fmt(i.recordsPerSecond, 0)} records/s (${fmt(i.totalMs / 1000)} s)${i.judged ? ` — target ≥ ${TARGETS.ingestRecordsPerSecond}: ${i.recordsPerSecond >= TARGETS.ingestRecordsPerSecond ? 'met' : 'MISSED'}` : ''}`);
    console.log(`  per batch median/p95 ${fmt(i.batchMs.median, 0)}/${fmt(i.batchMs.p95, 0)} ms; embed ${fmt(i.embedMs.median, 0)}/${fmt(i.embedMs.p95, 0)} ms; write ${fmt(i.writeMs.median, 0)}/${fmt(i.writeMs.p95, 0)} ms`);
  }
  console.log(`vector index: ${r.indexKind}; built during the batch reaching ${r.indexBuild.atRows.toLocaleString('en-US')} rows (${fmt(r.indexBuild.batchMs / 1000, 2)} s)`);
  console.log(`at recall time: ${r.indexState}\n`);
  const header = ['recall variant', 'queries', 'median', 'p95', 'top-5 overlap', 'ANN recall@5', 'target'];
  const rows = r.recall.map((v) => [
    v.label,
    String(v.queries),
    `${fmt(v.latencyMs.median)} ms`,
    `${fmt(v.latencyMs.p95)} ms`,
    `${fmt(v.top5Overlap * 100)}%`,
    v.annRecallAt5 === undefined ? '–' : `${fmt(v.annRecallAt5 * 100)}%`,
    v.latencyMs.p95 <= TARGETS.recallP95Ms ? 'met' : 'MISSED',
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) => cells.map((c, k) => (k === 0 ? c.padEnd(widths[k]!) : c.padStart(widths[k]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  const f = r.floor;
  const ph = f.phases;
  console.log(`\nraw LanceDB floor on the indexed store, same process, interleaved with recall (${f.queries} queries):`);
  console.log(`  minimal IVF top 5 (ids, nprobes ${IVF_NPROBES}, no re-ranking, no filter): median ${fmt(f.minimalMs.median, 2)} ms, p95 ${fmt(f.minimalMs.p95, 2)} ms`);
  console.log(`  recall's own vector query (row addresses of ${CANDIDATES} candidates, nprobes ${IVF_NPROBES}, same filter): median ${fmt(f.sameShapeMs.median, 2)} ms, p95 ${fmt(f.sameShapeMs.p95, 2)} ms`);
  console.log(`  recall median ${fmt(f.recallMs.median, 2)} ms = ${fmt(f.ratioMinimal, 2)}× the minimal top 5 (target ≤ ${f.targetRatio}×: ${f.ratioMinimal <= f.targetRatio ? 'met' : 'MISSED'}), ${fmt(f.ratioSameShape, 2)}× recall's own vector query`);
  console.log(`  recall cache: ${f.cacheLoad.rows.toLocaleString('en-US')} rows loaded by the first recall in ${fmt(f.cacheLoad.ms, 0)} ms; +${fmt(f.cacheLoad.heapMiB, 0)} MiB heap, +${fmt(f.cacheLoad.rssMiB, 0)} MiB resident`);
  console.log(`  a 3-record add: ${fmt(f.smallWrite.withCache.median, 1)} / ${fmt(f.smallWrite.withCache.p95, 1)} ms (median / p95) on the store holding the cache, ${fmt(f.smallWrite.withoutCache.median, 1)} / ${fmt(f.smallWrite.withoutCache.p95, 1)} ms on one without`);
  console.log(`  quality: top-5 overlap with brute-force recall ${fmt(r.recall[1]!.top5Overlap * 100)}%; vector search recall@5 ${fmt((r.recall[1]!.annRecallAt5 ?? NaN) * 100)}%`);
  console.log(
    `  recall broken down (median / p95 ms): embedding ${fmt(ph.embeddingMs.median, 2)} / ${fmt(ph.embeddingMs.p95, 2)}; vector with re-ranking ${fmt(ph.vectorMs.median, 2)} / ${fmt(ph.vectorMs.p95, 2)}; ` +
      `full-text ${fmt(ph.fullTextMs.median, 2)} / ${fmt(ph.fullTextMs.p95, 2)}; both searches (at once) ${fmt(ph.searchMs.median, 2)} / ${fmt(ph.searchMs.p95, 2)}; ` +
      `fusion ${fmt(ph.fusionMs.median, 2)} / ${fmt(ph.fusionMs.p95, 2)}; scoring ${fmt(ph.scoringMs.median, 2)} / ${fmt(ph.scoringMs.p95, 2)}; total ${fmt(ph.totalMs.median, 2)} / ${fmt(ph.totalMs.p95, 2)}`,
  );
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0];
  const dirA = mkdtempSync(join(tmpdir(), 'crewdeck-bench-memory-brute-'));
  const dirB = mkdtempSync(join(tmpdir(), 'crewdeck-bench-memory-default-'));
  const embedder = new HashingEmbedder();
  const qs = queries(QUERIES);
  const batches = Math.ceil(RECORDS / BATCH);
  try {
    log(`ingesting ${RECORDS.toLocaleString('en-US')} records, vector index off (${dirA})…`);
    const brute = await MemoryStore.open(dirA, embedder, { now: () => NOW, vectorIndexMinRows: Infinity });
    const ingA = await ingest(brute, seededRandom(42), batches);
    log(`recall, brute-force vector search (${QUERIES} queries)…`);
    const a = await timeRecall(brute, qs);
    const ftsA = await brute.ftsIndexStatus();
    brute.close();

    log(`ingesting the same records with the default settings (${dirB})…`);
    const indexed = await MemoryStore.open(dirB, embedder, { now: () => NOW });
    const ingB = await ingest(indexed, seededRandom(42), batches, true);
    const status = await indexed.vectorIndexStatus();
    const ftsB = await indexed.ftsIndexStatus();
    if (!status || !ingB.indexBuild) throw new Error('the store did not build a vector index');
    log(`recall with the vector index, beside the raw LanceDB queries (${QUERIES} queries)…`);
    const floorDb = await lancedb.connect(dirB);
    const floorTable = await floorDb.openTable(MEMORY_TABLE);
    const b = await timeRecall(indexed, qs, floorTable);
    floorTable.close();
    log(`small writes, by the store holding the recall cache, then by one without (${SMALL_WRITES} each)…`);
    const smallWrite = await timeSmallWrites(indexed, await MemoryStore.open(dirB, embedder, { now: () => NOW }), seededRandom(9));
    await indexed.close();
    log(`vector search recall@5 against exact search (${ANN_QUERIES} queries)…`);
    const ann = await annRecallAt5(dirB, embedder, qs.slice(0, ANN_QUERIES));

    const figures = (label: string, judged: boolean, i: typeof ingA): IngestFigures => ({
      label,
      judged,
      recordsPerSecond: (RECORDS / i.totalMs) * 1000,
      totalMs: i.totalMs,
      batchMs: spread(i.batchMs),
      embedMs: spread(i.embedMs),
      writeMs: spread(i.writeMs),
    });
    const report: MemoryBenchReport = {
      date: new Date().toISOString().slice(0, 10),
      command: 'npm run bench:memory',
      machine: machine(),
      loadAverage1m: [loadBefore!, loadavg()[0]!],
      records: RECORDS,
      batchSize: BATCH,
      embedder: embedder.id,
      ingest: [
        figures('default settings (vector index built at 5,000 rows, then kept up)', true, ingB),
        figures('vector index off (full-text index only)', false, ingA),
      ],
      indexBuild: ingB.indexBuild,
      indexKind: `IVF_RQ (cosine, sqrt(rows) partitions; searched with nprobes ${IVF_NPROBES}; recall re-ranks the ${CANDIDATES} nearest by exact similarity itself; retrained on the whole table once it has more than ${MAX_VECTOR_INDEX_DELTAS} delta indices)`,
      indexState:
        `vector index (${status.type}) ${status.indexedRows.toLocaleString('en-US')} rows indexed in ${status.deltas} index file(s), ${status.unindexedRows.toLocaleString('en-US')} not yet (searched exhaustively); ` +
        `full-text index ${ftsB?.unindexedRows ?? '–'} rows not yet indexed (brute-force store: ${ftsA?.unindexedRows ?? '–'})`,
      recall: [
        { label: 'no vector index (brute-force vector search + FTS)', queries: QUERIES, latencyMs: spread(a.latency), top5Overlap: 1 },
        { label: 'vector index (IVF_RQ) + FTS', queries: QUERIES, latencyMs: spread(b.latency), top5Overlap: overlap(b.top5, a.top5), annRecallAt5: ann },
      ],
      floor: floorFigures(b, smallWrite),
      targets: TARGETS,
    };
    printReport(report);
    if (!args['no-write'] && RECORDS === 100_000) console.log(`\nwrote ${writeMemorySection(report)}`);
  } finally {
    rmSync(dirA, { recursive: true, force: true });
    rmSync(dirB, { recursive: true, force: true });
  }
}

await main();
