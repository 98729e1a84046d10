import { useEffect, useRef, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import type { DocumentEntry, HostRunSummary } from '../../shared/host-api';
import { Modal } from '../dialogs/Modal';
import { useDialogAction } from '../dialogs/useDialogAction';
import { host } from '../host/hostContext';
import { useDocumentStore } from '../stores/documentStore';
import { useRunStore } from '../stores/runStore';
import { useImportCrewAiStore } from '../dialogs/importCrewAi/importCrewAiStore';
import { useUiStore } from '../stores/uiStore';
import { useWorkspaceStore } from '../stores/workspaceStore';
import '../styles/sidebar.css';
import { FlowInbox } from './FlowInbox';
import { ConnectModelCallout } from './connect/ConnectModelCallout';
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
      <ConnectModelCallout />
      <section className="sidebar-section">
        <div className="sidebar-header">Crews &amp; flows</div>
        <NewCrew />
        <ul className="sidebar-list" data-testid="document-list">
          {documents.map((d) => (
            <DocumentItem key={d.path} entry={d} />
          ))}
          {documents.length === 0 && <li className="sidebar-item-sub" style={{ padding: '4px 8px' }}>No crews yet.</li>}
        </ul>
      </section>
      <section className="sidebar-section">
        <div className="sidebar-header">Memory</div>
        <ul className="sidebar-list">
          <MemoryItem />
        </ul>
      </section>
      <FlowInbox />
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

/** Opens the memory browser (a main view, like settings); pressed again, back to the canvas. */
function MemoryItem() {
  const open = useUiStore((s) => s.view === 'memory');
  return (
    <li>
      <button
        className="sidebar-item"
        aria-current={open}
        data-testid="open-memory"
        title="Browse, search and edit what the crews remember"
        onClick={() => useUiStore.getState().setView(open ? 'canvas' : 'memory')}
      >
        <span className="sidebar-dot" data-kind="memory" />
        <span className="sidebar-item-main">
          <div className="sidebar-item-title">Memory browser</div>
          <div className="sidebar-item-sub">{open ? 'Back to the canvas' : 'What the crews remember'}</div>
        </span>
      </button>
    </li>
  );
}

function NewCrew() {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'crew' | 'flow'>('crew');
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    try {
      const created = await host().invoke('documents.create', { kind, name: name.trim() });
      setName('');
      setError(undefined);
      await useWorkspaceStore.getState().refreshDocuments();
      void useDocumentStore.getState().open(created.path);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form className="sidebar-new" onSubmit={(e) => void submit(e)}>
      <select aria-label="New document kind" value={kind} onChange={(e) => setKind(e.target.value as 'crew' | 'flow')} data-testid="new-document-kind">
        <option value="crew">Crew</option>
        <option value="flow">Flow</option>
      </select>
      <input aria-label={`New ${kind} name`} placeholder={`New ${kind} name`} value={name} onChange={(e) => setName(e.target.value)} />
      <button className="btn" type="submit" disabled={!name.trim()}>
        Create
      </button>
      {error && <div className="banner-error">{error}</div>}
      <button className="sidebar-import" type="button" onClick={() => useImportCrewAiStore.getState().setOpen(true)} data-testid="open-import-crewai">
        Import a CrewAI project…
      </button>
    </form>
  );
}

function DocumentItem({ entry }: { entry: DocumentEntry }) {
  const current = useDocumentStore((s) => s.path === entry.path);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  if (renaming) return <RenameItem path={entry.path} onDone={() => setRenaming(false)} />;
  return (
    <li className="sidebar-row">
      <button
        className="sidebar-item"
        aria-current={current}
        data-testid="document-item"
        data-path={entry.path}
        onClick={() => void useDocumentStore.getState().open(entry.path)}
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
      <button className="btn ghost sidebar-row-action" aria-label={`Delete ${entry.path}`} title="Move to trash" onClick={() => setDeleting(true)}>
        ×
      </button>
      {deleting && createPortal(<DeleteDialog path={entry.path} onClose={() => setDeleting(false)} />, document.body)}
    </li>
  );
}

/** Renames a document in place: Enter (or leaving the field) renames, Escape cancels; a refusal shows under the field. */
function RenameItem({ path, onDone }: { path: string; onDone(): void }) {
  const [draft, setDraft] = useState(path);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Enter, Escape and the blur that may follow must not rename twice (or after a cancel).
  const settled = useRef(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (error) input.current?.focus();
  }, [error]);
  const finish = () => {
    settled.current = true;
    onDone();
  };
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const newPath = draft.trim();
    if (busy || settled.current) return;
    if (newPath === path || newPath === '') return finish();
    settled.current = true;
    setBusy(true);
    try {
      // The open document moves with its undo history; its pending edits are saved to the old name first.
      if (useDocumentStore.getState().path === path) await useDocumentStore.getState().renameTo(newPath);
      else await host().invoke('documents.rename', { path, newPath });
      void useWorkspaceStore.getState().refreshDocuments();
      finish();
    } catch (err) {
      settled.current = false;
      setBusy(false);
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <li>
      <form onSubmit={(e) => void submit(e)} className="sidebar-rename">
        <input
          aria-label={`New file name for ${path}`}
          ref={input}
          data-testid="rename-input"
          autoFocus
          value={draft}
          disabled={busy}
          aria-invalid={error !== undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(undefined);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              finish();
            }
          }}
          onBlur={() => {
            if (error === undefined) void submit();
          }}
        />
        {error && (
          <div className="sidebar-rename-error" role="alert" data-testid="rename-error">
            {error}
          </div>
        )}
      </form>
    </li>
  );
}

/** Confirms moving a document to the workspace trash; a refusal stays in the dialog. */
function DeleteDialog({ path, onClose }: { path: string; onClose(): void }) {
  const { busy, error, run: remove } = useDialogAction(async () => {
    if (useDocumentStore.getState().path === path) await useDocumentStore.getState().deleteDocument();
    else await host().invoke('documents.delete', { path });
    void useWorkspaceStore.getState().refreshDocuments();
  }, onClose);
  return (
    <Modal
      testId="delete-dialog"
      title="Move to trash?"
      subtitle={<code className="dialog-code">{path}</code>}
      width={440}
      onClose={busy ? undefined : onClose}
      footer={
        <>
          <span className="modal-foot-spacer" />
          <button className="btn" disabled={busy} onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary" data-testid="confirm-delete" disabled={busy} onClick={() => void remove()}>
            {busy ? 'Moving…' : 'Move to trash'}
          </button>
        </>
      }
    >
      <div className="dialog-hint">The file moves to the workspace trash (.crewdeck/trash), from where it can be restored by hand.</div>
      {error && (
        <div className="dialog-error" data-testid="delete-error">
          Could not delete: {error}
        </div>
      )}
    </Modal>
  );
}

function RunItem({ run }: { run: HostRunSummary }) {
  const current = useRunStore((s) => s.runId === run.id);
  const open = () => void useRunStore.getState().openRun(run.id, run.documentPath);
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
