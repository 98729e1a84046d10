import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../../runtime/memory/hashingEmbedder';
import { MemoryStore } from '../../runtime/memory/memoryStore';

let dir: string;
const stores: MemoryStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-prune-'));
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

const mem = (content: string) => ({ content, scope: '/crew/a', source: { kind: 'manual' as const } });

describe('memory store compaction prunes superseded versions', () => {
  it('keeps the version count bounded over 50 compactions, while a reader in another connection goes on reading', async () => {
    const embedder = new HashingEmbedder();
    // Versions superseded at once are pruned; the reader checks for the latest version at every read
    // (the rule the defaults keep: pruning waits longer than a reader can be behind).
    const writer = await MemoryStore.open(dir, embedder, { pruneVersionsAfterMs: 0, readConsistencyS: 0 });
    const reader = await MemoryStore.open(dir, embedder, { readConsistencyS: 0 });
    stores.push(writer, reader);
    await writer.add([mem('the tide pools at dawn hold anemones')]);
    const counts: number[] = [];
    for (let i = 0; i < 50; i++) {
      await writer.add([mem(`note ${i}: crabs shelter under the kelp at low tide`), mem(`note ${i}: the harbour wall is ${i} metres long`)]);
      await writer.compactNow();
      counts.push(await writer.versionCount());
      // The reader's last version was superseded and pruned; its next read finds the current one.
      const listed = await reader.list({ limit: 500 });
      expect(listed.length).toBe(1 + 2 * (i + 1));
      // (Reads only: a recall would also write access times, making the reader a second writer.)
      const [vector] = await embedder.embed(['anemones in tide pools']);
      const similar = await reader.similar(vector!, { scope: '/crew/a', minSimilarity: 0, limit: 3 });
      expect(similar.map((m) => m.record.content)).toContain('the tide pools at dawn hold anemones');
    }
    // Every add and every compaction is a version: 100+ versions without pruning, a handful with it.
    expect(Math.max(...counts)).toBeLessThanOrEqual(3);
    expect(counts.at(-1)).toBeLessThanOrEqual(3);
  }, 180_000);

  it('by default keeps versions superseded less than a minute ago (a read in flight elsewhere may still use them)', async () => {
    const store = await MemoryStore.open(dir, new HashingEmbedder());
    stores.push(store);
    for (let i = 0; i < 5; i++) await store.add([mem(`fact ${i}`)]);
    await store.compactNow();
    expect(await store.versionCount()).toBeGreaterThanOrEqual(6);
  });
});
