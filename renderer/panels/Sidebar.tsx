import { useState, type FormEvent } from 'react';
import type { DocumentEntry, HostRunSummary } from '../../shared/host-api';
import { host } from '../host/hostContext';
import { useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';
import { useWorkspaceStore } from '../stores/workspaceStore';
import { formatDuration, formatRelativeTime } from './formatTime';

/** Workspace sidebar: the crews in the folder, a new-crew box, and the latest runs. */
export function Sidebar() {
  const info = useWorkspaceStore((s) => s.info);
  const documents = useWorkspaceStore((s) => s.documents);
  const runs = useRunStore((s) => s.runs);
  const error = useWorkspaceStore((s) => s.error);
  return (
    <aside className="sidebar" aria-label="Workspace">
      <div className="sidebar-workspace" title={info?.path}>
        <div className="sidebar-workspace-name">{info?.name ?? 'Workspace'}</div>
        <div className="sidebar-workspace-path">{info?.path}</div>
      </div>
      {error && <div className="banner-error">{error}</div>}
      <section className="sidebar-section">
        <div className="sidebar-header">Crews</div>
        <NewCrew />
        <ul className="sidebar-list" data-testid="document-list">
          {documents.map((d) => (
            <DocumentItem key={d.path} entry={d} />
          ))}
          {documents.length === 0 && <li className="sidebar-item-sub" style={{ padding: '4px 8px' }}>No crews yet.</li>}
        </ul>
      </section>
      <section className="sidebar-section grow">
        <div className="sidebar-header">Recent runs</div>
        <ul className="sidebar-list" data-testid="recent-runs">
          {runs.slice(0, 30).map((r) => (
            <RunItem key={r.id} run={r} />
          ))}
          {runs.length === 0 && <li className="sidebar-item-sub" style={{ padding: '4px 8px' }}>No runs yet.</li>}
        </ul>
      </section>
    </aside>
  );
}

function NewCrew() {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    try {
      const created = await host().invoke('documents.create', { kind: 'crew', name: name.trim() });
      setName('');
      setError(undefined);
      await useWorkspaceStore.getState().refreshDocuments();
      useUiStore.getState().openDocument(created.path);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form className="sidebar-new" onSubmit={submit}>
      <input aria-label="New crew name" placeholder="New crew name" value={name} onChange={(e) => setName(e.target.value)} />
      <button className="btn" type="submit" disabled={!name.trim()}>
        Create
      </button>
      {error && <div className="banner-error">{error}</div>}
    </form>
  );
}

function DocumentItem({ entry }: { entry: DocumentEntry }) {
  const current = useUiStore((s) => s.documentPath === entry.path);
  const [renaming, setRenaming] = useState(false);
  const [draft, setDraft] = useState(entry.path);
  const rename = async (e: FormEvent) => {
    e.preventDefault();
    setRenaming(false);
    if (draft === entry.path) return;
    try {
      await host().invoke('documents.rename', { path: entry.path, newPath: draft });
      if (current) useUiStore.getState().openDocument(draft);
    } catch (err) {
      alert((err as Error).message);
      setDraft(entry.path);
    }
  };
  const remove = async () => {
    if (!confirm(`Move ${entry.path} to the workspace trash (.crewdeck/trash)?`)) return;
    await host().invoke('documents.delete', { path: entry.path });
    if (current) useUiStore.getState().openDocument(undefined);
  };
  if (renaming) {
    return (
      <li>
        <form onSubmit={rename} className="sidebar-new">
          <input aria-label="New file name" autoFocus value={draft} onChange={(e) => setDraft(e.target.value)} onBlur={rename} />
        </form>
      </li>
    );
  }
  return (
    <li className="sidebar-row">
      <button
        className="sidebar-item"
        aria-current={current}
        data-testid="document-item"
        data-path={entry.path}
        onClick={() => useUiStore.getState().openDocument(entry.path)}
        onDoubleClick={() => setRenaming(true)}
        title={`${entry.path} — double-click to rename`}
      >
        <span className="sidebar-dot" data-kind={entry.kind} />
        <span className="sidebar-item-main">
          <div className="sidebar-item-title">{entry.name}</div>
          <div className="sidebar-item-sub">{entry.path}</div>
        </span>
        {entry.problemCount > 0 && (
          <span className="problem-count" title={`${entry.problemCount} problem(s)`}>
            {entry.problemCount}
          </span>
        )}
      </button>
      <button className="btn ghost sidebar-row-action" aria-label={`Delete ${entry.path}`} title="Move to trash" onClick={remove}>
        ×
      </button>
    </li>
  );
}

function RunItem({ run }: { run: HostRunSummary }) {
  const current = useUiStore((s) => s.runId === run.id);
  const open = () => {
    if (run.documentPath && useUiStore.getState().documentPath !== run.documentPath) useUiStore.getState().openDocument(run.documentPath);
    void useRunStore.getState().show(run.id);
  };
  return (
    <li>
      <button className="sidebar-item" aria-current={current} data-testid="recent-run" data-run-id={run.id} data-status={run.status} onClick={open}>
        <span className="sidebar-dot" data-status={run.status} />
        <span className="sidebar-item-main">
          <div className="sidebar-item-title">{run.name}</div>
          <div className="sidebar-item-sub">
            {run.status} · {formatRelativeTime(run.startedAt)}
            {run.durationMs !== undefined ? ` · ${formatDuration(run.durationMs)}` : ''}
            {run.tokenUsage.totalTokens ? ` · ${run.tokenUsage.totalTokens.toLocaleString()} tok` : ''}
          </div>
        </span>
      </button>
    </li>
  );
}
