import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../../runtime/memory/hashingEmbedder';
import type { Embedder } from '../../runtime/memory/types';
import { KnowledgeEmbedderMismatch } from '../../runtime/knowledge/errors';
import { KnowledgeStore } from '../../runtime/knowledge/knowledgeStore';
import type { LoadedSource } from '../../runtime/knowledge/loadSource';

/** The offline embedder, counting the texts it embeds. */
class CountingEmbedder implements Embedder {
  private readonly inner = new HashingEmbedder();
  readonly id = this.inner.id;
  readonly dimensions = this.inner.dimensions;
  texts = 0;
  async embed(texts: string[]): Promise<number[][]> {
    this.texts += texts.length;
    return this.inner.embed(texts);
  }
}

let dir: string;
let embedder: CountingEmbedder;
let store: KnowledgeStore;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-kstore-'));
  embedder = new CountingEmbedder();
  store = await KnowledgeStore.open(dir, embedder);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const source = (key: string, text: string, name = key): LoadedSource => ({ key, name, type: 'text', text });
const long = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i} is about ${topic} and nothing else at all.`).join('\n\n');

describe('KnowledgeStore', () => {
  it('stores chunks and lists sources with their chunk counts and content hashes', async () => {
    const first = await store.ingest(source('file:a.md', long('solar panels', 30)), { size: 500, overlap: 50 });
    expect(first.status).toBe('added');
    expect(first.chunks).toBeGreaterThan(3);
    expect(first.contentHash).toMatch(/^[0-9a-f]{64}$/);
    await store.ingest(source('text:crew/policy', 'Refunds are possible within 30 days.', 'policy'));
    expect(await store.sources()).toEqual([
      { key: 'file:a.md', name: 'file:a.md', type: 'text', chunks: first.chunks, contentHash: first.contentHash, ingestedAt: expect.any(Number) },
      { key: 'text:crew/policy', name: 'policy', type: 'text', chunks: 1, contentHash: expect.any(String), ingestedAt: expect.any(Number) },
    ]);
  });

  it('does nothing for an unchanged source: no embedding, no write', async () => {
    await store.ingest(source('file:a.md', long('wind turbines', 20)), { size: 500, overlap: 50 });
    const version = await store.version();
    const embedded = embedder.texts;
    const again = await store.ingest(source('file:a.md', long('wind turbines', 20)), { size: 500, overlap: 50 });
    expect(again.status).toBe('unchanged');
    expect(embedder.texts).toBe(embedded);
    expect(await store.version()).toBe(version);
    // Reopening the store (a later run) sees the same hash.
    store.close();
    store = await KnowledgeStore.open(dir, embedder);
    expect((await store.ingest(source('file:a.md', long('wind turbines', 20)), { size: 500, overlap: 50 })).status).toBe('unchanged');
    expect(await store.version()).toBe(version);
    // Other chunking is a change.
    expect((await store.ingest(source('file:a.md', long('wind turbines', 20)), { size: 400, overlap: 50 })).status).toBe('replaced');
  });

  it('replaces every chunk of a changed source and leaves other sources alone', async () => {
    await store.ingest(source('file:a.md', long('wind turbines', 20)), { size: 500, overlap: 50 });
    await store.ingest(source('file:b.md', 'Batteries store energy overnight.'));
    const changed = await store.ingest(source('file:a.md', 'Now only about hydrogen electrolysers.'), { size: 500, overlap: 50 });
    expect(changed).toMatchObject({ status: 'replaced', chunks: 1 });
    const sources = await store.sources();
    expect(sources.map((s) => [s.key, s.chunks])).toEqual([
      ['file:a.md', 1],
      ['file:b.md', 1],
    ]);
    const hits = await store.search({ query: 'wind turbines', sourceKeys: ['file:a.md', 'file:b.md'], minScore: 0 });
    expect(hits.every((h) => !h.content.includes('wind'))).toBe(true);
    expect((await store.search({ query: 'hydrogen electrolysers', sourceKeys: ['file:a.md'] }))[0]!.content).toBe('Now only about hydrogen electrolysers.');
  });

  it('searches only the given sources, scores 0..1 and drops matches under the threshold', async () => {
    await store.ingest(source('file:prices.csv', 'sku: SP-1; name: Solar Pro panel; price: 420 EUR\nsku: BT-2; name: Home battery; price: 3100 EUR', 'prices.csv'));
    await store.ingest(source('file:hr.md', 'Holiday policy: every employee gets 28 days of paid leave.', 'hr.md'));
    await store.ingest(source('file:other.md', 'Solar Pro panel price list for partners: 380 EUR.', 'other.md'));
    const hits = await store.search({ query: 'What does the Solar Pro panel cost?', sourceKeys: ['file:prices.csv', 'file:hr.md'] });
    expect(hits.map((h) => h.sourceName)).toEqual(['prices.csv']);
    expect(hits[0]!.score).toBeGreaterThan(0.2);
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    const all = await store.search({ query: 'What does the Solar Pro panel cost?', sourceKeys: ['file:prices.csv', 'file:hr.md'], minScore: 0 });
    expect(all.map((h) => h.sourceName).sort()).toEqual(['hr.md', 'prices.csv']);
    const hr = all.find((h) => h.sourceName === 'hr.md')!;
    expect(hr.score).toBeLessThan(0.2);
    const strict = await store.search({ query: 'What does the Solar Pro panel cost?', sourceKeys: ['file:prices.csv'], minScore: Math.min(1, hits[0]!.score + 0.01) });
    expect(strict).toEqual([]);
    expect(await store.search({ query: 'panel', sourceKeys: [] })).toEqual([]);
    // Quotes in keys are escaped, not spliced into the filter.
    expect(await store.search({ query: 'panel', sourceKeys: ["file:x' OR '1'='1"] })).toEqual([]);
  });

  it('removes sources and refuses a store built by another embedder', async () => {
    await store.ingest(source('file:a.md', 'Alpha.'));
    await store.ingest(source('file:b.md', 'Beta.'));
    expect(await store.remove(['file:a.md', 'file:nope'])).toBe(1);
    expect((await store.sources()).map((s) => s.key)).toEqual(['file:b.md']);
    store.close();
    await expect(KnowledgeStore.open(dir, new HashingEmbedder({ dimensions: 64 }))).rejects.toThrow(KnowledgeEmbedderMismatch);
    store = await KnowledgeStore.open(dir, embedder);
  });

  it('several stores on one table (runs ingesting at once) all get their sources in: commits that lose a race are retried', async () => {
    const others = await Promise.all([1, 2, 3].map(() => KnowledgeStore.open(dir, embedder)));
    try {
      const all = [store, ...others];
      const results = await Promise.all(all.map((s, i) => s.ingest(source(`text:crew${i}/facts`, long(`topic ${i}`, 20)), { size: 500, overlap: 50 })));
      expect(results.map((r) => r.status)).toEqual(['added', 'added', 'added', 'added']);
      await store.ingest(source('text:late', 'one more source after the race'));
      const reopened = await KnowledgeStore.open(dir, embedder);
      try {
        expect((await reopened.sources()).map((s) => s.key).sort()).toEqual(['text:crew0/facts', 'text:crew1/facts', 'text:crew2/facts', 'text:crew3/facts', 'text:late']);
      } finally {
        reopened.close();
      }
    } finally {
      for (const s of others) s.close();
    }
  });
});
