import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../../runtime/memory/hashingEmbedder';
import { MemoryStore } from '../../runtime/memory/memoryStore';
import type { RecallTimings } from '../../runtime/memory/recallTimings';

describe('recall timings (what bench:memory breaks recall down with)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fills in every phase, and the same matches come back as without timings', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crewdeck-recall-timings-'));
    const store = await MemoryStore.open(dir, new HashingEmbedder(), { now: () => Date.UTC(2026, 10, 1) });
    try {
      await store.add([
        { content: 'The solar panel budget was approved by the board', scope: '/crew/test', source: { kind: 'manual' } },
        { content: 'Coffee machine repairs are booked for Friday', scope: '/crew/test', source: { kind: 'manual' } },
        { content: 'The board wants a summary of panel suppliers', scope: '/crew/test', source: { kind: 'manual' } },
      ]);
      const query = { query: 'solar panel budget', limit: 2, touch: false };
      const timings = {} as RecallTimings;
      const timed = await store.recall(query, timings);
      const plain = await store.recall(query);
      expect(timed.map((m) => m.record.content)).toEqual(plain.map((m) => m.record.content));
      expect(timed[0]!.record.content).toContain('solar panel budget');
      const phases: (keyof RecallTimings)[] = ['embeddingMs', 'vectorMs', 'fullTextMs', 'searchMs', 'fusionMs', 'scoringMs', 'totalMs'];
      for (const phase of phases) expect(timings[phase], phase).toBeGreaterThanOrEqual(0);
      // The two searches run at once: their wall time is the slower one's, and within the total.
      expect(timings.searchMs).toBeGreaterThanOrEqual(Math.max(timings.vectorMs, timings.fullTextMs) - 0.01);
      expect(timings.totalMs).toBeGreaterThanOrEqual(timings.embeddingMs + timings.searchMs + timings.fusionMs + timings.scoringMs - 0.01);
    } finally {
      await store.close();
    }
  });
});
