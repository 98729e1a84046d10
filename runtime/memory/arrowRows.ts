import type { RecordBatch, Table as ArrowTable } from 'apache-arrow';

/**
 * A query result's rows as plain objects, read column by column: the same values as LanceDB's
 * `toArray()` (Arrow row proxies), at ~a quarter of the cost (20 rows x 15 columns: ~0.33 vs ~1.3 ms).
 * `omit` leaves columns out of the rows.
 */
export function arrowRows(table: ArrowTable | RecordBatch, omit: string[] = []): Record<string, unknown>[] {
  const columns = table.schema.fields.filter((f) => !omit.includes(f.name)).map((f) => ({ name: f.name, vector: table.getChild(f.name)! }));
  const rows = new Array<Record<string, unknown>>(table.numRows);
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (const c of columns) row[c.name] = c.vector.get(i);
    rows[i] = row;
  }
  return rows;
}

/**
 * LanceDB's `toArray()` rows, which it types `any[]`: each is an object (an Arrow row proxy) with a
 * property per selected column, read here as unknown values. The same array, checked, not copied.
 */
export function lanceRows(rows: unknown[]): Record<string, unknown>[] {
  if (!rows.every(isRow)) throw new TypeError('LanceDB returned a row that is not an object');
  return rows;
}

function isRow(row: unknown): row is Record<string, unknown> {
  return row !== null && typeof row === 'object';
}
