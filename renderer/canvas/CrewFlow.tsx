import { useCallback, useMemo, useRef, useState, type DragEvent } from 'react';
import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  Panel,
  ReactFlow,
  applyEdgeChanges,
  applyNodeChanges,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type FinalConnectionState,
  type IsValidConnection,
  type NodeChange,
  type OnNodeDrag,
} from '@xyflow/react';
import { useShallow } from 'zustand/react/shallow';
import { addAgent } from '../commands/addAgent';
import { addTask } from '../commands/addTask';
import { checkConnection } from '../commands/connectionRule';
import { connectNodes } from '../commands/connect';
import type { CrewDraft } from '../commands/crewDraft';
import type { EdgeRef } from '../commands/disconnect';
import { moveNodes } from '../commands/moveNodes';
import { useDocumentStore } from '../stores/documentStore';
import { useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';
import { useShowMinimap } from './useShowMinimap';
import { CanvasActions, FIT_VIEW_OPTIONS } from './CanvasActions';
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
import { reconcileEdges, reconcileNodes } from './reconcile';
import { RejectionToast } from './RejectionToast';
import { useCanvasShortcuts } from './useCanvasShortcuts';

const MULTI_SELECT_KEYS = ['Shift', 'Meta', 'Control'];
const MINIMAP_SIZE = { width: 168, height: 112 };
const MINIMAP_COLORS: Record<string, string> = { agent: 'var(--agent)', task: 'var(--task)', manager: 'var(--manager)' };

/**
 * The crew on a React Flow canvas. The document store is the truth for what exists and where;
 * React Flow holds live positions during a drag (saved once, when it ends) and measured sizes; the ui
 * store holds the node selection. Nodes read run status from the run store themselves.
 */
export function CrewFlow({ doc }: { doc: CrewDraft }) {
  const flow = useReactFlow<CrewNode, CrewEdge>();
  const container = useRef<HTMLDivElement>(null);
  const problems = useDocumentStore((s) => s.problems);
  const selectedIds = useUiStore((s) => s.selectedNodeIds);
  const theme = useUiStore((s) => s.theme);
  const activeDelegations = useRunStore(useShallow((s) => s.activeDelegations));

  const graph = useMemo(() => documentToGraph(doc, problems), [doc, problems]);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);

  const [nodes, setNodes] = useState<CrewNode[]>(() => reconcileNodes([], graph.nodes, selected));
  const [edges, setEdges] = useState<CrewEdge[]>(graph.edges);
  const [source, setSource] = useState({ graph, selected });
  // Zoom to fit on open; an empty crew keeps the default viewport (fitting would jump at the first drop).
  const [fitOnOpen] = useState(() => graph.nodes.length > 0);
  const showMinimap = useShowMinimap(graph.nodes.length);
  if (source.graph !== graph || source.selected !== selected) {
    // Derived state, adjusted while rendering (no extra frame with stale nodes).
    setSource({ graph, selected });
    setNodes((previous) => reconcileNodes(previous, graph.nodes, selected));
    if (source.graph !== graph) setEdges((previous) => reconcileEdges(previous, graph.edges));
  }

  const shownEdges = useMemo(() => {
    const live = liveDelegationEdges(activeDelegations, edges, new Set(graph.nodes.map((n) => n.id)));
    return live.length > 0 ? [...edges, ...live] : edges;
  }, [activeDelegations, edges, graph.nodes]);

  const edgesRef = useRef(edges);
  edgesRef.current = edges;
  const selectedEdges = useCallback(
    () => edgesRef.current.filter((e) => e.selected).map(edgeRef).filter((r): r is EdgeRef => r !== undefined),
    [],
  );
  useCanvasShortcuts(container, selectedEdges);

  const onNodesChange = useCallback((changes: NodeChange<CrewNode>[]) => {
    const selection = changes.filter((c) => c.type === 'select');
    if (selection.length > 0) {
      const ids = new Set(useUiStore.getState().selectedNodeIds);
      for (const change of selection) {
        if (change.selected) ids.add(change.id);
        else ids.delete(change.id);
      }
      const next = [...ids];
      const current = useUiStore.getState().selectedNodeIds;
      if (next.length !== current.length || next.some((id, i) => id !== current[i])) useUiStore.getState().select(next);
    }
    // Removal goes through commands (keyboard handler), never straight into React Flow's state.
    const rest = changes.filter((c) => c.type !== 'select' && c.type !== 'remove');
    if (rest.length > 0) setNodes((current) => applyNodeChanges(rest, current));
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange<CrewEdge>[]) => {
    const rest = changes.filter((c) => c.type !== 'remove');
    if (rest.length > 0) setEdges((current) => applyEdgeChanges(rest, current));
  }, []);

  const onNodeDragStop: OnNodeDrag<CrewNode> = useCallback((_event, _node, dragged) => {
    const positions = Object.fromEntries(dragged.map((n) => [n.id, n.position]));
    useDocumentStore.getState().perform(moveNodes(positions));
  }, []);

  const isValidConnection: IsValidConnection<CrewEdge> = useCallback((connection) => {
    const current = useDocumentStore.getState().doc;
    return current !== undefined && checkConnection(current, connection.source, connection.target).ok;
  }, []);

  const onConnect = useCallback((connection: Connection) => {
    useDocumentStore.getState().perform(connectNodes(connection.source, connection.target));
  }, []);

  // Dropping on a node's body (not its handle) connects too; an invalid drop says why.
  const onConnectEnd = useCallback((event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    if (state.isValid || !state.fromNode) return;
    const point = 'changedTouches' in event ? event.changedTouches[0] : event;
    const element = point ? document.elementFromPoint(point.clientX, point.clientY) : null;
    const over = state.toNode?.id ?? element?.closest('.react-flow__node')?.getAttribute('data-id') ?? undefined;
    if (!over || over === state.fromNode.id) return;
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
    <div className="crew-canvas" ref={container} data-testid="crew-canvas">
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
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={MULTI_SELECT_KEYS}
        connectionRadius={28}
        fitView={fitOnOpen}
        fitViewOptions={FIT_VIEW_OPTIONS}
        minZoom={0.1}
        maxZoom={2}
        // Large crews: nodes and edges out of view are not mounted (bench:ui, 300-node crew).
        onlyRenderVisibleElements
        colorMode={theme}
        proOptions={{ hideAttribution: true }}
      >
        <Background variant={BackgroundVariant.Dots} gap={18} size={1} className="crew-canvas-background" />
        {showMinimap && <MiniMap pannable zoomable style={MINIMAP_SIZE} nodeColor={(n) => MINIMAP_COLORS[n.type ?? ''] ?? 'var(--muted)'} nodeStrokeWidth={0} className="crew-minimap" ariaLabel="Minimap" />}
        <Controls showInteractive={false} fitViewOptions={FIT_VIEW_OPTIONS} className="crew-controls" />
        <Panel position="top-right">
          <CanvasActions nodeCount={graph.nodes.length} />
        </Panel>
        <Panel position="top-left">
          <ProblemBanner problems={graph.generalProblems} />
        </Panel>
        <Panel position="bottom-center">
          <RejectionToast />
        </Panel>
        {graph.nodes.length === 0 && (
          <Panel position="top-center" className="crew-canvas-empty">
            Drag an <strong>Agent</strong> and a <strong>Task</strong> from the palette to start.
          </Panel>
        )}
      </ReactFlow>
    </div>
  );
}

