/**
 * What recall reads besides the two searches, held in the process: every record's row (without its
 * vector), its unit vector in float16 and its norm, and the row addresses of the table (RowAddresses).
 * With it, recall asks LanceDB for row addresses only — reading a row's 13 columns back from the table
 * costs ~0.3 ms per column for 20 rows — and re-ranks the vector search's candidates itself, instead
 * of LanceDB reading 100 full vectors back (`refineFactor`).
 *
 * The store loads it on its first recall, inside its write queue, and keeps it in step with its own
 * writes there: after each, it reads the addresses of the rows it wrote. A search hit at an address it
 * does not know has it read every new address (id and timestamps): a row it does not hold, or whose
 * `updated_at` / `last_accessed_at` differ from its copy, was written by another process (seen by this
 * handle once it writes itself) and is read again in full. Memory: 2 bytes per
 * dimension plus the row, ~1.3 KB per 384-d memory (~130 MB at 100k).
 */
import type * as lancedb from '@lancedb/lancedb';
import type { RecordBatch } from 'apache-arrow';
import { arrowRows } from './arrowRows';
import { halfToFloatTable, toHalf } from './halfFloat';
import { vectorValues } from './lanceVector';
import { RowAddresses } from './rowAddresses';

/** Rows added to the cache between two turns of the event loop while it loads (~5 ms of work). */
const LOAD_SLICE = 1024;
/** Columns compared with the cached row to tell a row another process changed. */
const CHANGE_COLUMNS = ['updated_at', 'last_accessed_at'];
/** Rows read again by address per query. */
const REREAD_CHUNK = 500;

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
    /** The row columns held (besides the vector). */
    private readonly columns: string[] = ['id'],
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
    const cache = new RecallCache(dimensions, columns, await table.countRows());
    await cache.read(table.query().select([...columns, 'vector']).withRowId());
    return cache;
  }

  private async read(query: AsyncIterable<RecordBatch>): Promise<void> {
    for await (const batch of query) {
      this.addresses.add(batch);
      const vectors = batch.getChild('vector')!;
      const rows = arrowRows(batch, ['vector', '_rowid']);
      for (let start = 0; start < rows.length; start += LOAD_SLICE) {
        for (let i = start; i < Math.min(rows.length, start + LOAD_SLICE); i++) {
          const row = rows[i]!;
          this.set(String(row.id), row, vectorValues(vectors.get(i)));
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  get size(): number {
    return this.rows.length;
  }

  /** The id at a row address, if the cache knows the address. */
  idAt(address: bigint): string | undefined {
    return this.addresses.idAt(address);
  }

  /**
   * When a search hit is at an address it does not know (or a write's rows were not where
   * `readWrittenAddresses` looked): reads the row addresses the table has gained, and reads again in
   * full the rows there that this cache does not hold or holds an older copy of (another process's writes).
   */
  async readNewAddresses(table: lancedb.Table): Promise<void> {
    await this.readAgainChanged(table, await this.addresses.readNew(table, this.size, CHANGE_COLUMNS));
  }

  /**
   * After this store's own write of the rows `ids` (their cached rows already set): their new
   * addresses, read from the end of the table; if they are not found there, as `readNewAddresses`.
   * A row whose times differ from the cached copy was changed by another process before this write
   * rewrote it (an access-time update carries the other's content along), and is read again in full.
   */
  async readWrittenAddresses(table: lancedb.Table, ids: readonly string[]): Promise<void> {
    const seen = await this.addresses.readWritten(table, ids, CHANGE_COLUMNS);
    if (seen) await this.readAgainChanged(table, seen);
    else await this.readNewAddresses(table);
  }

  /** Reads again in full the rows of `seen` this cache does not hold or holds an older copy of. */
  private async readAgainChanged(table: lancedb.Table, seen: Record<string, unknown>[]): Promise<void> {
    const changed = seen
      .filter((r) => {
        const mine = this.row(String(r.id));
        return !mine || CHANGE_COLUMNS.some((c) => mine[c] !== r[c]);
      })
      .map((r) => r._rowid as bigint);
    for (let i = 0; i < changed.length; i += REREAD_CHUNK) {
      await this.read(table.takeRowIds(changed.slice(i, i + REREAD_CHUNK)).select([...this.columns, 'vector']).withRowId());
    }
  }

  row(id: string): CachedRow | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.rows[slot];
  }

  /** Adds or replaces a row and its vector (held as a unit vector and its norm). */
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
    let sum = 0;
    for (let k = 0; k < this.dimensions; k++) sum += vector[k]! * vector[k]!;
    const norm = Math.sqrt(sum);
    const scale = norm > 0 && Number.isFinite(norm) ? 1 / norm : 0;
    const base = slot * this.dimensions;
    for (let k = 0; k < this.dimensions; k++) this.halves[base + k] = toHalf(vector[k]! * scale);
    this.norms[slot] = scale === 0 ? 0 : norm;
  }

  /** Changes columns of a cached row in place (recall's access times). */
  patch(id: string, values: CachedRow): void {
    const row = this.row(id);
    if (row) Object.assign(row, values);
  }

  /** Removes these rows (the last row moves into each freed slot). */
  delete(ids: Iterable<string>): void {
    for (const id of ids) this.deleteOne(id);
  }

  /** Removes the rows `drop` picks; returns how many went. */
  deleteWhere(drop: (id: string, row: CachedRow) => boolean): number {
    const gone = [...this.slotOf]
      .filter(([id, slot]) => {
        const row = this.rows[slot];
        return row !== undefined && drop(id, row);
      })
      .map(([id]) => id);
    this.delete(gone);
    return gone.length;
  }

  /** Removes every row, and the memory they took. */
  clear(): void {
    this.slotOf.clear();
    this.rows = [];
    this.halves = new Uint16Array(16 * this.dimensions);
    this.norms = new Float32Array(16);
    this.addresses.clear();
  }

  /** Cosine similarity of a cached vector with `query` (whose norm is `queryNorm`); NaN for an unknown id. */
  similarity(id: string, query: ArrayLike<number>, queryNorm: number): number {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return NaN;
    if (this.norms[slot] === 0 || !(queryNorm > 0)) return 0;
    const base = slot * this.dimensions;
    const halves = this.halves;
    const toFloat = this.toFloat;
    let dot = 0;
    for (let k = 0; k < this.dimensions; k++) dot += query[k]! * toFloat[halves[base + k]!]!;
    return dot / queryNorm;
  }

  private deleteOne(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const last = this.rows.length - 1;
    const lastRow = this.rows.at(-1);
    if (slot !== last && lastRow !== undefined) {
      this.rows[slot] = lastRow;
      this.halves.copyWithin(slot * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.norms[slot] = this.norms[last]!;
      this.slotOf.set(String(lastRow.id), slot);
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
