import { useEffect } from 'react';
import { CrewCanvas } from './canvas/CrewCanvas';
import { Palette } from './canvas/Palette';
import { HumanDialogs } from './dialogs/HumanDialogs';
import { ImportCrewAiDialog } from './dialogs/importCrewAi/ImportCrewAiDialog';
import { RunInputsDialog } from './dialogs/RunInputsDialog';
import { BatchRunDialog } from './dialogs/batchRun/BatchRunDialog';
import { CommandPalette } from './panels/CommandPalette';
import { ConnectModelDialog } from './panels/connect/ConnectModelDialog';
import { ConnectionBanner } from './panels/ConnectionBanner';
import { Inspector } from './panels/Inspector';
import { MemoryPanel } from './panels/memory/MemoryPanel';
import { OutputPanel } from './panels/OutputPanel';
import { ResizeGrip } from './panels/ResizeGrip';
import { RunsPanel } from './panels/RunsPanel';
import { ChatPanel } from './panels/chat/ChatPanel';
import { SaveErrorBanner } from './panels/SaveErrorBanner';
import { SettingsPanel } from './panels/SettingsPanel';
import { Sidebar } from './panels/Sidebar';
import { TestDialog } from './panels/testing/TestDialog';
import { TestPanel } from './panels/testing/TestPanel';
import { TrainDialog } from './panels/training/TrainDialog';
import { TrainingPanel } from './panels/training/TrainingPanel';
import { TracePanel } from './panels/TracePanel';
import { useSpanDetailSlot } from './panels/trace/spanDetailSlot';
import { TrustBanner } from './panels/TrustBanner';
import { useDocumentStore } from './stores/documentStore';
import { usePanelLayoutStore } from './stores/panelLayoutStore';
import { useRunStore } from './stores/runStore';
import { useSettingsStore } from './stores/settingsStore';
import { useTrainingStore } from './stores/trainingStore';
import { useUiStore, type BottomTab } from './stores/uiStore';
import { useWorkspaceStore } from './stores/workspaceStore';
import { Toolbar } from './Toolbar';
import { useLatestRunOnOpen } from './useLatestRunOnOpen';
import { useMenuCommands } from './useMenuCommands';

const TABS: { id: BottomTab; label: string }[] = [
  { id: 'trace', label: 'Trace' },
  { id: 'output', label: 'Output' },
  { id: 'runs', label: 'Runs' },
  { id: 'chat', label: 'Chat' },
];

/**
 * The app frame (SPEC §10): toolbar, workspace sidebar, canvas with palette and inspector, the run
 * panel at the bottom (trace, output, runs history), dialogs on top.
 */
export function App() {
  const theme = useUiStore((s) => s.theme);
  const view = useUiStore((s) => s.view);
  const documentPath = useDocumentStore((s) => s.path);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  useEffect(() => {
    void useWorkspaceStore.getState().attach();
    void useRunStore.getState().attach();
    // Training runs' reviews name their iteration, whichever view is shown.
    useTrainingStore.getState().attach();
    // Whether any model is connected yet (the sidebar's first-run Connect a model).
    void useSettingsStore.getState().load();
  }, []);

  useMenuCommands();
  useLatestRunOnOpen();

  // Panel sizes are the workspace's: another workspace keeps its own.
  const workspacePath = useWorkspaceStore((s) => s.info?.path);
  useEffect(() => {
    if (workspacePath) usePanelLayoutStore.getState().forWorkspace(workspacePath);
  }, [workspacePath]);

  // The run panel opens with a run to show and folds to its tab bar without one.
  const runId = useRunStore((s) => s.runId);
  useEffect(() => {
    useUiStore.getState().toggleBottom(runId !== undefined);
  }, [runId]);

  const sidebarWidth = usePanelLayoutStore((s) => s.sizes.sidebar);
  const inspectorWidth = usePanelLayoutStore((s) => s.sizes.inspector);
  // Maximised span details take the main area while a span is selected in the open run panel.
  const maximiseWanted = usePanelLayoutStore((s) => s.detailMaximised);
  const spanShown = useUiStore((s) => s.spanId !== undefined && s.bottomOpen);
  const detailMaximised = maximiseWanted && spanShown;
  // Popped-out span details take the right-hand column from the toolbar down, in the inspector's place.
  const traceShown = useUiStore((s) => s.bottomTab === 'trace');
  const sideWanted = usePanelLayoutStore((s) => s.detailMode === 'side');
  const detailSide = sideWanted && spanShown && traceShown;
  // Settings, Memory, Training and Tests have the main area to themselves: no run panel under them.
  const workbench = !(view === 'settings' || view === 'memory' || (view === 'training' && documentPath) || (view === 'tests' && documentPath));

  return (
    <div className="app">
      <Toolbar />
      <div className="app-banners">
        <TrustBanner />
      </div>
      <div className="app-body" style={{ gridTemplateColumns: `${sidebarWidth}px minmax(0, 1fr)` }}>
        <Sidebar />
        <main
          className="app-main"
          data-run-panel={workbench ? 'shown' : 'hidden'}
          data-detail-side={(workbench && detailSide) || undefined}
          style={workbench && detailSide ? { gridTemplateColumns: `minmax(0, 1fr) ${inspectorWidth}px` } : undefined}
        >
          {/* Placed against the body (absolute), inside main so that every control is in a landmark. */}
          <div className="resize-grip-slot" data-orientation="vertical" style={{ left: sidebarWidth }}>
            <ResizeGrip panel="sidebar" grows="right" label="Resize the sidebar" />
          </div>
          {view === 'settings' ? (
            <SettingsPanel />
          ) : view === 'memory' ? (
            <MemoryPanel />
          ) : view === 'training' && documentPath ? (
            <TrainingPanel />
          ) : view === 'tests' && documentPath ? (
            <TestPanel />
          ) : (
            !detailMaximised && (
              <div className="app-workbench" style={{ gridTemplateColumns: detailSide ? 'minmax(0, 1fr)' : `minmax(0, 1fr) ${inspectorWidth}px` }}>
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
                      <p>Pick a crew in the sidebar, or create one: type a name under “Crews &amp; flows” and press Create. Then drag agents and tasks from the palette onto the canvas.</p>
                    </div>
                  )}
                </div>
                {!detailSide && (
                  <>
                    <div className="resize-grip-slot" data-orientation="vertical" style={{ right: inspectorWidth }}>
                      <ResizeGrip panel="inspector" grows="left" label="Resize the inspector" />
                    </div>
                    <Inspector />
                  </>
                )}
              </div>
            )
          )}
          {workbench && <BottomPanel maximised={detailMaximised} />}
          {workbench && detailSide && (
            <div className="span-detail-side-column">
              <div className="resize-grip-slot" data-orientation="vertical" style={{ left: 0 }}>
                <ResizeGrip panel="inspector" grows="left" label="Resize the inspector" />
              </div>
              <div className="span-detail-side" ref={useSpanDetailSlot.getState().attach} data-testid="span-detail-side" />
            </div>
          )}
        </main>
      </div>
      <RunInputsDialog />
      <BatchRunDialog />
      <ImportCrewAiDialog />
      <TrainDialog />
      <TestDialog />
      <HumanDialogs />
      <ConnectModelDialog />
      <ConnectionBanner />
      <CommandPalette />
    </div>
  );
}

function BottomPanel({ maximised }: { maximised: boolean }) {
  const tab = useUiStore((s) => s.bottomTab);
  const open = useUiStore((s) => s.bottomOpen);
  const height = usePanelLayoutStore((s) => s.sizes.runPanel);

  return (
    <section
      className="bottom"
      data-open={open}
      data-maximised={maximised}
      data-testid="run-panel"
      style={{ height: open && !maximised ? height : undefined }}
      aria-label="Run panel"
    >
      {open && !maximised && <ResizeGrip panel="runPanel" grows="up" label="Resize the run panel" />}
      <div className="bottom-tabs">
        <div className="bottom-tablist" role="tablist" aria-label="Run panel views">
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
        </div>
        <button
          className="btn ghost small bottom-collapse"
          aria-label={open ? 'Collapse the run panel' : 'Expand the run panel'}
          title={open ? 'Collapse' : 'Expand'}
          onClick={() => {
            usePanelLayoutStore.getState().setDetailMaximised(false);
            useUiStore.getState().toggleBottom();
          }}
        >
          {open ? '▾' : '▴'}
        </button>
      </div>
      {open && (
        <div className="bottom-content" role="tabpanel">
          {tab === 'trace' && <TracePanel />}
          {tab === 'output' && <OutputPanel />}
          {tab === 'runs' && <RunsPanel />}
          {tab === 'chat' && <ChatPanel />}
        </div>
      )}
    </section>
  );
}
