import type { RecordBatch, Table as ArrowTable } from 'apache-arrow';

/**
 * A query result's rows as plain objects, read column by column: the same values as LanceDB's
 * `toArray()` (Arrow row proxies), at ~a quarter of the cost (20 rows x 15 columns: ~0.33 vs ~1.3 ms).
 * `omit` leaves columns out of the rows.
 */
export function arrowRows(table: ArrowTable | RecordBatch, omit: string[] = []): Record<string, unknown>[] {
  const columns = table.schema.fields.filter((f) => !omit.includes(f.name)).map((f) => ({ name: f.name, vector: table.getChild(f.name)! }));
  const rows: Record<string, unknown>[] = new Array(table.numRows);
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (const c of columns) row[c.name] = c.vector.get(i);
    rows[i] = row;
  }
  return rows;
}
