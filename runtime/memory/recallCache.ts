/**
 * What recall reads besides the two searches, held in the process: every record's row (without its
 * vector), its vector in float16, and the row addresses of the table (RowAddresses). With it, recall
 * asks LanceDB for row addresses only — reading a row's 13 columns back from the table costs ~0.3 ms
 * per column for 20 rows — and re-ranks the vector search's candidates itself, instead of LanceDB
 * reading 100 full vectors back (`refineFactor`).
 *
 * The store loads it on its first recall, inside its write queue, and keeps it in step with its own
 * writes there. Memory: 2 bytes per dimension plus the row, ~1.3 KB per 384-d memory (~130 MB at 100k).
 */
import type * as lancedb from '@lancedb/lancedb';
import { arrowRows } from './arrowRows';
import { halfToFloatTable, toHalf } from './halfFloat';
import { vectorValues } from './lanceVector';
import { RowAddresses } from './rowAddresses';

/** Rows added to the cache between two turns of the event loop while it loads (~5 ms of work). */
const LOAD_SLICE = 1024;

/** A record's columns as the table stores them, without the vector. */
export type CachedRow = Record<string, unknown>;

export class RecallCache {
  private readonly slotOf = new Map<string, number>();
  private rows: CachedRow[] = [];
  private halves: Uint16Array;
  private norms: Float32Array;
  private readonly toFloat = halfToFloatTable();
  /** Where each row is in the table as this store last read it. */
  private readonly addresses = new RowAddresses();

  constructor(
    readonly dimensions: number,
    capacity = 16,
  ) {
    this.halves = new Uint16Array(Math.max(16, capacity) * dimensions);
    this.norms = new Float32Array(Math.max(16, capacity));
  }

  /**
   * Every row of the table (`columns` and `vector`), read batch by batch; every LOAD_SLICE rows the
   * event loop gets a turn (at 100k rows the whole load takes ~2 s).
   */
  static async load(table: lancedb.Table, dimensions: number, columns: string[]): Promise<RecallCache> {
    const cache = new RecallCache(dimensions, await table.countRows());
    for await (const batch of table.query().select([...columns, 'vector']).withRowId()) {
      cache.addresses.add(batch);
      const vectors = batch.getChild('vector')!;
      const rows = arrowRows(batch, ['vector', '_rowid']);
      for (let start = 0; start < rows.length; start += LOAD_SLICE) {
        for (let i = start; i < Math.min(rows.length, start + LOAD_SLICE); i++) cache.set(String(rows[i].id), rows[i], vectorValues(vectors.get(i)));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return cache;
  }

  get size(): number {
    return this.rows.length;
  }

  /** The id at a row address, if the cache knows the address. */
  idAt(address: number): string | undefined {
    return this.addresses.idAt(address);
  }

  /** Reads the row addresses the table has gained since the last read (after a write). */
  readNewAddresses(table: lancedb.Table): Promise<void> {
    return this.addresses.readNew(table, this.size);
  }

  row(id: string): CachedRow | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.rows[slot];
  }

  /** Adds or replaces a row and its vector. */
  set(id: string, row: CachedRow, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimensions) throw new Error(`a ${vector.length}-d vector in a ${this.dimensions}-d recall cache`);
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.rows.length;
      this.grow(slot + 1);
      this.slotOf.set(id, slot);
      this.rows.push(row);
    } else {
      this.rows[slot] = row;
    }
    const base = slot * this.dimensions;
    let sum = 0;
    for (let k = 0; k < this.dimensions; k++) {
      const v = vector[k];
      sum += v * v;
      this.halves[base + k] = toHalf(v);
    }
    this.norms[slot] = Math.sqrt(sum);
  }

  /** Changes columns of a cached row in place (recall's access times). */
  patch(id: string, values: CachedRow): void {
    const row = this.row(id);
    if (row) Object.assign(row, values);
  }

  /** Removes the rows `drop` picks (the last row moves into each freed slot); returns how many went. */
  deleteWhere(drop: (id: string, row: CachedRow) => boolean): number {
    const gone = [...this.slotOf].filter(([id, slot]) => drop(id, this.rows[slot])).map(([id]) => id);
    for (const id of gone) this.delete(id);
    return gone.length;
  }

  clear(): void {
    this.slotOf.clear();
    this.rows = [];
  }

  /** Cosine similarity of a cached vector with `query` (whose norm is `queryNorm`); NaN for an unknown id. */
  similarity(id: string, query: ArrayLike<number>, queryNorm: number): number {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return NaN;
    const base = slot * this.dimensions;
    const halves = this.halves;
    const toFloat = this.toFloat;
    let dot = 0;
    for (let k = 0; k < this.dimensions; k++) dot += query[k] * toFloat[halves[base + k]];
    const norms = this.norms[slot] * queryNorm;
    return norms === 0 ? 0 : dot / norms;
  }

  private delete(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const last = this.rows.length - 1;
    if (slot !== last) {
      const lastRow = this.rows[last];
      const lastId = String(lastRow.id);
      this.rows[slot] = lastRow;
      this.halves.copyWithin(slot * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.norms[slot] = this.norms[last];
      this.slotOf.set(lastId, slot);
    }
    this.rows.pop();
    this.slotOf.delete(id);
  }

  private grow(slots: number): void {
    if (slots <= this.norms.length) return;
    const capacity = Math.max(slots, this.norms.length * 2);
    const halves = new Uint16Array(capacity * this.dimensions);
    halves.set(this.halves);
    this.halves = halves;
    const norms = new Float32Array(capacity);
    norms.set(this.norms);
    this.norms = norms;
  }
}
