/**
 * Which memory is at which LanceDB row address. A search returns the address of each hit (`_rowid`:
 * fragment id × 2^32 + offset, for a table without stable row ids, as the store creates them) without
 * reading any column, where the `id` column of 100 hits costs ~2-4 ms of a 100k-row search.
 *
 * A write puts rows at new addresses: an append, an update and a compaction all write new fragments,
 * numbered above every fragment before them, and a number is never used again. So an address read
 * once keeps naming the same memory, and after a write only the fragments from the first unseen one
 * on are read (`_rowid >= …`: ~3-4 ms at 100k rows). Addresses of rows since deleted or moved stay
 * until they outnumber the live rows; then every address is read again.
 */
import type * as lancedb from '@lancedb/lancedb';
import type { RecordBatch } from 'apache-arrow';
import { arrowRows } from './arrowRows';

const FRAGMENT_BITS = 32n;

/** The `_rowid` column of a query result (`withRowId()`). */
export function rowAddresses(result: { getChild(name: string): { toArray(): unknown } | null }): bigint[] {
  const column = result.getChild('_rowid')?.toArray() as BigUint64Array | undefined;
  return column ? Array.from(column) : [];
}

export class RowAddresses {
  private readonly ids = new Map<bigint, string>();
  /** Addresses in this fragment and above have not been read. */
  private nextFragment = 0n;

  idAt(address: bigint): string | undefined {
    return this.ids.get(address);
  }

  get size(): number {
    return this.ids.size;
  }

  /** Records the ids and addresses of a batch that has both (`select(['id', …]).withRowId()`). */
  add(batch: RecordBatch): void {
    const ids = batch.getChild('id')!;
    const addresses = rowAddresses(batch);
    for (let i = 0; i < addresses.length; i++) {
      this.ids.set(addresses[i], String(ids.get(i)));
      const fragment = addresses[i] >> FRAGMENT_BITS;
      if (fragment >= this.nextFragment) this.nextFragment = fragment + 1n;
    }
  }

  /** Forgets every address (the next `readNew` reads them all). */
  clear(): void {
    this.ids.clear();
    this.nextFragment = 0n;
  }

  /**
   * Reads the addresses written since the last read (every address, once stale ones outnumber
   * `liveRows`), and returns those rows' `columns` (with `id` and `_rowid`).
   */
  async readNew(table: lancedb.Table, liveRows: number, columns: string[] = []): Promise<Record<string, unknown>[]> {
    if (this.ids.size > 2 * liveRows + 1024) this.clear();
    const rows: Record<string, unknown>[] = [];
    const query = table
      .query()
      .where(`_rowid >= ${this.nextFragment << FRAGMENT_BITS}`)
      .select(['id', ...columns])
      .withRowId();
    for await (const batch of query) {
      this.add(batch);
      for (const row of arrowRows(batch)) rows.push(row);
    }
    return rows;
  }
}
