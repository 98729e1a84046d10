import { create } from 'zustand';
import type { HostMemoryMatch, HostMemoryRecord, HostRequest } from '../../shared/host-api';
import { host } from '../host/hostContext';

export const MEMORY_PAGE_SIZE = 100;
export const MEMORY_SEARCH_LIMIT = 50;

export interface MemoryFilters {
  /** This scope and the scopes below it. */
  scope?: string;
  category?: string;
  /** Only memories written by this run. */
  runId?: string;
  includePrivate: boolean;
}

/**
 * The memory browser (SPEC §10): one page of the workspace's memories under the filters, or — while
 * there is a query — the recall preview for it. Refreshes on the host's `memory.changed` notices.
 */
export interface MemoryState {
  filters: MemoryFilters;
  /** The search box; a non-empty query shows `matches` instead of the page. */
  query: string;
  records: HostMemoryRecord[];
  total: number;
  offset: number;
  matches: HostMemoryMatch[];
  scopes: { scope: string; count: number }[];
  loading: boolean;
  error?: string;

  /** Subscribes to `memory.changed` once; returns the unsubscribe function. */
  attach(): () => void;
  /** Reloads what is shown (the page or the search) and the scopes. */
  refresh(): Promise<void>;
  setFilters(filters: Partial<MemoryFilters>): Promise<void>;
  setQuery(query: string): Promise<void>;
  setOffset(offset: number): Promise<void>;
  add(request: HostRequest<'memory.add'>): Promise<HostMemoryRecord>;
  update(request: HostRequest<'memory.update'>): Promise<HostMemoryRecord>;
  forget(ids: string[]): Promise<number>;
  resetScope(scope: string): Promise<number>;
}

let detach: (() => void) | undefined;
/** Answers to older requests are dropped: the latest query or filter wins. */
let generation = 0;

export const useMemoryStore = create<MemoryState>()((set, get) => ({
  filters: { includePrivate: true },
  query: '',
  records: [],
  total: 0,
  offset: 0,
  matches: [],
  scopes: [],
  loading: false,

  attach() {
    if (detach) return detach;
    const unsubscribe = host().subscribe((push) => {
      if (push.kind === 'memory.changed') void get().refresh();
    });
    detach = () => {
      unsubscribe();
      detach = undefined;
    };
    return detach;
  },

  async refresh() {
    const mine = ++generation;
    const { filters, query, offset } = get();
    set({ loading: true });
    try {
      const scopesP = host().invoke('memory.scopes', {});
      if (query.trim()) {
        const { matches } = await host().invoke('memory.search', {
          query: query.trim(),
          scope: filters.scope,
          categories: filters.category ? [filters.category] : undefined,
          includePrivate: filters.includePrivate,
          limit: MEMORY_SEARCH_LIMIT,
        });
        const shown = filters.runId ? matches.filter((m) => m.record.source.runId === filters.runId) : matches;
        const { scopes } = await scopesP;
        if (mine === generation) set({ matches: shown, scopes, loading: false, error: undefined });
      } else {
        const page = await host().invoke('memory.list', {
          scope: filters.scope,
          category: filters.category,
          runId: filters.runId,
          includePrivate: filters.includePrivate,
          limit: MEMORY_PAGE_SIZE,
          offset,
        });
        const { scopes } = await scopesP;
        if (mine !== generation) return;
        // A page emptied by deletions falls back to the last page that has records.
        if (page.records.length === 0 && offset > 0 && page.total > 0) {
          set({ offset: Math.max(0, Math.floor((page.total - 1) / MEMORY_PAGE_SIZE) * MEMORY_PAGE_SIZE) });
          return get().refresh();
        }
        set({ records: page.records, total: page.total, scopes, loading: false, error: undefined });
      }
    } catch (error) {
      if (mine === generation) set({ loading: false, error: error instanceof Error ? error.message : String(error) });
    }
  },

  async setFilters(filters) {
    set({ filters: { ...get().filters, ...filters }, offset: 0 });
    await get().refresh();
  },

  async setQuery(query) {
    set({ query, matches: query.trim() ? get().matches : [] });
    await get().refresh();
  },

  async setOffset(offset) {
    set({ offset: Math.max(0, offset) });
    await get().refresh();
  },

  async add(request) {
    const { record } = await host().invoke('memory.add', request);
    await get().refresh();
    return record;
  },

  async update(request) {
    const { record } = await host().invoke('memory.update', request);
    // Shown at once; the refresh the host's notice causes brings the rest.
    set((s) => ({
      records: s.records.map((r) => (r.id === record.id ? record : r)),
      matches: s.matches.map((m) => (m.record.id === record.id ? { ...m, record } : m)),
    }));
    return record;
  },

  async forget(ids) {
    const { removed } = await host().invoke('memory.forget', { ids });
    const gone = new Set(ids);
    set((s) => ({
      records: s.records.filter((r) => !gone.has(r.id)),
      total: Math.max(0, s.total - removed),
      matches: s.matches.filter((m) => !gone.has(m.record.id)),
    }));
    return removed;
  },

  async resetScope(scope) {
    const { removed } = await host().invoke('memory.reset', { scope });
    await get().refresh();
    return removed;
  },
}));

/** How many memories a reset of `scope` removes: the scope's own and those below it. */
export function countInScope(scopes: { scope: string; count: number }[], scope: string): number {
  if (scope === '/') return scopes.reduce((n, s) => n + s.count, 0);
  return scopes.filter((s) => s.scope === scope || s.scope.startsWith(`${scope}/`)).reduce((n, s) => n + s.count, 0);
}
