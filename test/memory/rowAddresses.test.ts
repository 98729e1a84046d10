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
