/**
 * Which memory is at which LanceDB row address. A search returns the address of each hit (`_rowid`:
 * fragment id × 2^32 + offset, for a table without stable row ids, as the store creates them) without
 * reading any column, where the `id` column of 100 hits costs ~2-4 ms of a 100k-row search.
 *
 * A write puts rows at new addresses: an append, an update and a compaction all write new fragments,
 * numbered above every fragment before them, and a number is never used again. So an address read
 * once keeps naming the same memory, and after a write only the fragments from the first unseen one
 * on are read (`_rowid >= …`: a scan of the whole table, 7-13 ms at 100k rows). After the store's own
 * write, whose rows are the table's last, only those rows are read (`readWritten`, ~2 ms). Addresses of
 * rows since deleted or moved stay until they outnumber the live rows; then every address is read again.
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
      const address = addresses[i]!;
      this.ids.set(address, String(ids.get(i)));
      const fragment = address >> FRAGMENT_BITS;
      if (fragment >= this.nextFragment) this.nextFragment = fragment + 1n;
    }
  }

  /** Whether the addresses read since the last full read outnumber the live rows (time to read them all). */
  private stale(liveRows: number): boolean {
    return this.ids.size > 2 * liveRows + 1024;
  }

  /**
   * After this store's own write of the rows `ids` (an append or an update puts them in new fragments,
   * last in the table's scan order): their addresses and `columns` (with `id` and `_rowid`), read from
   * the end of the table without a scan. Undefined when the table's last rows are not exactly these
   * (another write came after them, say): then `readNew` is the way. The read mark moves past their
   * fragments only when those hold nothing else — the row before them is in an earlier fragment (a
   * compaction can put them at the end of a fragment of other rows) — and are the ones right after the
   * mark (a fragment another process wrote before them is still read by the next `readNew`).
   */
  async readWritten(table: lancedb.Table, ids: readonly string[], columns: string[] = []): Promise<Record<string, unknown>[] | undefined> {
    const liveRows = await table.countRows();
    if (ids.length === 0 || ids.length > liveRows || this.stale(liveRows)) return undefined;
    const withBefore = liveRows > ids.length;
    const last = await table
      .query()
      .select(['id', ...columns])
      .withRowId()
      .offset(liveRows - ids.length - (withBefore ? 1 : 0))
      .limit(ids.length + (withBefore ? 1 : 0))
      .toArrow();
    const rows = arrowRows(last);
    const before = withBefore ? rows.shift() : undefined;
    const wanted = new Set(ids);
    const found = new Set(rows.map((r) => String(r.id)));
    if (rows.length !== wanted.size || found.size !== wanted.size || [...found].some((id) => !wanted.has(id))) return undefined;
    const fragments = new Set<bigint>();
    for (const row of rows) {
      const address = row._rowid as bigint;
      this.ids.set(address, String(row.id));
      fragments.add(address >> FRAGMENT_BITS);
    }
    const shared = before !== undefined && fragments.has((before._rowid as bigint) >> FRAGMENT_BITS);
    let next = this.nextFragment;
    while (fragments.delete(next)) next += 1n;
    if (!shared && fragments.size === 0) this.nextFragment = next;
    return rows;
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
    if (this.stale(liveRows)) this.clear();
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
