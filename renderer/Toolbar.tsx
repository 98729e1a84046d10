import { PendingRequestsPill } from './dialogs/PendingRequestsPill';
import { StubsReachedBadge } from './panels/StubsReachedBadge';
import { PublishTeamButton } from './dialogs/PublishTeamDialog';
import { crewOfDocument } from './panels/training/crewOfDocument';
import { selectCanRedo, selectCanUndo, useDocumentStore } from './stores/documentStore';
import { selectShownStatus, useRunStore } from './stores/runStore';
import { useTestStore } from './stores/testStore';
import { useTrainingStore } from './stores/trainingStore';
import { useUiStore } from './stores/uiStore';

const SAVE_LABEL = { saved: 'Saved', saving: 'Saving…', unsaved: 'Unsaved changes', error: 'Not saved' } as const;

/** Document title and save state, undo/redo, run/stop, theme and settings. */
export function Toolbar() {
  const path = useDocumentStore((s) => s.path);
  const view = useUiStore((s) => s.view);
  const theme = useUiStore((s) => s.theme);
  const name = useDocumentStore((s) => (s.doc as { name?: unknown } | undefined)?.name);
  const saveState = useDocumentStore((s) => s.saveState);
  const saveError = useDocumentStore((s) => s.saveError);
  const problemCount = useDocumentStore((s) => s.problems.length);
  const canUndo = useDocumentStore(selectCanUndo);
  const canRedo = useDocumentStore(selectCanRedo);
  const runStatus = useRunStore(selectShownStatus);
  const runId = useRunStore((s) => s.runId);
  const running = runStatus === 'running';
  const ui = useUiStore.getState;
  const isCrew = useDocumentStore((s) => crewOfDocument(s.doc) !== undefined);

  return (
    <header className="toolbar">
      <h1 className="toolbar-brand">
        <span className="toolbar-logo" aria-hidden />
        Crewdeck
      </h1>
      <div className="toolbar-doc">
        {path && (
          <>
            <span className="toolbar-doc-name" title={typeof name === 'string' && name ? name : path}>
              {typeof name === 'string' && name ? name : path}
            </span>
            <span className="toolbar-doc-path" title={path}>
              {path}
            </span>
            <span className="save-state" data-state={saveState} data-testid="save-state" title={saveError}>
              {SAVE_LABEL[saveState]}
              {problemCount > 0 ? ` · ${problemCount} problem${problemCount === 1 ? '' : 's'}` : ''}
            </span>
          </>
        )}
      </div>
      <div className="toolbar-group">
        <button className="btn ghost" aria-label="Undo" title="Undo (Ctrl+Z)" disabled={!canUndo} onClick={() => useDocumentStore.getState().undo()}>
          ↶
        </button>
        <button className="btn ghost" aria-label="Redo" title="Redo (Ctrl+Shift+Z)" disabled={!canRedo} onClick={() => useDocumentStore.getState().redo()}>
          ↷
        </button>
        <span className="toolbar-sep" />
        <PendingRequestsPill />
        {runStatus && (
          <span className="run-badge" data-status={runStatus} data-run-id={runId} data-testid="run-status">
            {runStatus}
          </span>
        )}
        <StubsReachedBadge testId="run-stubs" />
        {running ? (
          <button className="btn danger" data-testid="stop-run" onClick={() => void useRunStore.getState().cancel()}>
            ■ Stop
          </button>
        ) : (
          <button
            className="btn primary"
            data-testid="run-crew"
            disabled={!path || problemCount > 0}
            title={problemCount > 0 ? 'Fix the problems first' : 'Run this crew'}
            onClick={() => ui().setRunDialogOpen(true)}
          >
            ▶ Run
          </button>
        )}
        {path && isCrew && (
          <>
            <button className="btn" data-testid="train-crew" disabled={problemCount > 0} title="Train this crew with your feedback on every task" onClick={() => useTrainingStore.getState().setDialogOpen(true)}>
              Train…
            </button>
            <button className="btn" data-testid="test-crew" disabled={problemCount > 0} title="Run this crew N times and score every task" onClick={() => useTestStore.getState().setDialogOpen(true)}>
              Test…
            </button>
            <div className="toolbar-views" role="group" aria-label="Crew view">
              {(['canvas', 'training', 'tests'] as const).map((v) => (
                <button key={v} className="btn ghost toolbar-view" data-testid={`view-${v}`} aria-pressed={view === v} onClick={() => ui().setView(v)}>
                  {v === 'canvas' ? 'Canvas' : v === 'training' ? 'Training' : 'Tests'}
                </button>
              ))}
            </div>
          </>
        )}
        <PublishTeamButton />
        <span className="toolbar-sep" />
        <button className="btn ghost" aria-label="Toggle theme" title="Dark / light" onClick={() => ui().setTheme(theme === 'dark' ? 'light' : 'dark')}>
          {theme === 'dark' ? '☀' : '☾'}
        </button>
        <button
          className="btn ghost"
          aria-pressed={view === 'settings'}
          data-testid="open-settings"
          onClick={() => ui().setView(view === 'settings' ? 'canvas' : 'settings')}
        >
          {view === 'settings' ? 'Back to canvas' : 'Settings'}
        </button>
      </div>
    </header>
  );
}
