import * as lancedb from '@lancedb/lancedb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../../runtime/memory/hashingEmbedder';
import { MAX_VECTOR_INDEX_DELTAS } from '../../runtime/memory/memoryIndices';
import { MemoryStore } from '../../runtime/memory/memoryStore';
import { MEMORY_TABLE } from '../../runtime/memory/memoryTable';
import type { NewMemory } from '../../runtime/memory/types';

const SUBJECTS = ['the client', 'our supplier', 'the auditor', 'the night shift', 'marketing', 'the warehouse', 'legal', 'the pilot team'];
const VERBS = ['prefers', 'rejected', 'asked for', 'signed off on', 'keeps forgetting', 'complained about', 'budgeted for'];
const OBJECTS = ['weekly reports', 'the blue packaging', 'invoices in euros', 'a shorter onboarding', 'the Rust rewrite', 'cold storage', 'quarterly reviews'];

/** Deterministic varied sentences (a small LCG), each with a number so they are all distinct. */
function sentences(n: number, seed: number): string[] {
  let x = seed;
  const pick = <T>(list: T[]) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return list[x % list.length];
  };
  return Array.from({ length: n }, (_, i) => `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)} (item ${seed}-${i})`);
}

const memories = (texts: string[], scope = '/crew/a'): NewMemory[] => texts.map((content) => ({ content, scope, source: { kind: 'manual' as const } }));

let dir: string;
const stores: MemoryStore[] = [];
async function open(vectorIndexMinRows: number): Promise<MemoryStore> {
  const store = await MemoryStore.open(dir, new HashingEmbedder({ dimensions: 64 }), { vectorIndexMinRows });
  stores.push(store);
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-vector-index-'));
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('MemoryStore vector index', () => {
  it('builds an IVF_RQ index at vectorIndexMinRows, finds indexed and unindexed rows, and keeps private rows out', async () => {
    const store = await open(400);
    const texts = sentences(450, 1);
    for (let b = 0; b < 3; b++) {
      await store.add(memories(texts.slice(b * 150, (b + 1) * 150)));
      if (b < 2) expect(await store.vectorIndexStatus()).toBeUndefined();
    }
    expect(await store.vectorIndexStatus()).toEqual({ type: 'IVF_RQ', indexedRows: 450, unindexedRows: 0, deltas: 1 });

    await store.add([{ ...memories(['the auditor prefers the secret vault code 4471'])[0]!, private: true }]);
    await store.add(memories(['the auditor prefers handwritten thank-you notes']));
    expect((await store.vectorIndexStatus())?.unindexedRows).toBe(2);

    const unindexed = await store.recall({ query: 'the auditor prefers handwritten thank-you notes', limit: 3 });
    expect(unindexed[0]!.record.content).toBe('the auditor prefers handwritten thank-you notes');
    expect(unindexed[0]!.semantic).toBeCloseTo(1, 3); // float16 vectors in the recall cache: within ~1e-4
    const privateQuery = 'the auditor prefers the secret vault code 4471';
    expect((await store.recall({ query: privateQuery, limit: 50 })).map((h) => h.record.private)).not.toContain(true);
    expect((await store.recall({ query: privateQuery, includePrivate: true, limit: 1 }))[0]!.record.private).toBe(true);

    // Rows inside the index: a stored sentence is its own best match (cosine 1), for a spread of rows.
    for (const i of [0, 57, 149, 233, 301, 449]) {
      const [top] = await store.recall({ query: texts[i]!, limit: 1, touch: false });
      expect(top!.record.content).toBe(texts[i]);
      expect(top!.semantic).toBeCloseTo(1, 3); // float16 vectors in the recall cache: within ~1e-4
    }
  });

  it(`retrains the index on the whole table once it has more than ${MAX_VECTOR_INDEX_DELTAS} delta indices`, async () => {
    const store = await open(300);
    await store.add(memories(sentences(300, 2)));
    const seen: number[] = [];
    for (let b = 0; b < MAX_VECTOR_INDEX_DELTAS + 2; b++) {
      await store.add(memories(sentences(260, 10 + b))); // past OPTIMIZE_AFTER_UNINDEXED: each batch is folded in as a delta
      const status = await store.vectorIndexStatus();
      expect(status?.unindexedRows).toBe(0);
      seen.push(status!.deltas);
    }
    expect(Math.max(...seen)).toBe(MAX_VECTOR_INDEX_DELTAS + 1);
    expect(seen.indexOf(1)).toBeGreaterThan(seen.indexOf(MAX_VECTOR_INDEX_DELTAS + 1)); // retrained into one index
    const last = sentences(260, 10 + MAX_VECTOR_INDEX_DELTAS + 1)[17];
    expect((await store.recall({ query: last!, limit: 1 }))[0]!.record.content).toBe(last);
  });

  it('uses IVF_FLAT for a vector size IVF_RQ cannot take (not divisible by 8)', async () => {
    const store = await MemoryStore.open(dir, new HashingEmbedder({ dimensions: 12 }), { vectorIndexMinRows: 300 });
    stores.push(store);
    const texts = sentences(320, 4);
    await store.add(memories(texts));
    expect(await store.vectorIndexStatus()).toEqual({ type: 'IVF_FLAT', indexedRows: 320, unindexedRows: 0, deltas: 1 });
    const [top] = await store.recall({ query: texts[99]!, limit: 1 });
    expect(top!.record.content).toBe(texts[99]);
  });

  it('keeps a write whose index upkeep fails, says why, and still finds the rows', async () => {
    // Only zero vectors: nothing for the vector index to be trained on.
    const zeros = { id: 'zeros-16', dimensions: 16, embed: async (texts: string[]) => texts.map(() => new Array<number>(16).fill(0)) };
    const store = await MemoryStore.open(dir, zeros, { vectorIndexMinRows: 300 });
    stores.push(store);
    const added = await store.add(memories(sentences(320, 7)));
    expect(added).toHaveLength(320);
    expect(store.indexProblem).toMatch(/kmeans/i);
    expect(await store.count()).toBe(320);
    expect(await store.vectorIndexStatus()).toBeUndefined();
    expect(await store.ftsIndexStatus()).toEqual({ indexedRows: 320, unindexedRows: 0 }); // the other indices are kept up
    await store.add(memories(sentences(300, 8)));
    expect(await store.ftsIndexStatus()).toEqual({ indexedRows: 620, unindexedRows: 0 });
    const wanted = sentences(320, 7)[41];
    expect((await store.recall({ query: wanted!, limit: 1 }))[0]!.record.content).toBe(wanted); // full-text search
  });

  it('replaces a vector index of an older type (IVF_PQ) in the background when opened, keeping the rows', async () => {
    const first = await open(Infinity);
    await first.add(memories(sentences(400, 3)));
    await first.close();
    const db = await lancedb.connect(dir);
    const table = await db.openTable(MEMORY_TABLE);
    await table.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine', numPartitions: 4 }) });
    expect((await table.listIndices()).find((i) => i.name === 'vector_idx')?.indexType).toBe('IvfPq');
    table.close();

    const store = await open(Infinity);
    await store.flush(); // waits for the maintenance started by open
    expect(await store.vectorIndexStatus()).toEqual({ type: 'IVF_RQ', indexedRows: 400, unindexedRows: 0, deltas: 1 });
    expect(await store.count()).toBe(400);
  });

  it('replaces a vector index under another name (vector_rq4_idx, briefly the default) with vector_idx when opened', async () => {
    const first = await open(Infinity);
    const texts = sentences(400, 4);
    await first.add(memories(texts));
    await first.close();
    const db = await lancedb.connect(dir);
    const table = await db.openTable(MEMORY_TABLE);
    await table.createIndex('vector', { config: lancedb.Index.ivfRq({ distanceType: 'cosine', numPartitions: 4, numBits: 4 }), name: 'vector_rq4_idx' });
    table.close();

    const store = await open(Infinity);
    await store.flush();
    const reopened = await (await lancedb.connect(dir)).openTable(MEMORY_TABLE);
    const vectorIndices = (await reopened.listIndices()).filter((i) => i.columns.includes('vector'));
    reopened.close();
    expect(vectorIndices.map((i) => [i.name, i.indexType])).toEqual([['vector_idx', 'IvfRq']]);
    expect(await store.vectorIndexStatus()).toEqual({ type: 'IVF_RQ', indexedRows: 400, unindexedRows: 0, deltas: 1 });
    const [top] = await store.recall({ query: texts[123]!, limit: 1 });
    expect(top!.record.content).toBe(texts[123]);
    expect(top!.semantic).toBeCloseTo(1, 3); // float16 vectors in the recall cache: within ~1e-4
  });

  it('folds in rows a process left unindexed when the store is next opened', async () => {
    const first = await open(Infinity);
    await first.add(memories(sentences(10, 5)));
    await first.close();
    const db = await lancedb.connect(dir); // another writer (e.g. an older version) that does no upkeep
    const table = await db.openTable(MEMORY_TABLE);
    const [row] = (await table.query().limit(1).toArray()).map((r) => ({ ...r.toJSON(), vector: Array.from(r.vector as Iterable<number>) }));
    await table.add(sentences(300, 6).map((content, i) => ({ ...row, id: `raw-${i}`, content })));
    table.close();

    const store = await open(Infinity);
    await store.flush();
    expect(await store.ftsIndexStatus()).toEqual({ indexedRows: 310, unindexedRows: 0 });
  });
});
