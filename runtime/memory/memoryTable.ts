/** The LanceDB table the memory store keeps its records in, opened or created for one embedder. */
import * as lancedb from '@lancedb/lancedb';
import { mkdirSync } from 'node:fs';
import { EmbedderMismatch } from './memoryErrors';
import { isObjectStoreUri } from './memoryLocation';
import { memorySchema, storedEmbedder } from './memoryRows';
import type { Embedder } from './types';

export const MEMORY_TABLE = 'memories';
/** A store sees another process's writes within this many seconds (LanceDB's read consistency interval). */
export const READ_CONSISTENCY_S = 1;

/** Opens (creating if needed) the table in `dir`. Throws EmbedderMismatch for another embedder's table. */
export async function openMemoryTable(dir: string, embedder: Embedder, readConsistencyS = READ_CONSISTENCY_S): Promise<lancedb.Table> {
  // Otherwise LanceDB logs a deprecation warning to stderr on every vector index statistics call
  // (it will leave the centroids out of them, which the store never reads).
  process.env.LANCE_INCLUDE_VECTOR_CENTROIDS ??= 'false';
  if (!isObjectStoreUri(dir)) mkdirSync(dir, { recursive: true });
  const db = await lancedb.connect(dir, { readConsistencyInterval: readConsistencyS });
  const names = await db.tableNames();
  if (!names.includes(MEMORY_TABLE)) return db.createEmptyTable(MEMORY_TABLE, memorySchema(embedder));
  const table = await db.openTable(MEMORY_TABLE);
  const stored = storedEmbedder((await table.schema()).metadata);
  if (stored.id !== embedder.id || stored.dimensions !== embedder.dimensions) {
    table.close();
    throw new EmbedderMismatch(stored.id, embedder.id, stored.dimensions, embedder.dimensions);
  }
  return table;
}
