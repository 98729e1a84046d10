import { useShallow } from 'zustand/react/shallow';
import type { Command } from '../commands/command';
import { isFlowDraft } from '../commands/flow/flowDraft';
import { layoutAll } from '../commands/layoutAll';
import { applyPositions } from '../commands/layout/applyPositions';
import { crewLayoutGraph } from '../commands/layout/crewLayoutGraph';
import { elkLayout } from '../commands/layout/elkLayout';
import type { Size } from '../model/nodeSizes';
import { useCrewViewStore, type LayoutEngine } from '../stores/crewViewStore';
import { useDocumentStore } from '../stores/documentStore';
import { useUiStore } from '../stores/uiStore';
import { elkEngine } from './elkEngine';

/**
 * Auto-layout with ELK, computed in its web worker. Nothing is applied if what it lays out (agents,
 * tasks, their links) changed meanwhile; a node moved or placed meanwhile does not count, as the
 * layout sets every position anyway.
 */
async function elkAutoLayout(sizes: Record<string, Size>): Promise<Command | undefined> {
  const doc = useDocumentStore.getState().doc;
  if (!doc || isFlowDraft(doc)) return undefined;
  const graph = crewLayoutGraph(doc, sizes);
  const positions = await elkLayout(graph, elkEngine());
  const now = useDocumentStore.getState().doc;
  const same = now === doc || (now !== undefined && !isFlowDraft(now) && JSON.stringify(crewLayoutGraph(now, sizes)) === JSON.stringify(graph));
  return same ? applyPositions('Auto-layout (ELK)', positions) : undefined;
}

/** The crew canvas's Auto-layout, with the engine chosen on the toolbar. */
export function useCrewAutoLayout(): (sizes: Record<string, Size>) => Command | Promise<Command | undefined> {
  const engine = useCrewViewStore((s) => s.engine);
  return engine === 'elk' ? elkAutoLayout : layoutAll;
}

/**
 * Crew controls on the canvas toolbar: the Auto-layout engine, and on large crews (or once something
 * is folded) Collapse all / Expand all and which edges are drawn.
 */
export function CrewLayoutTools({ large, foldable, collapsed }: { large: boolean; foldable: string[]; collapsed: number }) {
  const { engine, edges } = useCrewViewStore(useShallow((s) => ({ engine: s.engine, edges: s.largeCrewEdges })));
  const path = useDocumentStore((s) => s.path);
  // Anything folded: the button unfolds everything; nothing folded: it folds every agent.
  const anyFolded = collapsed > 0;
  const setFolded = (ids: string[]) => {
    if (!path) return;
    useCrewViewStore.getState().setCollapsed(path, ids);
    requestAnimationFrame(() => useUiStore.getState().requestFitView());
  };
  return (
    <>
      <select
        className="canvas-action-select"
        value={engine}
        onChange={(e) => useCrewViewStore.getState().setEngine(e.target.value as LayoutEngine)}
        title="Auto-layout engine (docs/LAYOUT.md compares them)"
        aria-label="Auto-layout engine"
        data-testid="canvas-layout-engine"
      >
        <option value="dagre">Layout: dagre</option>
        <option value="elk">Layout: ELK</option>
      </select>
      {(large || collapsed > 0) && foldable.length > 0 && (
        <button
          type="button"
          className="canvas-action"
          onClick={() => setFolded(anyFolded ? [] : foldable)}
          title={anyFolded ? 'Show every task again' : "Fold every agent's tasks into it (a count on each agent)"}
          data-testid="canvas-collapse-all"
        >
          {anyFolded ? 'Expand all' : 'Collapse all'}
        </button>
      )}
      {large && (
        <button
          type="button"
          className="canvas-action"
          aria-pressed={edges === 'all'}
          onClick={() => useCrewViewStore.getState().setLargeCrewEdges(edges === 'all' ? 'selection' : 'all')}
          title={edges === 'all' ? 'Draw only the selected nodes’ edges' : 'Draw every edge (this crew is large: they merge into bars)'}
          data-testid="canvas-edges-mode"
        >
          {edges === 'all' ? 'All edges' : 'Selection edges'}
        </button>
      )}
    </>
  );
}
