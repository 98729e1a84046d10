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
  targets: { recallP95Ms: number; ingestRecordsPerSecond: number };
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
    `- **Targets:** ingest ≥ ${int(r.targets.ingestRecordsPerSecond)} records/s; recall p95 ≤ ${r.targets.recallP95Ms} ms`,
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
  ].join('\n');
}

/** Replaces the bench:memory block of docs/PERFORMANCE.md; returns the path. */
export function writeMemorySection(report: MemoryBenchReport): string {
  return writeGeneratedBlock('memory', '## Memory (npm run bench:memory)', renderMemorySection(report));
}
