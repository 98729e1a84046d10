import { redactKnownDeep } from '../redactSecrets';
import { HashingEmbedder } from '../memory/hashingEmbedder';
import type { RunMemoryStore } from '../memory/runMemory';
import type { MemoryRecord, NewMemory, RecallMatch, RecallQuery } from '../memory/types';
import type { MemoryPatch } from '../memory/memoryRecords';
import type { Recording } from './recording';

/** Offline, memory is recalled with a query the recorded run never recalled with. */
export class MemoryNotRecorded extends Error {
  override name = 'MemoryNotRecorded';
  constructor(runId: string, scope: string, query: string) {
    super(`offline, memory is not searched, and recorded run ${runId} holds no recall in ${scope} for "${query.length > 80 ? `${query.slice(0, 80)}…` : query}": the document asks for more than the recording holds`);
  }
}

/**
 * The memory of an offline re-run: recall gives what the recorded run recalled for the same query in the
 * same scope, call by call, and writes reach no store (the workspace's memory is left as it was). Vectors
 * come from the offline embedder, so the configured one is never called; with nothing stored, no memory
 * is similar to another and every write is a plain insert (no consolidation call).
 */
export class OfflineMemory implements RunMemoryStore {
  private readonly embedder = new HashingEmbedder();
  private written = 0;

  constructor(private readonly recording: Recording) {}

  async recall(query: RecallQuery): Promise<RecallMatch[]> {
    const scope = query.scope ?? '/';
    const records = this.recording.recallFor(scope, query.query);
    if (!records) throw new MemoryNotRecorded(this.recording.runId, scope, query.query);
    return records.map((r) => ({ record: recalledRecord(r.id, r.content, scope), score: r.score, semantic: 0, recency: 0, importance: 0, reasons: r.reasons }));
  }

  embed(texts: string[]): Promise<number[][]> {
    return this.embedder.embed(texts);
  }

  async similar(): Promise<{ record: MemoryRecord; similarity: number }[]> {
    return [];
  }

  async add(given: NewMemory[]): Promise<MemoryRecord[]> {
    return given.map((m) => {
      const memory = redactKnownDeep(m);
      return { ...recalledRecord(`offline-${this.recording.runId}-${++this.written}`, memory.content, memory.scope), categories: memory.categories ?? [], importance: memory.importance ?? 0.5, source: memory.source };
    });
  }

  async update(id: string, patch: MemoryPatch): Promise<MemoryRecord> {
    return recalledRecord(id, patch.content ?? '', '/');
  }

  async forget(): Promise<number> {
    return 0;
  }
}

function recalledRecord(id: string, content: string, scope: string): MemoryRecord {
  return { id, content, scope, categories: [], importance: 0.5, createdAt: 0, updatedAt: 0, lastAccessedAt: 0, source: { kind: 'manual' }, private: false, metadata: {}, status: 'active', history: [] };
}
