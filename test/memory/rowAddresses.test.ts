import * as lancedb from '@lancedb/lancedb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rowAddresses, RowAddresses } from '../../runtime/memory/rowAddresses';

let dir: string;
let table: lancedb.Table;
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: `m${from + i}`, n: from + i }));

/** Every live row's address and id, as the table has them now. */
async function truth(): Promise<[bigint, string][]> {
  const result = await table.query().select(['id']).withRowId().toArrow();
  const ids = result.getChild('id')!.toArray() as string[];
  return rowAddresses(result).map((a, i) => [a, String(ids[i])]);
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-row-addresses-'));
  const db = await lancedb.connect(dir);
  table = await db.createTable('t', rows(0, 50));
});
afterEach(() => {
  table.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('RowAddresses', () => {
  it('names the right row at every address through appends, updates, deletes and compaction, reading only new fragments', async () => {
    const addresses = new RowAddresses();
    const read = vi.spyOn(addresses, 'add');
    /** Reads the new addresses, checks every live row's, and returns how many rows were read. */
    const check = async () => {
      read.mockClear();
      const live = await truth();
      await addresses.readNew(table, live.length);
      for (const [address, id] of live) expect(addresses.idAt(address)).toBe(id);
      return read.mock.calls.reduce((sum, [batch]) => sum + batch.numRows, 0);
    };
    expect(await check()).toBe(50);
    await table.add(rows(50, 20)); // a new fragment
    expect(await check()).toBe(20);
    await table.update({ where: "id = 'm3' OR id = 'm60'", values: { n: -1 } }); // the two rows move
    expect(await check()).toBe(2);
    await table.delete("id = 'm10'");
    expect(await check()).toBe(0);
    await table.optimize(); // compaction rewrites the fragments
    expect(await check()).toBe(69);
    expect((await truth()).find(([, id]) => id === 'm10')).toBeUndefined();
  });

  it("reads the addresses of this store's own writes from the table's end, without a scan, and still reads a fragment another writer put before them", async () => {
    const addresses = new RowAddresses();
    await addresses.readNew(table, 50);
    const scans = vi.spyOn(addresses, 'add'); // what readNew reads with
    const ok = async () => {
      for (const [address, id] of await truth()) expect(addresses.idAt(address), id).toBe(id);
    };
    await table.add(rows(50, 3));
    expect((await addresses.readWritten(table, ['m50', 'm51', 'm52'], ['n']))?.map((r) => r.n)).toEqual([50, 51, 52]);
    await table.update({ where: "id = 'm7'", values: { n: -1 } });
    expect(await addresses.readWritten(table, ['m7'])).toHaveLength(1);
    await ok();
    expect(scans).not.toHaveBeenCalled();

    // Another writer's rows, then this store's: this store's are known, the other's are left to readNew.
    await table.add(rows(100, 2));
    await table.add(rows(53, 2));
    expect(await addresses.readWritten(table, ['m53', 'm54'])).toHaveLength(2);
    expect(addresses.idAt((await truth()).find(([, id]) => id === 'm100')![0])).toBeUndefined();
    await addresses.readNew(table, 57);
    expect(scans.mock.calls.reduce((sum, [batch]) => sum + batch.numRows, 0)).toBe(4); // both fragments after the mark
    await ok();

    // Not the table's last rows (another write came after them): refused.
    await table.add(rows(60, 2));
    await table.add(rows(200, 1));
    expect(await addresses.readWritten(table, ['m60', 'm61'])).toBeUndefined();
    expect(await addresses.readWritten(table, [])).toBeUndefined();
    // Compacted, still last: read at its new address; the mark stays, so readNew reads the compaction.
    await table.add(rows(62, 1));
    await table.optimize();
    expect(await addresses.readWritten(table, ['m62'])).toHaveLength(1);
    expect(addresses.idAt((await truth()).find(([, id]) => id === 'm62')![0])).toBe('m62');
    scans.mockClear();
    await addresses.readNew(table, 61);
    expect(scans.mock.calls.reduce((sum, [batch]) => sum + batch.numRows, 0)).toBe(61);
    await ok();
  });

  it('keeps the read mark before a compacted fragment that holds other rows besides the written ones', async () => {
    const addresses = new RowAddresses();
    await table.add(rows(50, 2));
    await table.add(rows(52, 1));
    await addresses.readNew(table, 53); // every fragment read: the mark is right after m52's
    await table.optimize(); // one new fragment, numbered at the mark: every row moves into it, m52 last
    expect(await addresses.readWritten(table, ['m52'])).toHaveLength(1);
    const scans = vi.spyOn(addresses, 'add');
    await addresses.readNew(table, 53); // still reads the compacted fragment
    expect(scans.mock.calls.reduce((sum, [batch]) => sum + batch.numRows, 0)).toBe(53);
    for (const [address, id] of await truth()) expect(addresses.idAt(address), id).toBe(id);
  });

  it('forgets the addresses of moved and deleted rows once they outnumber the live rows', async () => {
    const addresses = new RowAddresses();
    await addresses.readNew(table, 50);
    expect(addresses.size).toBe(50);
    for (let i = 0; i < 30; i++) {
      await table.update({ where: 'n >= 0', values: { n: i } }); // every row moves each time
      await addresses.readNew(table, 50);
    }
    expect(addresses.size).toBeLessThan(50 + 30 * 50); // without forgetting: every address ever read
    for (const [address, id] of await truth()) expect(addresses.idAt(address)).toBe(id);
  });
});
