import { writeGeneratedBlock } from '../docBlock';

/** The figures `npm run bench:memory` writes into docs/PERFORMANCE.md. */
export interface Spread {
  median: number;
  p95: number;
}

export interface RecallVariant {
  label: string;
  queries: number;
  latencyMs: Spread;
  /** Mean overlap of recall()'s top 5 with the brute-force variant's top 5 (1 for the reference). */
  top5Overlap: number;
  /** The vector search alone: mean share of the exact top 5 (bypassVectorIndex) the index returns. */
  annRecallAt5?: number;
}

/** Recall beside the raw LanceDB queries, run in the same process on the same table. */
export interface RecallFloor {
  queries: number;
  recallMs: Spread;
  /** Recall's own vector query: the ids of its candidates (nprobes, the same filter, no re-ranking). */
  sameShapeMs: Spread;
  /** Top 5 with nprobes only: no re-ranking, no filter. */
  minimalMs: Spread;
  ratioSameShape: number;
  nprobes: number;
  /** Candidates recall takes from the vector search (and re-ranks). */
  candidates: number;
  ratioMinimal: number;
  targetRatio: number;
  /** The recall cache: how long the first recall took to load it, and the memory it added. */
  cacheLoad: { ms: number; rows: number; heapMiB: number; rssMiB: number };
  /** A 3-record `add` on the same table, by the store holding the cache, then by one without (no recall yet). */
  smallWrite: { withCache: Spread; withoutCache: Spread; writes: number };
  /** Where recall's time went (median / p95 per phase). */
  phases: Record<'embeddingMs' | 'vectorMs' | 'fullTextMs' | 'searchMs' | 'fusionMs' | 'scoringMs' | 'totalMs', Spread>;
}

export interface IngestFigures {
  label: string;
  /** Judged against the target (the default configuration). */
  judged: boolean;
  recordsPerSecond: number;
  totalMs: number;
  batchMs: Spread;
  embedMs: Spread;
  writeMs: Spread;
}

export interface MemoryBenchReport {
  date: string;
  command: string;
  machine: { cores: number; cpuModel: string; node: string; platform: string; memoryGiB: number };
  loadAverage1m: [number, number];
  records: number;
  batchSize: number;
  embedder: string;
  ingest: IngestFigures[];
  /** The batch during which the store built its vector index (the build included). */
  indexBuild: { atRows: number; batchMs: number };
  indexKind: string;
  /** Index state when the recall figures were taken. */
  indexState: string;
  recall: RecallVariant[];
  floor: RecallFloor;
  targets: { recallP95Ms: number; ingestRecordsPerSecond: number; recallFloorRatio: number };
}


export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const int = (n: number) => Math.round(n).toLocaleString('en-US');

export function renderMemorySection(r: MemoryBenchReport): string {
  const m = r.machine;
  const met = (ok: boolean) => (ok ? '**met**' : '**missed**');
  return [
    '## Memory (npm run bench:memory)',
    '',
    `- **Date:** ${r.date}`,
    `- **Machine:** ${m.cores} cores (${m.cpuModel}), ${fmt(m.memoryGiB)} GiB RAM, ${m.platform}, Node ${m.node}`,
    `- **Load:** 1-minute load average ${fmt(r.loadAverage1m[0], 2)} before, ${fmt(r.loadAverage1m[1], 2)} after (other processes on the machine included; above ~1 on 2 cores the figures are inflated)`,
    `- **Command:** \`${r.command}\``,
    `- **Data:** ${int(r.records)} memories, deterministic varied sentences (seeded PRNG over a vocabulary, \`bench/memory/memoryCorpus.ts\`), 5 scopes, 6 categories, random importance; embedder \`${r.embedder}\` (offline \`HashingEmbedder\`); the real \`MemoryStore\` (LanceDB) in a fresh temp directory`,
    `- **Targets:** ingest ≥ ${int(r.targets.ingestRecordsPerSecond)} records/s; recall p95 ≤ ${r.targets.recallP95Ms} ms; recall median ≤ ${r.targets.recallFloorRatio}× the raw LanceDB floor (a minimal IVF top 5, measured in the same run)`,
    '',
    `| ingest of ${int(r.records)} records, batches of ${int(r.batchSize)} (\`embed\` + \`add\`) | records/s | total | batch median / p95 | embedding median / p95 | writing (\`add\`: append + index upkeep) median / p95 | target ≥ ${int(r.targets.ingestRecordsPerSecond)}/s |`,
    '|---|--:|--:|--:|--:|--:|---|',
    ...r.ingest.map(
      (i) =>
        `| ${i.label} | **${int(i.recordsPerSecond)}** | ${fmt(i.totalMs / 1000)} s | ${fmt(i.batchMs.median, 0)} / ${fmt(i.batchMs.p95, 0)} ms | ${fmt(i.embedMs.median, 0)} / ${fmt(i.embedMs.p95, 0)} ms | ${fmt(i.writeMs.median, 0)} / ${fmt(i.writeMs.p95, 0)} ms | ${i.judged ? met(i.recordsPerSecond >= r.targets.ingestRecordsPerSecond) : 'not judged'} |`,
    ),
    '',
    `Vector index: ${r.indexKind}, built by the store during the batch that took it to ${int(r.indexBuild.atRows)} rows (that batch: ${fmt(r.indexBuild.batchMs / 1000, 2)} s) and kept up afterwards (\`optimize()\` folds new rows in; retraining merges the deltas). At recall time: ${r.indexState}.`,
    '',
    `| recall at ${int(r.records)} records (\`store.recall\`, limit 5) | queries | median | p95 | top-5 overlap with brute force | vector search recall@5 | target p95 ≤ ${r.targets.recallP95Ms} ms |`,
    '|---|--:|--:|--:|--:|--:|---|',
    ...r.recall.map(
      (v) =>
        `| ${v.label} | ${v.queries} | ${fmt(v.latencyMs.median)} ms | ${fmt(v.latencyMs.p95)} ms | ${fmt(v.top5Overlap * 100, 1)}% | ${v.annRecallAt5 === undefined ? '–' : `${fmt(v.annRecallAt5 * 100, 1)}%`} | ${met(v.latencyMs.p95 <= r.targets.recallP95Ms)} |`,
    ),
    '',
    `**Recall beside the raw LanceDB floor** (same process, same table, the same ${r.floor.queries} queries, each run as \`recall\` and as two raw queries in rotating order; load ${fmt(r.loadAverage1m[0], 2)} → ${fmt(r.loadAverage1m[1], 2)}):`,
    '',
    `| query | median | p95 | recall ÷ this (median) | target |`,
    '|---|--:|--:|--:|---|',
    `| \`store.recall\` (limit 5: embedding, vector + full-text search at once, fusion, scoring) | ${fmt(r.floor.recallMs.median, 2)} ms | ${fmt(r.floor.recallMs.p95, 2)} ms | – | |`,
    `| raw: minimal IVF top 5 (ids, nprobes ${r.floor.nprobes}: no re-ranking, no filter) | ${fmt(r.floor.minimalMs.median, 2)} ms | ${fmt(r.floor.minimalMs.p95, 2)} ms | **${fmt(r.floor.ratioMinimal, 2)}×** | ≤ ${r.floor.targetRatio}×: ${met(r.floor.ratioMinimal <= r.floor.targetRatio)} |`,
    `| raw: recall's own vector query (row addresses of ${r.floor.candidates} candidates, the same nprobes and filter; recall re-ranks them itself) | ${fmt(r.floor.sameShapeMs.median, 2)} ms | ${fmt(r.floor.sameShapeMs.p95, 2)} ms | ${fmt(r.floor.ratioSameShape, 2)}× | not judged |`,
    '',
    `Recall cache (rows and float16 vectors held in the process, loaded by the first recall): ${int(r.floor.cacheLoad.rows)} rows loaded in ${fmt(r.floor.cacheLoad.ms, 0)} ms, +${fmt(r.floor.cacheLoad.heapMiB, 0)} MiB JS heap, +${fmt(r.floor.cacheLoad.rssMiB, 0)} MiB resident after the load. Kept up by the store's writes: a 3-record \`add\` (median / p95 of ${r.floor.smallWrite.writes}, the two stores one after the other) takes ${fmt(r.floor.smallWrite.withCache.median, 1)} / ${fmt(r.floor.smallWrite.withCache.p95, 1)} ms on the store holding the cache, ${fmt(r.floor.smallWrite.withoutCache.median, 1)} / ${fmt(r.floor.smallWrite.withoutCache.p95, 1)} ms on one without.`,
    '',
    `Quality: top-5 overlap of recall with brute-force recall ${fmt((r.recall[1]?.top5Overlap ?? NaN) * 100, 1)}%; vector search recall@5 against exact search ${fmt((r.recall[1]?.annRecallAt5 ?? NaN) * 100, 1)}%.`,
    '',
    `| recall, where the time went (ms) | embedding | vector search with re-ranking | full-text search | both searches (run at once) | fusion | scoring | total |`,
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    ...(['median', 'p95'] as const).map((k) => {
      const p = r.floor.phases;
      return `| ${k} | ${fmt(p.embeddingMs[k], 2)} | ${fmt(p.vectorMs[k], 2)} | ${fmt(p.fullTextMs[k], 2)} | ${fmt(p.searchMs[k], 2)} | ${fmt(p.fusionMs[k], 2)} | ${fmt(p.scoringMs[k], 2)} | ${fmt(p.totalMs[k], 2)} |`;
    }),
  ].join('\n');
}

/** Replaces the bench:memory block of docs/PERFORMANCE.md; returns the path. */
export function writeMemorySection(report: MemoryBenchReport): string {
  return writeGeneratedBlock('memory', '## Memory (npm run bench:memory)', renderMemorySection(report));
}
