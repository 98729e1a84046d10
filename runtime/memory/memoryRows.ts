/**
 * The memory table's row format: its Arrow schema (with the embedder it was made for in the schema
 * metadata) and the conversion between stored rows and MemoryRecords.
 */
import { Bool, Field, FixedSizeList, Float32, Float64, Schema, Utf8 } from 'apache-arrow';
import type { CachedRow } from './recallCache';
import type { Embedder, MemoryRecord, MemoryRevision, MemorySource, MemoryStatus } from './types';

const META_EMBEDDER = 'crewdeck.embedder';
const META_DIMENSIONS = 'crewdeck.dimensions';

/** A row as stored (snake_case columns, since DataFusion lower-cases unquoted identifiers). */
type MemoryRow = {
  id: string;
  content: string;
  vector: number[];
  scope: string;
  categories: string;
  importance: number;
  created_at: number;
  updated_at: number;
  last_accessed_at: number;
  source: string;
  is_private: boolean;
  metadata: string;
  status: string;
  history: string;
};

export const RECORD_COLUMNS = [
  'id',
  'content',
  'scope',
  'categories',
  'importance',
  'created_at',
  'updated_at',
  'last_accessed_at',
  'source',
  'is_private',
  'metadata',
  'status',
  'history',
];

export function memorySchema(embedder: Embedder): Schema {
  return new Schema(
    [
      new Field('id', new Utf8(), false),
      new Field('content', new Utf8(), false),
      new Field('vector', new FixedSizeList(embedder.dimensions, new Field('item', new Float32(), true)), false),
      new Field('scope', new Utf8(), false),
      new Field('categories', new Utf8(), false),
      new Field('importance', new Float64(), false),
      new Field('created_at', new Float64(), false),
      new Field('updated_at', new Float64(), false),
      new Field('last_accessed_at', new Float64(), false),
      new Field('source', new Utf8(), false),
      new Field('is_private', new Bool(), false),
      new Field('metadata', new Utf8(), false),
      new Field('status', new Utf8(), false),
      new Field('history', new Utf8(), false),
    ],
    new Map([
      [META_EMBEDDER, embedder.id],
      [META_DIMENSIONS, String(embedder.dimensions)],
    ]),
  );
}

/** The embedder a table was made for, as its schema metadata says. */
export function storedEmbedder(meta: Map<string, string>): { id: string; dimensions: number } {
  return { id: meta.get(META_EMBEDDER) ?? '(unknown)', dimensions: Number(meta.get(META_DIMENSIONS) ?? NaN) };
}

export function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string' || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function rowToRecord(row: Record<string, unknown>): MemoryRecord {
  return {
    id: String(row.id),
    content: String(row.content),
    scope: String(row.scope),
    categories: parseJson<string[]>(row.categories, []),
    importance: Number(row.importance),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    lastAccessedAt: Number(row.last_accessed_at),
    source: parseJson<MemorySource>(row.source, { kind: 'manual' }),
    private: Boolean(row.is_private),
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
    status: (row.status === 'pending_review' ? 'pending_review' : 'active') as MemoryStatus,
    history: parseJson<MemoryRevision[]>(row.history, []),
  };
}

function recordToRow(record: MemoryRecord, vector: number[]): MemoryRow {
  return {
    id: record.id,
    content: record.content,
    vector,
    scope: record.scope,
    categories: JSON.stringify(record.categories),
    importance: record.importance,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    last_accessed_at: record.lastAccessedAt,
    source: JSON.stringify(record.source),
    is_private: record.private,
    metadata: JSON.stringify(record.metadata),
    status: record.status,
    history: JSON.stringify(record.history),
  };
}

/** A record and its vector as the row LanceDB is given to write. */
export function tableRow(record: MemoryRecord, vector: number[]): Record<string, unknown> {
  return recordToRow(record, vector);
}

/** A record as the recall cache holds it: its row without the vector. */
export function cachedRow(record: MemoryRecord): CachedRow {
  const { vector: _vector, ...row } = recordToRow(record, []);
  return row;
}
