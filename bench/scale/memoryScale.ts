/**
 * The memory store grown to N records (default 300,000; offline hashing embedder, batches of 1,000,
 * default settings: indices kept up, compaction pruning superseded versions): its size on disk after
 * the ingest beside its live data (the same table with every superseded version removed, measured after),
 * the process's RSS once recall has loaded its cache, and recall p50 / p95 beside a row-id-only vector
 * query on the same table (interleaved, same query vectors).
 */
import * as lancedb from '@lancedb/lancedb';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashingEmbedder } from '../../runtime/memory/hashingEmbedder';
import { IVF_NPROBES } from '../../runtime/memory/memoryIndices';
import { MemoryStore } from '../../runtime/memory/memoryStore';
import { MEMORY_TABLE } from '../../runtime/memory/memoryTable';
import type { NewMemory, RecallQuery } from '../../runtime/memory/types';
import { CATEGORIES, memoryQuery, memorySentence, SCOPES, seededRandom } from '../memory/memoryCorpus';
import { log, median, percentile } from './measure';

const BATCH = 1000;
const MiB = 2 ** 20;

const diskBytes = (dir: string) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);

function memories(r: () => number, n: number): NewMemory[] {
  return Array.from({ length: n }, () => ({
    content: memorySentence(r),
    scope: SCOPES[Math.floor(r() * SCOPES.length)]!,
    categories: [CATEGORIES[Math.floor(r() * CATEGORIES.length)]!],
    importance: Math.round(r() * 100) / 100,
    source: { kind: 'task' as const, runId: 'bench' },
  }));
}

export interface MemoryFigures {
  records: number;
  ingestSeconds: number;
  diskMiB: number;
  liveMiB: number;
  versionsAfterIngest: number;
  rssMiB: number;
  heapMiB: number;
  recall: { p50: number; p95: number };
  floor: { p50: number; p95: number };
}

export async function measureMemory(records: number, queries: number): Promise<MemoryFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-scale-memory-'));
  try {
    const store = await MemoryStore.open(dir, new HashingEmbedder());
    const r = seededRandom(42);
    const t0 = performance.now();
    for (let b = 0; b < records / BATCH; b++) {
      const batch = memories(r, BATCH);
      await store.add(batch, await store.embed(batch.map((m) => m.content)));
      if ((b + 1) % 25 === 0) log(`  memory: ${((b + 1) * BATCH).toLocaleString('en-US')} records`);
    }
    const ingestSeconds = (performance.now() - t0) / 1000;
    const diskAfterIngest = diskBytes(dir);
    const versionsAfterIngest = await store.versionCount();
    const qr = seededRandom(7);
    const qs: RecallQuery[] = Array.from({ length: queries + 10 }, (_, i) => ({ query: memoryQuery(qr), limit: 5, ...(i % 3 === 2 ? { scope: SCOPES[i % SCOPES.length]! } : {}) }));
    const floorDb = await lancedb.connect(dir);
    const floor = await floorDb.openTable(MEMORY_TABLE);
    const recall: number[] = [];
    const raw: number[] = [];
    for (const [i, q] of qs.entries()) {
      const [v] = await store.embed([q.query]);
      const steps = [
        async () => {
          const a = performance.now();
          await store.recall(q);
          if (i >= 10) recall.push(performance.now() - a);
        },
        async () => {
          const a = performance.now();
          await floor.query().nearestTo(v!).distanceType('cosine').select(['_distance']).withRowId().limit(5).nprobes(IVF_NPROBES).toArrow();
          if (i >= 10) raw.push(performance.now() - a);
        },
      ];
      for (let k = 0; k < steps.length; k++) await steps[(i + k) % steps.length]!();
    }
    (globalThis as { gc?: () => void }).gc?.();
    const mem = process.memoryUsage();
    floor.close();
    await store.close();
    // The live data: the same table with every superseded version (and the files only they use) removed.
    const db = await lancedb.connect(dir);
    const table = await db.openTable(MEMORY_TABLE);
    await table.optimize({ cleanupOlderThan: new Date() });
    table.close();
    return {
      records,
      ingestSeconds,
      diskMiB: diskAfterIngest / MiB,
      liveMiB: diskBytes(dir) / MiB,
      versionsAfterIngest,
      rssMiB: mem.rss / MiB,
      heapMiB: mem.heapUsed / MiB,
      recall: { p50: median(recall), p95: percentile(recall, 95) },
      floor: { p50: median(raw), p95: percentile(raw, 95) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
