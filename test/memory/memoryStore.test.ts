import * as lancedb from '@lancedb/lancedb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../../runtime/memory/hashingEmbedder';
import { filterToWhere } from '../../runtime/memory/memoryFilter';
import { EmbedderMismatch, MemoryNotFound } from '../../runtime/memory/memoryErrors';
import { OPTIMIZE_AFTER_UNINDEXED } from '../../runtime/memory/memoryIndices';
import { MemoryStore } from '../../runtime/memory/memoryStore';
import { MEMORY_TABLE } from '../../runtime/memory/memoryTable';
import type { Embedder, NewMemory } from '../../runtime/memory/types';

const DAY = 86_400_000;

/** Bag of words (crudely stemmed) hashed into 64 dims, normalised. Deterministic. */
class BagOfWordsEmbedder implements Embedder {
  readonly dimensions = 64;
  constructor(readonly id = 'test-bow-64') {}
  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => {
      const v = new Array<number>(this.dimensions).fill(0);
      for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
        const word = raw.replace(/(ing|ed|es|s)$/, '');
        let h = 2166136261;
        for (const ch of word) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
        v[h % this.dimensions]! += 1;
      }
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
  }
}

/** Every text gets the same vector: semantic similarity ties, so only FTS / recency / importance can rank. */
class ConstantEmbedder implements Embedder {
  readonly id = 'test-constant-8';
  readonly dimensions = 8;
  async embed(texts: string[]): Promise<number[][]> {
    return texts.map(() => [1, 0, 0, 0, 0, 0, 0, 0]);
  }
}

const manual = { kind: 'manual' as const };
const mem = (content: string, scope = '/crew/a', extra: Partial<NewMemory> = {}): NewMemory => ({
  content,
  scope,
  source: manual,
  ...extra,
});

let dir: string;
let clock: number;
const now = () => clock;
const stores: MemoryStore[] = [];
async function open(embedder: Embedder = new BagOfWordsEmbedder(), at = dir): Promise<MemoryStore> {
  const store = await MemoryStore.open(at, embedder, { now });
  stores.push(store);
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-memory-'));
  clock = Date.UTC(2026, 0, 1);
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('MemoryStore maintenance', () => {
  it('adds, gets, lists newest first and counts', async () => {
    const store = await open();
    const [a] = await store.add([mem('first fact', '/crew/a', { categories: ['x', 'x', 'y'], importance: 2 })]);
    clock += 1000;
    const [b, c] = await store.add([mem('second fact', '/crew/b'), mem('third fact', '/crew/a/agent/r', { private: true })]);

    expect(a!.id).toMatch(/^mem_[0-9a-z]+_[0-9a-f]+$/);
    expect(new Set([a!.id, b!.id, c!.id]).size).toBe(3);
    expect(a!.categories).toEqual(['x', 'y']);
    expect(a!.importance).toBe(1);
    expect(a!.createdAt).toBe(Date.UTC(2026, 0, 1));

    const got = await store.get(a!.id);
    expect(got).toEqual(a);
    expect(await store.get('mem_missing')).toBeUndefined();
    expect(await store.get("x' OR '1'='1")).toBeUndefined();

    expect((await store.list()).map((r) => r.content)).toEqual(['second fact', 'first fact']);
    expect((await store.list({ includePrivate: true })).map((r) => r.id).slice(-1)).toEqual([a!.id]);
    expect((await store.list({ includePrivate: true, scope: '/crew/a' })).map((r) => r.content).sort()).toEqual([
      'first fact',
      'third fact',
    ]);
    expect((await store.list({ categories: ['y'] })).map((r) => r.id)).toEqual([a!.id]);
    expect((await store.list({ includePrivate: true, limit: 1, offset: 1 })).length).toBe(1);
    expect(await store.count()).toBe(3);
  });

  it('update re-embeds new content, keeps history and never changes source', async () => {
    const store = await open();
    const [r] = await store.add([
      mem('The deploy runs on Fridays', '/crew/a', { source: { kind: 'task', runId: 'run1', taskId: 't1', agentRole: 'ops' } }),
    ]);
    clock += 5000;
    const updated = await store.update(r!.id, { content: 'The deploy runs on Mondays', importance: 0.9, reason: 'schedule changed' });
    expect(updated.content).toBe('The deploy runs on Mondays');
    expect(updated.history).toEqual([{ content: 'The deploy runs on Fridays', updatedAt: r!.updatedAt, reason: 'schedule changed' }]);
    expect(updated.updatedAt).toBe(clock);
    expect(updated.createdAt).toBe(r!.createdAt);
    expect(updated.source).toEqual({ kind: 'task', runId: 'run1', taskId: 't1', agentRole: 'ops' });

    const again = await store.update(r!.id, { categories: ['ops'], private: true, reason: 'tagging' });
    expect(again.history).toHaveLength(1); // content unchanged → no new revision
    expect(await store.get(r!.id)).toEqual(again);

    // the new content is what is searched (vector re-embedded, FTS sees it)
    const hits = await store.recall({ query: 'Mondays deploy', includePrivate: true });
    expect(hits[0]!.record.id).toBe(r!.id);
    expect(hits[0]!.semantic).toBeGreaterThan(0.6);
    await expect(store.update('mem_nope', { content: 'x', reason: 'r' })).rejects.toBeInstanceOf(MemoryNotFound);
  });

  it('forgets by id and by scope, and resets', async () => {
    const store = await open();
    const [a, , , d] = await store.add([
      mem('one', '/crew/x'),
      mem('two', '/crew/x/agent/writer'),
      mem('three', '/crew/xy'),
      mem('four', '/crew/z', { private: true }),
    ]);
    expect(await store.forget({ ids: [a!.id, 'mem_unknown'] })).toBe(1);
    expect(await store.forget({ scope: '/crew/x' })).toBe(1);
    expect((await store.list({ includePrivate: true })).map((r) => r.content).sort()).toEqual(['four', 'three']);
    expect(await store.forget({ scope: "/crew/x' OR '1'='1" })).toBe(0);
    expect(await store.forget({ ids: [d!.id] })).toBe(1);
    expect(await store.count()).toBe(1);
    await store.reset();
    expect(await store.count()).toBe(0);
    expect(await store.recall({ query: 'three' })).toEqual([]);
    // still usable after a reset
    await store.add([mem('five')]);
    expect(await store.count()).toBe(1);
  });

  it('keeps its data when reopened, and refuses another embedder', async () => {
    const store = await open();
    const [r] = await store.add([mem('solar panels face south')]);
    await store.update(r!.id, { content: 'solar panels face south-west', reason: 'edited by hand' });
    store.close();
    stores.splice(stores.indexOf(store), 1);

    const reopened = await open();
    expect(await reopened.count()).toBe(1);
    expect((await reopened.get(r!.id))?.history).toHaveLength(1);
    expect((await reopened.recall({ query: 'solar panels' }))[0]!.record.id).toBe(r!.id);

    const err = await MemoryStore.open(dir, new BagOfWordsEmbedder('other-embedder')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbedderMismatch);
    expect((err as EmbedderMismatch).message).toContain('test-bow-64');
    expect((err as EmbedderMismatch).message).toContain('other-embedder');
    expect(await MemoryStore.open(dir, new HashingEmbedder()).catch((e: unknown) => e)).toBeInstanceOf(EmbedderMismatch);
  });
});

describe('MemoryStore recall', () => {
  const corpus = [
    'The client prefers installing solar panels on south facing roofs',
    'Invoices must be paid within thirty days of delivery',
    'Use Python 3.12 for the data pipeline and pin dependencies',
    'The weekly report goes to the finance team every Monday',
    'Customer support tickets are answered within four hours',
  ];

  it('ranks the relevant record first for a paraphrase query (hashing embedder)', async () => {
    const store = await open(new HashingEmbedder());
    await store.add(corpus.map((c) => mem(c)));
    const hits = await store.recall({ query: 'which roof direction suits a solar panel install?' });
    expect(hits[0]!.record.content).toBe(corpus[0]);
    expect(hits[0]!.semantic).toBeGreaterThan(hits[1]!.semantic);
    expect(hits[0]!.reasons.some((r) => /^similar meaning \(0\.\d\d\)$/.test(r))).toBe(true);
    for (const h of hits) {
      expect(h.score).toBeGreaterThanOrEqual(0);
      expect(h.score).toBeLessThanOrEqual(1);
    }
  });

  it('finds an exact word through full-text search when vectors cannot tell records apart', async () => {
    const store = await open(new ConstantEmbedder());
    const fillers = Array.from({ length: 30 }, (_, i) => mem(`routine note number ${i} about nothing much`));
    await store.add(fillers.slice(0, 15));
    await store.add([mem('The reactor uses zephyrite shielding')]); // added after the FTS index exists
    await store.add(fillers.slice(15));
    const hits = await store.recall({ query: 'zephyrite', limit: 1 });
    expect(hits).toHaveLength(1);
    expect(hits[0]!.record.content).toBe('The reactor uses zephyrite shielding');
    expect(hits[0]!.reasons).toContain('matches words: "zephyrite"');
  });

  it('ranks the record with a rare exact word first (hashing embedder)', async () => {
    const store = await open(new HashingEmbedder());
    await store.add(corpus.map((c) => mem(c)));
    await store.add([mem('The reactor shielding uses zephyrite plates, ordered from Kestrel Metals')]);
    const hits = await store.recall({ query: 'zephyrite' });
    expect(hits[0]!.record.content).toContain('zephyrite');
    expect(hits[0]!.reasons).toContain('matches words: "zephyrite"');
    expect(hits.slice(1).every((h) => !h.reasons.some((r) => r.startsWith('matches words')))).toBe(true);
  });

  it('searches rows added after the FTS index, and folds them into the index once there are many', async () => {
    const store = await open(new ConstantEmbedder());
    expect(await store.ftsIndexStatus()).toBeUndefined();
    await store.add([mem('first row')]);
    expect(await store.ftsIndexStatus()).toEqual({ indexedRows: 1, unindexedRows: 0 });
    await store.add([mem('quokka sighting near the river')]);
    expect(await store.ftsIndexStatus()).toEqual({ indexedRows: 1, unindexedRows: 1 });
    expect((await store.recall({ query: 'quokka', limit: 1 }))[0]!.record.content).toContain('quokka');
    await store.add(Array.from({ length: OPTIMIZE_AFTER_UNINDEXED }, (_, i) => mem(`bulk row ${i} platypus${i}`)));
    expect(await store.ftsIndexStatus()).toEqual({ indexedRows: OPTIMIZE_AFTER_UNINDEXED + 2, unindexedRows: 0 });
    expect((await store.recall({ query: 'platypus7', limit: 1 }))[0]!.record.content).toBe('bulk row 7 platypus7');
    expect((await store.recall({ query: 'quokka', limit: 1 }))[0]!.record.content).toContain('quokka');
  });

  it('filters by scope prefix, including quotes in scopes, so filtered records never come back', async () => {
    const store = await open();
    await store.add([
      mem('alpha budget note', '/crew/x'),
      mem('alpha budget detail', '/crew/x/agent/writer'),
      mem('alpha budget other crew', '/crew/xy'),
      mem("alpha budget o'brien", "/crew/o'brien"),
      mem('alpha budget o', '/crew/o'),
    ]);
    const inX = await store.recall({ query: 'alpha budget', scope: '/crew/x', limit: 50 });
    expect(inX.map((h) => h.record.scope).sort()).toEqual(['/crew/x', '/crew/x/agent/writer']);
    const quoted = await store.recall({ query: 'alpha budget', scope: "/crew/o'brien", limit: 50 });
    expect(quoted.map((h) => h.record.scope)).toEqual(["/crew/o'brien"]);
    const odd = await store.recall({ query: `o'brien "alpha" AND ( budget:*`, scope: "/crew/o'brien" });
    expect(odd.map((h) => h.record.scope)).toEqual(["/crew/o'brien"]);
    const injected = await store.recall({ query: 'alpha budget', scope: "/crew/x') OR (1=1", limit: 50 });
    expect(injected).toEqual([]);
    expect(filterToWhere({ scope: "/a'b" })).toBe("(scope = '/a''b' OR (scope >= '/a''b/' AND scope < '/a''b0')) AND is_private = false");
    // The SQL filter alone (forget deletes by it, with no check in JS), at the edges of the range.
    await store.add(['/crew/x/ägent', '/crew/x0', '/crew/x0/a', '/crew/x.', '/crew/x-/a', '/crew/x//b'].map((scope) => mem('edge', scope)));
    expect(await store.forget({ scope: '/crew/x' })).toBe(4); // /crew/x, /crew/x/agent/writer, /crew/x/ägent, /crew/x//b
    expect((await store.list({ includePrivate: true })).map((r) => r.scope).sort()).toEqual(
      ['/crew/o', "/crew/o'brien", '/crew/x-/a', '/crew/x.', '/crew/x0', '/crew/x0/a', '/crew/xy'].sort(),
    );
  });

  it('filters by categories (any of) and leaves private records out unless asked', async () => {
    const store = await open();
    await store.add([
      mem('garden watering schedule', '/crew/a', { categories: ['garden'] }),
      mem('garden tools inventory', '/crew/a', { categories: ['tools', 'garden'] }),
      mem('garden secret key location', '/crew/a', { categories: ['"quoted"'], private: true }),
      mem('garden fence paint', '/crew/a', { categories: ['paint'] }),
    ]);
    const tools = await store.recall({ query: 'garden', categories: ['tools', 'paint'], limit: 50 });
    expect(tools.map((h) => h.record.content).sort()).toEqual(['garden fence paint', 'garden tools inventory']);
    const all = await store.recall({ query: 'garden secret key', limit: 50 });
    expect(all.map((h) => h.record.content)).not.toContain('garden secret key location');
    expect(all).toHaveLength(3);
    const withPrivate = await store.recall({ query: 'garden secret key', includePrivate: true, limit: 50 });
    expect(withPrivate[0]!.record.content).toBe('garden secret key location');
    const quotedCategory = await store.recall({ query: 'garden', categories: ['"quoted"'], includePrivate: true });
    expect(quotedCategory.map((h) => h.record.content)).toEqual(['garden secret key location']);
  });

  it('filters private records in the searches again once a write adds some (none before: the filter is left out)', async () => {
    const store = await open();
    await store.add([mem('harbour crane schedule for monday'), mem('office plants need water')]);
    expect((await store.recall({ query: 'harbour crane schedule', limit: 1, touch: false }))[0]!.record.content).toBe('harbour crane schedule for monday');
    // Private near-copies that would take every candidate slot (limit 1: 4 per search) if they were not filtered out.
    await store.add(Array.from({ length: 8 }, (_, i) => mem(`harbour crane schedule for monday private copy ${i}`, '/crew/a', { private: true })));
    const hits = await store.recall({ query: 'harbour crane schedule for monday private copy', limit: 1, touch: false });
    expect(hits.map((h) => h.record.content)).toEqual(['harbour crane schedule for monday']);
    await store.forget({ scope: '/crew/a' });
    await store.add([mem('harbour crane moved to tuesday')]);
    expect((await store.recall({ query: 'harbour crane', limit: 1, touch: false }))[0]!.record.content).toBe('harbour crane moved to tuesday');
  });

  it('recency breaks a semantic tie, and recall refreshes lastAccessedAt', async () => {
    const store = await open(new ConstantEmbedder());
    const [old] = await store.add([mem('meeting notes one')]);
    clock += 60 * DAY;
    const [fresh] = await store.add([mem('meeting notes two')]);
    clock += 3 * DAY;
    const hits = await store.recall({ query: 'anything' });
    expect(hits.map((h) => h.record.id)).toEqual([fresh!.id, old!.id]);
    expect(hits[0]!.recency).toBeCloseTo(Math.pow(0.5, 3 / 30), 6);
    expect(hits[1]!.recency).toBeCloseTo(Math.pow(0.5, 63 / 30), 6);
    expect(hits[0]!.reasons).toContain('recent (3 days)');
    expect((await store.get(old!.id))?.lastAccessedAt).toBe(clock);
    expect((await store.get(fresh!.id))?.updatedAt).toBe(Date.UTC(2026, 0, 1) + 60 * DAY);

    // both were just accessed, so recency now ties
    const again = await store.recall({ query: 'anything' });
    expect(again[0]!.recency).toBeCloseTo(1, 6);
    expect(again[1]!.recency).toBeCloseTo(1, 6);
  });

  it("writes recall's access times with the next write, at the end of a run, or on close, so they outlive the process", async () => {
    const store = await open(new ConstantEmbedder());
    const [a, b] = await store.add([mem('deploy checklist'), mem('deploy rollback plan')]);
    const stored = async (id: string) => {
      const db = await lancedb.connect(dir);
      const table = await db.openTable(MEMORY_TABLE);
      const [row] = await table.query().where(`id = '${id}'`).select(['last_accessed_at']).toArray();
      table.close();
      return Number(row.last_accessed_at);
    };
    clock += DAY;
    await store.recall({ query: 'deploy', limit: 1 });
    const touched = (await store.get(a!.id))!.lastAccessedAt === clock ? a : b;
    expect(await stored(touched!.id)).toBe(clock - DAY); // pending: not written by the recall itself
    await store.add([mem('unrelated note')]);
    expect(await stored(touched!.id)).toBe(clock);

    clock += DAY;
    await store.recall({ query: 'deploy', limit: 3 }); // all three
    await store.flush(); // what a run does when it ends
    expect(await stored(a!.id)).toBe(clock);

    clock += DAY;
    await store.recall({ query: 'deploy', limit: 3 });
    await store.close();
    expect(await stored(a!.id)).toBe(clock);
    const reopened = await open(new ConstantEmbedder());
    expect((await reopened.get(b!.id))?.lastAccessedAt).toBe(clock);
  });

  it('importance breaks a semantic tie, and weights are respected and normalised', async () => {
    const store = await open();
    const [low, high] = await store.add([
      mem('backup rotation policy', '/crew/a', { importance: 0.1 }),
      mem('backup rotation policy', '/crew/a', { importance: 0.9 }),
      mem('lunch menu on fridays', '/crew/a', { importance: 1 }),
    ]);
    const hits = await store.recall({ query: 'backup rotation policy', limit: 2 });
    expect(hits.map((h) => h.record.id)).toEqual([high!.id, low!.id]);
    expect(hits[0]!.reasons).toContain('important (0.9)');

    const byImportance = await store.recall({ query: 'backup rotation policy', weights: { semantic: 0, recency: 0, importance: 1 } });
    expect(byImportance[0]!.record.content).toBe('lunch menu on fridays');
    expect(byImportance[0]!.score).toBeCloseTo(1, 6);

    const semanticOnly = await store.recall({ query: 'backup rotation policy', weights: { semantic: 4, recency: 0, importance: 0 } });
    expect(semanticOnly[0]!.score).toBeCloseTo(semanticOnly[0]!.semantic, 6);
    expect(semanticOnly[0]!.semantic).toBeCloseTo(1, 3); // float16 vectors in the recall cache: within ~1e-4
    const defaults = hits[0];
    expect(defaults!.score).toBeCloseTo(0.5 * defaults!.semantic + 0.3 * defaults!.recency + 0.2 * defaults!.importance, 6);
  });

  it('caps the limit at 50 and defaults to 5', async () => {
    const store = await open(new ConstantEmbedder());
    await store.add(Array.from({ length: 60 }, (_, i) => mem(`item ${i}`)));
    expect(await store.recall({ query: 'item' })).toHaveLength(5);
    expect(await store.recall({ query: 'item', limit: 500 })).toHaveLength(50);
  });
});

describe('recall without touching', () => {
  it('leaves lastAccessedAt alone when asked (the memory browser searches without counting as a use)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewdeck-touch-'));
    let now = 1_000;
    const store = await MemoryStore.open(dir, new HashingEmbedder(), { now: () => now });
    try {
      const [rec] = await store.add([{ content: 'Tidal power is predictable', scope: '/crew/a', source: { kind: 'manual' } }]);
      now = 5_000;
      const [browsed] = await store.recall({ query: 'tidal power', touch: false });
      expect(browsed!.record.lastAccessedAt).toBe(1_000);
      const [used] = await store.recall({ query: 'tidal power' });
      expect(used!.record.lastAccessedAt).toBe(5_000);
      expect((await store.get(rec!.id))!.lastAccessedAt).toBe(5_000);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
