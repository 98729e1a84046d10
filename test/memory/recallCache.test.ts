import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HashingEmbedder } from '../../runtime/memory/hashingEmbedder';
import { MemoryStore } from '../../runtime/memory/memoryStore';
import { RecallCache } from '../../runtime/memory/recallCache';
import { cosineSimilarity } from '../../runtime/memory/recallScore';

let seed = 11;
const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
const vector = (d: number) => Array.from({ length: d }, random);
const norm = (v: number[]) => Math.hypot(...v);

describe('RecallCache', () => {
  it('gives each id its row and a cosine similarity within 1e-3 of the exact one, growing as rows come', () => {
    const cache = new RecallCache(32, ["id"], 2);
    const vectors = new Map<string, number[]>();
    for (let i = 0; i < 50; i++) {
      vectors.set(`m${i}`, vector(32));
      cache.set(`m${i}`, { id: `m${i}`, content: `row ${i}` }, vectors.get(`m${i}`)!);
    }
    expect(cache.size).toBe(50);
    const q = vector(32);
    for (const [id, v] of vectors) {
      expect(Math.abs(cache.similarity(id, q, norm(q)) - cosineSimilarity(q, v))).toBeLessThan(1e-3);
    }
    expect(cache.row('m7')).toEqual({ id: 'm7', content: 'row 7' });
    expect(Number.isNaN(cache.similarity('nope', q, norm(q)))).toBe(true);
    expect(cache.row('nope')).toBeUndefined();
  });

  it('replaces a row and its vector in place', () => {
    const cache = new RecallCache(8);
    const q = [1, 0, 0, 0, 0, 0, 0, 0];
    cache.set('a', { id: 'a', content: 'old' }, q);
    cache.set('a', { id: 'a', content: 'new' }, [0, 1, 0, 0, 0, 0, 0, 0]);
    expect(cache.size).toBe(1);
    expect(cache.row('a')).toEqual({ id: 'a', content: 'new' });
    expect(cache.similarity('a', q, 1)).toBe(0);
    cache.patch('a', { last_accessed_at: 5 });
    expect(cache.row('a')).toEqual({ id: 'a', content: 'new', last_accessed_at: 5 });
  });

  it('deletes rows by predicate without mixing up the vectors of the rows that move', () => {
    const cache = new RecallCache(16);
    const vectors = Array.from({ length: 10 }, () => vector(16));
    vectors.forEach((v, i) => cache.set(`m${i}`, { id: `m${i}`, scope: i % 2 ? '/odd' : '/even' }, v));
    expect(cache.deleteWhere((_id, row) => row.scope === '/even')).toBe(5);
    expect(cache.size).toBe(5);
    const q = vector(16);
    for (let i = 0; i < 10; i++) {
      if (i % 2 === 0) expect(cache.row(`m${i}`)).toBeUndefined();
      else expect(Math.abs(cache.similarity(`m${i}`, q, norm(q)) - cosineSimilarity(q, vectors[i]!))).toBeLessThan(1e-3);
    }
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.row('m1')).toBeUndefined();
  });

  it('refuses a vector of another size, and scores a zero vector 0', () => {
    const cache = new RecallCache(4);
    expect(() => cache.set('a', { id: 'a' }, [1, 2, 3])).toThrow(/3-d vector in a 4-d recall cache/);
    cache.set('z', { id: 'z' }, [0, 0, 0, 0]);
    expect(cache.similarity('z', [1, 0, 0, 0], 1)).toBe(0);
  });
});

describe('MemoryStore recall with its cache', () => {
  let dir: string;
  let clock = Date.UTC(2026, 10, 1);
  const stores: MemoryStore[] = [];
  const open = async () => {
    const store = await MemoryStore.open(dir, new HashingEmbedder(), { now: () => clock });
    stores.push(store);
    return store;
  };
  const manual = { kind: 'manual' as const };
  const contents = async (store: MemoryStore, query: string, extra: object = {}) =>
    (await store.recall({ query, limit: 5, touch: false, ...extra })).map((m) => m.record.content);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'crewdeck-recall-cache-'));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const s of stores.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sees every write made after the first recall loaded the cache: add, update, forget, privacy, reset', async () => {
    const loads = vi.spyOn(RecallCache, 'load');
    const store = await open();
    const [alpha] = await store.add([{ content: 'the alpha report is due on friday', scope: '/crew/a', source: manual }]);
    expect(await contents(store, 'alpha report')).toEqual(['the alpha report is due on friday']); // loads the cache

    const [beta] = await store.add([{ content: 'the beta launch moved to march', scope: '/crew/b', source: manual }]);
    expect(await contents(store, 'beta launch')).toContain('the beta launch moved to march');

    await store.update(beta!.id, { content: 'the gamma launch moved to april', reason: 'renamed' });
    const gamma = await store.recall({ query: 'gamma launch april', limit: 1, touch: false });
    expect(gamma[0]!.record).toMatchObject({ id: beta!.id, content: 'the gamma launch moved to april' });
    expect(gamma[0]!.semantic).toBeCloseTo(0.9, 0);
    expect(gamma[0]!.record.history.map((h) => h.content)).toEqual(['the beta launch moved to march']);
    expect(await contents(store, 'beta launch march')).not.toContain('the beta launch moved to march');

    await store.update(alpha!.id, { private: true, reason: 'secret' });
    expect(await contents(store, 'alpha report')).not.toContain('the alpha report is due on friday');
    expect(await contents(store, 'alpha report', { includePrivate: true })).toContain('the alpha report is due on friday');

    await store.forget({ scope: '/crew/b' });
    expect(await contents(store, 'gamma launch april')).not.toContain('the gamma launch moved to april');
    await store.forget({ ids: [alpha!.id] });
    expect(await contents(store, 'alpha report', { includePrivate: true })).toEqual([]);

    await store.add([{ content: 'delta notes', scope: '/crew/a', source: manual }]);
    await store.reset();
    expect(await contents(store, 'delta notes')).toEqual([]);
    expect(loads).toHaveBeenCalledTimes(1); // kept up by the writes, never read again
  });

  it('keeps writes queued while the cache loads, and the access times recall writes', async () => {
    const store = await open();
    await store.add([{ content: 'first memory about invoices', scope: '/crew/a', source: manual }]);
    const recalling = store.recall({ query: 'invoices', limit: 5 }); // queues the cache's load…
    await new Promise((resolve) => setTimeout(resolve, 0));
    const adding = store.add([{ content: 'second memory about invoices', scope: '/crew/a', source: manual }]); // …and this write behind it
    expect((await recalling).map((m) => m.record.content)).toContain('first memory about invoices');
    await adding;
    expect((await contents(store, 'invoices')).sort()).toEqual(['first memory about invoices', 'second memory about invoices']);

    clock += 60_000;
    const touched = await store.recall({ query: 'first memory about invoices', limit: 1 });
    await store.flush(); // writes the access time into the table and the cache
    const reopenedView = await store.recall({ query: 'first memory about invoices', limit: 1, touch: false });
    expect(reopenedView[0]!.record.id).toBe(touched[0]!.record.id);
    expect(reopenedView[0]!.record.lastAccessedAt).toBe(clock);
    expect((await store.get(touched[0]!.record.id))?.lastAccessedAt).toBe(clock);
  });

  it("reads another process's added and changed rows once this store writes (the recall that meets them reads them in), without loading the cache again", async () => {
    const loads = vi.spyOn(RecallCache, 'load');
    const mine = await open();
    const [x] = await mine.add([{ content: 'the deploy key lives in the vault', scope: '/crew/a', source: manual }]);
    expect(await contents(mine, 'deploy key vault')).toEqual(['the deploy key lives in the vault']);

    const other = await open(); // another handle on the same table, as another process has
    await other.add([{ content: 'the other process wrote about penguins', scope: '/crew/a', source: manual }]);
    clock += 1000;
    await other.update(x!.id, { content: 'the deploy key lives in the HSM', importance: 0.9, categories: ['ops'], private: true, reason: 'moved' });
    // This handle sees the other's rows once it writes itself (LanceDB reads stay on the handle's version until then).
    await mine.add([{ content: 'one more note', scope: '/crew/a', source: manual }]);
    expect(await contents(mine, 'penguins', { limit: 1 })).toEqual(['the other process wrote about penguins']);
    const [moved] = await mine.recall({ query: 'the deploy key lives in the HSM', limit: 1, touch: false, includePrivate: true, categories: ['ops'] });
    expect(moved!.record).toMatchObject({ id: x!.id, content: 'the deploy key lives in the HSM', importance: 0.9, categories: ['ops'], private: true });
    expect(moved!.semantic).toBeGreaterThan(0.999); // the new content's vector, not the old one's
    expect(await contents(mine, 'deploy key')).not.toContain('the deploy key lives in the HSM'); // private now
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it("an access-time flush of a row another process changed brings that process's content into the cache", async () => {
    const mine = await open();
    const [x] = await mine.add([
      { content: 'the deploy key lives in the vault', scope: '/crew/a', source: manual },
      { content: 'lunch is at noon on fridays', scope: '/crew/a', source: manual },
    ]);
    expect(await mine.recall({ query: 'deploy key vault', limit: 1 })).toHaveLength(1); // loads the cache; x's access time is pending
    const other = await open();
    clock += 1000;
    await other.update(x!.id, { content: 'the deploy key moved to the hardware token', importance: 0.95, reason: 'moved' });
    clock += 1000;
    await mine.flush(); // rewrites x's row (with the other's content) to store the access time
    const [moved] = await mine.recall({ query: 'the deploy key moved to the hardware token', limit: 1, touch: false });
    expect(moved!.record).toMatchObject({ id: x!.id, content: 'the deploy key moved to the hardware token', importance: 0.95 });
    expect(moved!.semantic).toBeGreaterThan(0.999);
  });

  /** Holds one of the store's searches (its `toArrow`) until `gate` resolves. */
  const holdSearch = (store: MemoryStore, which: 'fullTextSearch' | 'nearestTo', gate: Promise<void>) => {
    const table = (store as unknown as { table: { query: () => Record<string, (...a: unknown[]) => unknown> } }).table;
    const query = table.query.bind(table);
    table.query = () => {
      const q = query();
      const search = q[which]!.bind(q);
      q[which] = (...a: unknown[]) => {
        const s = search(...a) as { toArrow: () => Promise<unknown> };
        const toArrow = s.toArrow.bind(s);
        s.toArrow = async () => {
          const result = await toArrow();
          await gate;
          return result;
        };
        return s;
      };
      return q;
    };
  };

  for (const which of ['fullTextSearch', 'nearestTo'] as const) {
    it(`leaves out a record forgotten while recall's ${which === 'nearestTo' ? 'vector' : 'full-text'} search runs, without failing or loading the cache again`, async () => {
      const loads = vi.spyOn(RecallCache, 'load');
      const store = await open();
      await store.add([
        { content: 'deploy key in vault', scope: '/a', source: manual },
        { content: 'lunch menu on fridays', scope: '/b', source: manual },
      ]);
      await store.recall({ query: 'deploy', touch: false }); // loads the cache
      let release!: () => void;
      holdSearch(store, which, new Promise<void>((resolve) => (release = resolve)));
      const recalling = store.recall({ query: 'deploy key vault lunch', touch: false });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await store.forget({ scope: '/a' })).toBe(1);
      release();
      expect((await recalling).map((m) => m.record.content)).toEqual(['lunch menu on fridays']);
      expect(loads).toHaveBeenCalledTimes(1);
    });
  }

  it('closes the table only once a recall called just before is done', async () => {
    const store = await open();
    await store.add([{ content: 'closing time notes', scope: '/a', source: manual }]);
    const recalling = store.recall({ query: 'closing time', touch: false });
    const closing = store.close();
    expect((await recalling).map((m) => m.record.content)).toEqual(['closing time notes']);
    await closing;
  });

  it('scores vectors with components beyond float16 range', async () => {
    const vectors: Record<string, number[]> = { near: [1e5, 1, 0, 0, 0, 0, 0, 0], far: [-1e5, 1e5, 0, 0, 0, 0, 0, 0], query: [1, 0, 0, 0, 0, 0, 0, 0] };
    const embedder = { id: 'test-big-8', dimensions: 8, embed: async (texts: string[]) => texts.map((t) => vectors[t.split(' ')[0]!] ?? vectors.query!) };
    const store = await MemoryStore.open(dir, embedder, { now: () => clock });
    stores.push(store);
    await store.add([
      { content: 'near thing', scope: '/a', source: manual },
      { content: 'far thing', scope: '/a', source: manual },
    ]);
    const hits = await store.recall({ query: 'query', limit: 5, touch: false });
    expect(hits.map((h) => [h.record.content, Number(h.semantic.toFixed(3))])).toEqual([
      ['near thing', 1],
      ['far thing', 0],
    ]);
  });

  it('treats a NUL in a scope the same in the table and in the cache (dropped)', async () => {
    const loads = vi.spyOn(RecallCache, 'load');
    const store = await open();
    const [odd] = await store.add([{ content: 'a note in an odd scope', scope: '/a\u0000b', source: manual }]);
    await store.add([{ content: 'a note in scope ab', scope: '/ab', source: manual }, { content: 'a note in scope a', scope: '/a', source: manual }]);
    expect(odd!.scope).toBe('/ab');
    expect((await store.recall({ query: 'note', limit: 5, touch: false })).length).toBe(3); // loads the cache
    expect(await store.forget({ scope: '/a\u0000b' })).toBe(2);
    expect(await contents(store, 'note')).toEqual(['a note in scope a']);
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it('returns records the caller can change without changing what the next recall returns', async () => {
    const store = await open();
    await store.add([{ content: 'the budget is fixed', scope: '/crew/a', categories: ['fact'], source: manual }]);
    const [first] = await store.recall({ query: 'budget', limit: 1, touch: false });
    first!.record.content = 'changed by the caller';
    first!.record.categories.push('mutated');
    const [again] = await store.recall({ query: 'budget', limit: 1, touch: false });
    expect(again!.record).toMatchObject({ content: 'the budget is fixed', categories: ['fact'] });
  });
});
