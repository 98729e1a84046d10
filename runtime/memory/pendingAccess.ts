/**
 * Recall's lastAccessedAt updates. A LanceDB update is a new table version (~30 ms) that rewrites the
 * rows, leaving them unindexed until the next `optimize()` (~0.2-0.3 s at 100k rows), so updates are
 * collected and written with the next write (in a run: the task's memory write, right after its
 * recall), after ACCESS_FLUSH_DELAY_MS, or on close, never holding up reads or the recall itself;
 * records read in the meantime show the pending time.
 */
import type * as lancedb from '@lancedb/lancedb';
import { idIn } from './memoryFilter';
import type { RecallCache } from './recallCache';
import type { MemoryRecord } from './types';

/** Recall's lastAccessedAt updates are written this long after the first one, unless a write or close comes first. */
const ACCESS_FLUSH_DELAY_MS = 30_000;

export class PendingAccess {
  /** lastAccessedAt set by recall but not yet written (applied to every record read meanwhile). */
  private readonly times = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  /** `due` is called ACCESS_FLUSH_DELAY_MS after the first time noted since the last call: it queues `write`. */
  constructor(private readonly due: () => void) {}

  /** Notes that recall returned the records `ids` at `at`. */
  touch(ids: string[], at: number): void {
    for (const id of ids) this.times.set(id, Math.max(at, this.times.get(id) ?? 0));
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.due();
    }, ACCESS_FLUSH_DELAY_MS);
    this.timer.unref();
  }

  /** No `due` call for the times noted so far (the store is closing and writes them itself). */
  cancel(): void {
    clearTimeout(this.timer);
  }

  /** The access time of `id` not yet written, if any. */
  of(id: string): number | undefined {
    return this.times.get(id);
  }

  /** The record with recall's not-yet-written access time, if any. */
  apply(record: MemoryRecord): MemoryRecord {
    const at = this.times.get(record.id);
    if (at !== undefined && at > record.lastAccessedAt) record.lastAccessedAt = at;
    return record;
  }

  /**
   * Writes the pending access times (one update per distinct time) and sets them in the recall cache
   * (`cache()`, if loaded); returns the ids of the rows updated (none: nothing was pending). Runs inside
   * the store's write queue.
   */
  async write(table: lancedb.Table, cache: () => RecallCache | undefined): Promise<string[]> {
    if (this.times.size === 0) return [];
    const byTime = new Map<number, string[]>();
    for (const [id, t] of this.times) byTime.set(t, [...(byTime.get(t) ?? []), id]);
    for (const [t, group] of byTime) {
      await table.update({ where: idIn(group), values: { last_accessed_at: t } });
      for (const id of group) {
        cache()?.patch(id, { last_accessed_at: t });
        if (this.times.get(id) === t) this.times.delete(id);
      }
    }
    return [...byTime.values()].flat();
  }
}
