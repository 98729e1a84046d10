import { useLayoutEffect, useMemo, useRef } from 'react';
import { Panel } from '@xyflow/react';
import { useShallow } from 'zustand/react/shallow';
import { addAgent } from '../commands/addAgent';
import { addTask } from '../commands/addTask';
import { checkConnection } from '../commands/connectionRule';
import { connectNodes } from '../commands/connect';
import type { CrewDraft } from '../commands/crewDraft';
import type { EdgeRef } from '../commands/disconnect';
import { useDocumentStore } from '../stores/documentStore';
import { selectOverlay, useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';
import { swimlaneLayout } from '../commands/swimlaneLayout';
import { selectCollapsed, useCrewViewStore } from '../stores/crewViewStore';
import { collapseByAgent, edgesToDraw, LARGE_CREW_NODES } from './collapseByAgent';
import { CrewLayoutTools, useCrewAutoLayout } from './CrewLayoutTools';
import { useUnfoldOnReveal } from './useUnfoldOnReveal';
import { DocumentCanvas, type CanvasKind } from './DocumentCanvas';
import { documentToGraph } from './documentToGraph';
import { edgeRef } from './edgeRefs';
import { edgeTypes } from './edgeTypes';
import type { CrewEdge, CrewNode } from './graphTypes';
import { liveDelegationEdges } from './liveDelegationEdges';
import { nodeTypes } from './nodeTypes';
import { NODE_SIZE } from '../model/nodeSizes';
import { PALETTE_MIME } from './paletteItem';
import { useCanvasState } from './useCanvasState';

const MINIMAP_COLORS: Record<string, string> = { agent: 'var(--agent)', task: 'var(--task)', manager: 'var(--manager)' };

const CREW_CANVAS: CanvasKind<CrewEdge, 'agent' | 'task'> = {
  of: 'crew',
  className: 'crew-canvas',
  testId: 'crew-canvas',
  nodeTypes,
  edgeTypes,
  minimapColor: (n) => MINIMAP_COLORS[n.type ?? ''] ?? 'var(--muted)',
  palette: {
    mime: PALETTE_MIME,
    read: (data) => (data === 'agent' || data === 'task' ? data : undefined),
    width: (kind) => NODE_SIZE[kind].width,
    add: (kind, position) => (kind === 'agent' ? addAgent(position) : addTask(position)),
  },
  connections: {
    allows: (doc, connection) => checkConnection(doc, connection.source, connection.target).ok,
    connect: (connection) => connectNodes(connection.source, connection.target),
    connectDropped: (from, over) => {
      const fromSource = from.handle?.type !== 'target';
      const [source, target] = fromSource ? [from.node, over] : [over, from.node];
      return connectNodes(source, target);
    },
  },
  selectedEdges: (edges) => edges.filter((e) => e.selected).map(edgeRef).filter((r): r is EdgeRef => r !== undefined),
};

/**
 * The crew on a React Flow canvas (state kept as `useCanvasState` says). Nodes read run status from the
 * run store themselves; delegations in progress are drawn as extra edges.
 */
export function CrewFlow({ doc }: { doc: CrewDraft }) {
  const problems = useDocumentStore((s) => s.problems);
  const activeDelegations = useRunStore(useShallow((s) => selectOverlay(s).activeDelegations));
  const fullGraph = useMemo(() => documentToGraph(doc, problems), [doc, problems]);
  // Large crews: agents can fold their tasks into them (collapse-by-agent).
  const path = useDocumentStore((s) => s.path);
  const collapsed = useCrewViewStore(selectCollapsed(path));
  const graph = useMemo(() => collapseByAgent(fullGraph, collapsed), [fullGraph, collapsed]);
  useUnfoldOnReveal(fullGraph, graph);
  const large = fullGraph.nodes.length >= LARGE_CREW_NODES;
  const foldable = useMemo(() => graph.nodes.filter((n) => n.type === 'agent' && n.data.fold).map((n) => n.id), [graph]);
  useFoldLargeCrewOnOpen(path, foldable);
  const autoLayout = useCrewAutoLayout();
  const edgeMode = useCrewViewStore((s) => s.largeCrewEdges);
  const state = useCanvasState<CrewNode, CrewEdge>(graph);
  const { edges } = state;

  const selectedIds = useUiStore((s) => s.selectedNodeIds);
  const shownEdges = useMemo(() => {
    const live = liveDelegationEdges(activeDelegations, edges, new Set(graph.nodes.map((n) => n.id)));
    // Large crews: hundreds of edges merge into bars; only the selection's are drawn unless asked for all.
    const drawn = edgesToDraw(edges, fullGraph.nodes.length, selectedIds, edgeMode);
    return live.length > 0 ? [...drawn, ...live] : drawn;
  }, [activeDelegations, edges, graph.nodes, fullGraph.nodes.length, selectedIds, edgeMode]);

  return (
    <DocumentCanvas
      kind={CREW_CANVAS}
      problems={graph.generalProblems}
      state={state}
      edges={shownEdges}
      counts={{ nodes: graph.nodes.length, edges: shownEdges.length }}
      actions={{
        nodeCount: graph.nodes.length,
        layout: autoLayout,
        lanes: swimlaneLayout,
        extra: <CrewLayoutTools large={large} foldable={foldable} collapsed={collapsed.length} />,
      }}
    >
      {graph.nodes.length === 0 && (
        <Panel position="top-center" className="crew-canvas-empty">
          Drag an <strong>Agent</strong> and a <strong>Task</strong> from the palette to start.
        </Panel>
      )}
    </DocumentCanvas>
  );
}

/**
 * A large crew opens folded by agent (the overview: every agent a block with its task count, packed so
 * Fit shows them all). Only when it is opened and nothing was folded or unfolded for it yet: a crew that
 * grows past the size while being built keeps what it shows.
 */
function useFoldLargeCrewOnOpen(path: string | undefined, foldable: string[]): void {
  const latest = useRef(foldable);
  latest.current = foldable;
  useLayoutEffect(() => {
    const view = useCrewViewStore.getState();
    if (path && view.collapsed[path] === undefined && latest.current.length > 0) view.setCollapsed(path, latest.current);
  }, [path]);
}
