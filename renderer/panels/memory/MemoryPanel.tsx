import { useEffect, useState } from 'react';
import type { HostMemoryRecord } from '../../../shared/host-api';
import { MEMORY_PAGE_SIZE, useMemoryStore } from '../../stores/memoryStore';
import { useRunStore } from '../../stores/runStore';
import { useUiStore } from '../../stores/uiStore';
import '../../styles/memory.css';
import { MemoryAddDialog } from './MemoryAddDialog';
import { MemoryDeleteDialog, MemoryResetDialog } from './MemoryConfirmDialogs';
import { MemoryEditDialog } from './MemoryEditDialog';
import { MemoryTable } from './MemoryTable';

type Dialog = { kind: 'add' } | { kind: 'edit'; record: HostMemoryRecord } | { kind: 'delete'; record: HostMemoryRecord } | { kind: 'reset'; scope: string };

/**
 * The memory browser (SPEC §10): the workspace's memories in a paged table, a search box that shows
 * the recall preview (score, its parts and reasons), filters by scope, category and source run, and
 * add / edit (with history) / delete / reset-a-scope. A memory written by a run links to it.
 */
export function MemoryPanel() {
  const filters = useMemoryStore((s) => s.filters);
  const query = useMemoryStore((s) => s.query);
  const records = useMemoryStore((s) => s.records);
  const matches = useMemoryStore((s) => s.matches);
  const total = useMemoryStore((s) => s.total);
  const offset = useMemoryStore((s) => s.offset);
  const scopes = useMemoryStore((s) => s.scopes);
  const loading = useMemoryStore((s) => s.loading);
  const error = useMemoryStore((s) => s.error);
  const runs = useRunStore((s) => s.runs);
  const [draft, setDraft] = useState(query);
  const [dialog, setDialog] = useState<Dialog>();
  const [categoryDraft, setCategoryDraft] = useState(filters.category ?? '');

  useEffect(() => {
    const detach = useMemoryStore.getState().attach();
    void useMemoryStore.getState().refresh();
    return detach;
  }, []);

  // Searching as one types, a moment after the last key.
  useEffect(() => {
    if (draft === useMemoryStore.getState().query) return;
    const timer = setTimeout(() => void useMemoryStore.getState().setQuery(draft), 250);
    return () => clearTimeout(timer);
  }, [draft]);

  // Someone else (the trace's "show in memory browser") may set the query.
  useEffect(() => setDraft(query), [query]);

  const store = useMemoryStore.getState;
  const searching = query.trim() !== '';
  const rows = searching ? matches.map((m) => ({ record: m.record, match: m })) : records.map((record) => ({ record }));
  const resetScope = filters.scope ?? '/';

  return (
    <div className="memory-panel" data-testid="memory-panel">
      <header className="memory-head">
        <div className="memory-title">
          <h1>Memory</h1>
          <span className="memory-count" data-testid="memory-count">
            {searching ? `${matches.length} match${matches.length === 1 ? '' : 'es'}` : `${total.toLocaleString('en-US')} memor${total === 1 ? 'y' : 'ies'}`}
          </span>
          {loading && <span className="memory-loading">loading…</span>}
        </div>
        <div className="memory-actions">
          <button className="btn primary" data-testid="memory-add" onClick={() => setDialog({ kind: 'add' })}>
            + Add memory
          </button>
          <button className="btn danger" data-testid="memory-reset" onClick={() => setDialog({ kind: 'reset', scope: resetScope })}>
            {resetScope === '/' ? 'Reset all…' : 'Reset scope…'}
          </button>
          <button className="btn ghost" aria-label="Back to the canvas" onClick={() => useUiStore.getState().setView('canvas')}>
            ×
          </button>
        </div>
      </header>

      <div className="memory-toolbar">
        <input
          className="memory-search"
          type="search"
          aria-label="Search memories"
          placeholder="Search: the recall a run would do, with scores and reasons"
          data-testid="memory-search"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void store().setQuery(draft);
          }}
        />
        <select aria-label="Scope" data-testid="memory-filter-scope" value={filters.scope ?? ''} onChange={(e) => void store().setFilters({ scope: e.target.value || undefined })}>
          <option value="">All scopes</option>
          {scopes.map((s) => (
            <option key={s.scope} value={s.scope}>
              {s.scope} ({s.count})
            </option>
          ))}
        </select>
        <input
          className="memory-category"
          aria-label="Category"
          placeholder="Category"
          data-testid="memory-filter-category"
          value={categoryDraft}
          onChange={(e) => setCategoryDraft(e.target.value)}
          onBlur={() => void store().setFilters({ category: categoryDraft.trim() || undefined })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void store().setFilters({ category: categoryDraft.trim() || undefined });
          }}
        />
        <select aria-label="Source run" data-testid="memory-filter-run" value={filters.runId ?? ''} onChange={(e) => void store().setFilters({ runId: e.target.value || undefined })}>
          <option value="">Any source</option>
          {filters.runId && !runs.some((r) => r.id === filters.runId) && <option value={filters.runId}>{filters.runId}</option>}
          {runs.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name} · {r.id}
            </option>
          ))}
        </select>
        <label className="memory-private-toggle">
          <input type="checkbox" data-testid="memory-filter-private" checked={filters.includePrivate} onChange={(e) => void store().setFilters({ includePrivate: e.target.checked })} />
          Show private
        </label>
      </div>

      {error && (
        <div className="memory-error" role="alert" data-testid="memory-error">
          {error}
        </div>
      )}

      <MemoryTable
        rows={rows}
        searching={searching}
        onEdit={(record) => setDialog({ kind: 'edit', record })}
        onDelete={(record) => setDialog({ kind: 'delete', record })}
      />

      {!searching && total > MEMORY_PAGE_SIZE && (
        <footer className="memory-pager" data-testid="memory-pager">
          <button className="btn small" disabled={offset === 0} onClick={() => void store().setOffset(offset - MEMORY_PAGE_SIZE)}>
            ‹ Newer
          </button>
          <span>
            {(offset + 1).toLocaleString('en-US')}–{Math.min(total, offset + MEMORY_PAGE_SIZE).toLocaleString('en-US')} of {total.toLocaleString('en-US')}
          </span>
          <button className="btn small" disabled={offset + MEMORY_PAGE_SIZE >= total} onClick={() => void store().setOffset(offset + MEMORY_PAGE_SIZE)}>
            Older ›
          </button>
        </footer>
      )}

      {dialog?.kind === 'add' && <MemoryAddDialog defaultScope={filters.scope} scopes={scopes.map((s) => s.scope)} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'edit' && <MemoryEditDialog record={dialog.record} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'delete' && <MemoryDeleteDialog record={dialog.record} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'reset' && <MemoryResetDialog scope={dialog.scope} onClose={() => setDialog(undefined)} />}
    </div>
  );
}
