import { useCallback, useLayoutEffect, useMemo, useRef, type DragEvent } from 'react';
import { Panel, ReactFlow, useReactFlow, type Connection, type FinalConnectionState, type IsValidConnection, type Node } from '@xyflow/react';
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
import { CANVAS_PROPS, CanvasChrome, droppedOnNode } from './canvasChrome';
import { documentToGraph } from './documentToGraph';
import { edgeRef } from './edgeRefs';
import { edgeTypes } from './edgeTypes';
import { EdgeMarkers } from './edges/EdgeMarkers';
import type { CrewEdge, CrewNode } from './graphTypes';
import { liveDelegationEdges } from './liveDelegationEdges';
import { nodeTypes } from './nodeTypes';
import { NODE_SIZE } from '../model/nodeSizes';
import { PALETTE_MIME, type PaletteItem } from './paletteItem';
import { ProblemBanner } from './ProblemBanner';
import { useCanvasShortcuts } from './useCanvasShortcuts';
import { useCanvasState } from './useCanvasState';
import { useZoomVariable } from './useZoomVariable';
import { useKeepPlaceWhenTopMoves } from './useKeepPlaceWhenTopMoves';

const MINIMAP_COLORS: Record<string, string> = { agent: 'var(--agent)', task: 'var(--task)', manager: 'var(--manager)' };
const minimapColor = (n: Node) => MINIMAP_COLORS[n.type ?? ''] ?? 'var(--muted)';

/**
 * The crew on a React Flow canvas (state kept as `useCanvasState` says). Nodes read run status from the
 * run store themselves; delegations in progress are drawn as extra edges.
 */
export function CrewFlow({ doc }: { doc: CrewDraft }) {
  const flow = useReactFlow<CrewNode, CrewEdge>();
  const container = useRef<HTMLDivElement>(null);
  const problems = useDocumentStore((s) => s.problems);
  const theme = useUiStore((s) => s.theme);
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
  const { nodes, edges, fitOnOpen, showMinimap, onNodesChange, onEdgesChange, onNodeDragStop } = useCanvasState<CrewNode, CrewEdge>(graph);

  const selectedIds = useUiStore((s) => s.selectedNodeIds);
  const shownEdges = useMemo(() => {
    const live = liveDelegationEdges(activeDelegations, edges, new Set(graph.nodes.map((n) => n.id)));
    // Large crews: hundreds of edges merge into bars; only the selection's are drawn unless asked for all.
    const drawn = edgesToDraw(edges, fullGraph.nodes.length, selectedIds, edgeMode);
    return live.length > 0 ? [...drawn, ...live] : drawn;
  }, [activeDelegations, edges, graph.nodes, fullGraph.nodes.length, selectedIds, edgeMode]);

  const edgesRef = useRef(edges);
  edgesRef.current = edges;
  const selectedEdges = useCallback(
    () => edgesRef.current.filter((e) => e.selected).map(edgeRef).filter((r): r is EdgeRef => r !== undefined),
    [],
  );
  useCanvasShortcuts(container, selectedEdges);
  useZoomVariable(container);
  useKeepPlaceWhenTopMoves(container);

  const isValidConnection: IsValidConnection<CrewEdge> = useCallback((connection) => {
    const current = useDocumentStore.getState().doc;
    return current !== undefined && checkConnection(current, connection.source, connection.target).ok;
  }, []);

  const onConnect = useCallback((connection: Connection) => {
    useDocumentStore.getState().perform(connectNodes(connection.source, connection.target));
  }, []);

  // Dropping on a node's body (not its handle) connects too; an invalid drop says why.
  const onConnectEnd = useCallback((event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    if (state.isValid) return;
    const over = droppedOnNode(event, state);
    if (!over || !state.fromNode) return;
    const fromSource = state.fromHandle?.type !== 'target';
    const [from, to] = fromSource ? [state.fromNode.id, over] : [over, state.fromNode.id];
    useDocumentStore.getState().perform(connectNodes(from, to));
  }, []);

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(PALETTE_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const kind = event.dataTransfer.getData(PALETTE_MIME) as PaletteItem;
      if (kind !== 'agent' && kind !== 'task') return;
      event.preventDefault();
      const point = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const size = NODE_SIZE[kind];
      const position = { x: Math.round(point.x - size.width / 2), y: Math.round(point.y - 20) };
      useDocumentStore.getState().perform(kind === 'agent' ? addAgent(position) : addTask(position));
    },
    [flow],
  );

  return (
    <>
      <ProblemBanner problems={graph.generalProblems} of="crew" />
      <div className="crew-canvas" ref={container} data-testid="crew-canvas" data-node-count={graph.nodes.length} data-edge-count={shownEdges.length}>
        <EdgeMarkers />
        <ReactFlow<CrewNode, CrewEdge>
          nodes={nodes}
          edges={shownEdges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onNodeDragStop={onNodeDragStop}
          onConnect={onConnect}
          onConnectEnd={onConnectEnd}
          isValidConnection={isValidConnection}
          onDragOver={onDragOver}
          onDrop={onDrop}
          fitView={fitOnOpen}
          colorMode={theme}
          {...CANVAS_PROPS}
        >
          <CanvasChrome showMinimap={showMinimap} minimapColor={minimapColor} actions={{
              nodeCount: graph.nodes.length,
              layout: autoLayout,
              lanes: swimlaneLayout,
              extra: <CrewLayoutTools large={large} foldable={foldable} collapsed={collapsed.length} />,
            }} />
          {graph.nodes.length === 0 && (
            <Panel position="top-center" className="crew-canvas-empty">
              Drag an <strong>Agent</strong> and a <strong>Task</strong> from the palette to start.
            </Panel>
          )}
        </ReactFlow>
      </div>
    </>
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
