import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteRunStore } from '../../runtime/store/sqliteRunStore';
import { T0, sampleRun } from './sampleRun';

let workspace: string;
let store: SqliteRunStore;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'crewdeck-store-'));
  store = SqliteRunStore.open(workspace);
});
afterEach(() => {
  store.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('runs of one document', () => {
  it("lists a crew's runs however many runs of other crews came after them (none vanish past 10,000)", () => {
    // Three runs of "old-crew" first, then 10,050 runs of another crew.
    for (let i = 0; i < 3; i++) store.createRun({ ...sampleRun(`old-${i}`, T0 + i), documentId: 'old-crew' });
    for (let i = 0; i < 10_050; i++) store.createRun({ ...sampleRun(`new-${i}`, T0 + 100 + i) });
    expect(store.listRuns({ documentId: 'old-crew', limit: 200 }).map((r) => r.id)).toEqual(['old-2', 'old-1', 'old-0']);
    expect(store.listRuns({ documentId: 'old-crew', limit: 1, offset: 1 }).map((r) => r.id)).toEqual(['old-1']);
    expect(store.listRuns({ documentId: 'research-crew', limit: 2 }).map((r) => r.id)).toEqual(['new-10049', 'new-10048']);
    expect(store.listRuns({ documentId: 'no-such-crew' })).toEqual([]);
  });

  it('is answered from the runs_document index, not a scan of every run', () => {
    const db = (store as unknown as { db: import('better-sqlite3').Database }).db;
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT * FROM runs WHERE document_id = ? ORDER BY started_at DESC, id DESC LIMIT 50 OFFSET 0")
      .all('x') as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/USING INDEX runs_document/);
    expect(plan.map((p) => p.detail).join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});
