import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { CrewCanvas } from './canvas/CrewCanvas';
import { Palette } from './canvas/Palette';
import { HumanDialogs } from './dialogs/HumanDialogs';
import { ImportCrewAiDialog } from './dialogs/importCrewAi/ImportCrewAiDialog';
import { RunInputsDialog } from './dialogs/RunInputsDialog';
import { ConnectionBanner } from './panels/ConnectionBanner';
import { Inspector } from './panels/Inspector';
import { MemoryPanel } from './panels/memory/MemoryPanel';
import { OutputPanel } from './panels/OutputPanel';
import { RunsPanel } from './panels/RunsPanel';
import { SaveErrorBanner } from './panels/SaveErrorBanner';
import { SettingsPanel } from './panels/SettingsPanel';
import { Sidebar } from './panels/Sidebar';
import { TestDialog } from './panels/testing/TestDialog';
import { TestPanel } from './panels/testing/TestPanel';
import { TrainDialog } from './panels/training/TrainDialog';
import { TrainingPanel } from './panels/training/TrainingPanel';
import { TracePanel } from './panels/TracePanel';
import { useDocumentStore } from './stores/documentStore';
import { useRunStore } from './stores/runStore';
import { useTrainingStore } from './stores/trainingStore';
import { useUiStore, type BottomTab } from './stores/uiStore';
import { useWorkspaceStore } from './stores/workspaceStore';
import { Toolbar } from './Toolbar';
import { useMenuCommands } from './useMenuCommands';

const TABS: { id: BottomTab; label: string }[] = [
  { id: 'trace', label: 'Trace' },
  { id: 'output', label: 'Output' },
  { id: 'runs', label: 'Runs' },
];

/**
 * The app frame (SPEC §10): toolbar, workspace sidebar, canvas with palette and inspector, the run
 * panel at the bottom (trace, output, runs history), dialogs on top.
 */
export function App() {
  const theme = useUiStore((s) => s.theme);
  const view = useUiStore((s) => s.view);
  const documentPath = useUiStore((s) => s.documentPath);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  useEffect(() => {
    void useWorkspaceStore.getState().attach();
    void useRunStore.getState().attach();
    // Training runs' reviews name their iteration, whichever view is shown.
    useTrainingStore.getState().attach();
  }, []);

  useEffect(() => {
    const documents = useDocumentStore.getState();
    // A rename, or a switch refused because the open document could not be saved, sets the path the store already holds.
    if (!documentPath) documents.close();
    else if (documentPath !== documents.path) void documents.load(documentPath);
  }, [documentPath]);

  useMenuCommands();

  return (
    <div className="app">
      <Toolbar />
      <div className="app-body">
        <Sidebar />
        <main className="app-main">
          {view === 'settings' ? (
            <SettingsPanel />
          ) : view === 'memory' ? (
            <MemoryPanel />
          ) : view === 'training' && documentPath ? (
            <TrainingPanel />
          ) : view === 'tests' && documentPath ? (
            <TestPanel />
          ) : (
            <div className="app-workbench">
              <div className="app-canvas-column">
                <SaveErrorBanner />
                {documentPath ? (
                  <>
                    <Palette />
                    <CrewCanvas />
                  </>
                ) : (
                  <div className="app-empty">
                    <h2>Open a crew</h2>
                    <p>Pick a crew in the sidebar, or create one: type a name under “Crews” and press Create. Then drag agents and tasks from the palette onto the canvas.</p>
                  </div>
                )}
              </div>
              <Inspector />
            </div>
          )}
          <BottomPanel />
        </main>
      </div>
      <RunInputsDialog />
      <ImportCrewAiDialog />
      <TrainDialog />
      <TestDialog />
      <HumanDialogs />
      <ConnectionBanner />
    </div>
  );
}

function BottomPanel() {
  const tab = useUiStore((s) => s.bottomTab);
  const open = useUiStore((s) => s.bottomOpen);
  const [height, setHeight] = useState(300);
  const drag = useRef<{ y: number; height: number } | undefined>(undefined);

  const onPointerDown = (e: ReactPointerEvent) => {
    drag.current = { y: e.clientY, height };
    (e.target as HTMLElement).setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: ReactPointerEvent) => {
    if (!drag.current) return;
    const next = drag.current.height + (drag.current.y - e.clientY);
    setHeight(Math.max(120, Math.min(window.innerHeight - 160, next)));
  };

  return (
    <section className="bottom" style={{ height: open ? height : undefined }} aria-label="Run panel">
      {open && <div className="bottom-resize" onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={() => (drag.current = undefined)} />}
      <div className="bottom-tabs" role="tablist">
        {TABS.map((t) => (
          <button
            key={t.id}
            role="tab"
            className="bottom-tab"
            aria-selected={open && tab === t.id}
            data-testid={`tab-${t.id}`}
            onClick={() => useUiStore.getState().setBottomTab(t.id)}
          >
            {t.label}
          </button>
        ))}
        <button
          className="btn ghost small bottom-collapse"
          aria-label={open ? 'Collapse the run panel' : 'Expand the run panel'}
          title={open ? 'Collapse' : 'Expand'}
          onClick={() => useUiStore.getState().toggleBottom()}
        >
          {open ? '▾' : '▴'}
        </button>
      </div>
      {open && (
        <div className="bottom-content" role="tabpanel">
          {tab === 'trace' && <TracePanel />}
          {tab === 'output' && <OutputPanel />}
          {tab === 'runs' && <RunsPanel />}
        </div>
      )}
    </section>
  );
}
