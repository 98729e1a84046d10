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
import '../../styles/flow.css';
import { composeCommands } from '../../commands/command';
import type { CrewDraft } from '../../commands/crewDraft';
import { addMethod } from '../../commands/flow/addMethod';
import { connectMethods, planConnection } from '../../commands/flow/connectMethods';
import type { MethodTemplate } from '../../commands/flow/defaultBody';
import { deleteFlowNodes } from '../../commands/flow/deleteFlowNodes';
import { disconnectListens } from '../../commands/flow/disconnectListen';
import { asFlow } from '../../commands/flow/flowDraft';
import { FLOW_NODE_SIZE, layoutFlow } from '../../commands/flow/flowLayout';
import { moveNodes } from '../../commands/moveNodes';
import { useDocumentStore } from '../../stores/documentStore';
import { useUiStore } from '../../stores/uiStore';
import { CanvasActions, FIT_VIEW_OPTIONS } from '../CanvasActions';
import { EdgeMarkers } from '../edges/EdgeMarkers';
import { ProblemBanner } from '../ProblemBanner';
import { reconcileEdges, reconcileNodes } from '../reconcile';
import { RejectionToast } from '../RejectionToast';
import { useCanvasShortcuts } from '../useCanvasShortcuts';
import { useShowMinimap } from '../useShowMinimap';
import { flowEdgeTypes, flowNodeTypes } from './flowNodeTypes';
import type { FlowNode, ListenEdge } from './flowGraphTypes';
import { flowToGraph } from './flowToGraph';
import { FLOW_PALETTE_MIME } from './flowPaletteItems';

const MULTI_SELECT_KEYS = ['Shift', 'Meta', 'Control'];
const MINIMAP_SIZE = { width: 168, height: 112 };
const MINIMAP_COLORS: Record<string, string> = { start: 'var(--flow-start)', listen: 'var(--flow-listen)', router: 'var(--flow-router)' };
const noCrewEdges = () => [];

/**
 * The flow on a React Flow canvas, like the crew canvas: the document store is the truth, React Flow
 * holds live drag positions and measured sizes, the ui store holds the selection. Connecting a
 * method's output (or a router's route) to a method makes it listen; deleting an edge removes that
 * reference from the listener's condition.
 */
export function FlowCanvas({ doc }: { doc: CrewDraft }) {
  const flow = useReactFlow<FlowNode, ListenEdge>();
  const container = useRef<HTMLDivElement>(null);
  const problems = useDocumentStore((s) => s.problems);
  const selectedIds = useUiStore((s) => s.selectedNodeIds);
  const theme = useUiStore((s) => s.theme);

  const graph = useMemo(() => flowToGraph(doc, problems), [doc, problems]);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const [nodes, setNodes] = useState<FlowNode[]>(() => reconcileNodes([], graph.nodes, selected));
  const [edges, setEdges] = useState<ListenEdge[]>(graph.edges);
  const [source, setSource] = useState({ graph, selected });
  const [fitOnOpen] = useState(() => graph.nodes.length > 0);
  const showMinimap = useShowMinimap(graph.nodes.length);
  if (source.graph !== graph || source.selected !== selected) {
    setSource({ graph, selected });
    setNodes((previous) => reconcileNodes(previous, graph.nodes, selected));
    if (source.graph !== graph) setEdges((previous) => reconcileEdges(previous, graph.edges));
  }

  const edgesRef = useRef(edges);
  edgesRef.current = edges;
  const deleteSelection = useCallback((selectedNodes: string[]) => {
    const refs = edgesRef.current.filter((e) => e.selected && e.deletable !== false && e.data).map((e) => ({ listener: e.data!.listener, path: e.data!.path }));
    if (selectedNodes.length === 0 && refs.length === 0) return undefined;
    return composeCommands('Delete', [disconnectListens(refs), deleteFlowNodes(selectedNodes)]);
  }, []);
  useCanvasShortcuts(container, noCrewEdges, deleteSelection);

  const onNodesChange = useCallback((changes: NodeChange<FlowNode>[]) => {
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
    const rest = changes.filter((c) => c.type !== 'select' && c.type !== 'remove');
    if (rest.length > 0) setNodes((current) => applyNodeChanges(rest, current));
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange<ListenEdge>[]) => {
    const rest = changes.filter((c) => c.type !== 'remove');
    if (rest.length > 0) setEdges((current) => applyEdgeChanges(rest, current));
  }, []);

  const onNodeDragStop: OnNodeDrag<FlowNode> = useCallback((_event, _node, dragged) => {
    useDocumentStore.getState().perform(moveNodes(Object.fromEntries(dragged.map((n) => [n.id, n.position]))));
  }, []);

  const isValidConnection: IsValidConnection<ListenEdge> = useCallback((connection) => {
    const current = useDocumentStore.getState().doc;
    return current !== undefined && planConnection(asFlow(current), connection.source, connection.sourceHandle, connection.target).ok;
  }, []);

  const onConnect = useCallback((connection: Connection) => {
    useDocumentStore.getState().perform(connectMethods(connection.source, connection.sourceHandle, connection.target));
  }, []);

  // Dropping on a node's body (not its handle) connects too; an invalid drop says why.
  const onConnectEnd = useCallback((event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    if (state.isValid || !state.fromNode || state.fromHandle?.type === 'target') return;
    const point = 'changedTouches' in event ? event.changedTouches[0] : event;
    const element = point ? document.elementFromPoint(point.clientX, point.clientY) : null;
    const over = state.toNode?.id ?? element?.closest('.react-flow__node')?.getAttribute('data-id') ?? undefined;
    if (!over || over === state.fromNode.id) return;
    useDocumentStore.getState().perform(connectMethods(state.fromNode.id, state.fromHandle?.id, over));
  }, []);

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(FLOW_PALETTE_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const template = event.dataTransfer.getData(FLOW_PALETTE_MIME) as MethodTemplate;
      if (!template) return;
      event.preventDefault();
      const point = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const position = { x: Math.round(point.x - FLOW_NODE_SIZE.method.width / 2), y: Math.round(point.y - 20) };
      useDocumentStore.getState().perform(addMethod(template, position));
    },
    [flow],
  );

  return (
    <div className="crew-canvas flow-canvas" ref={container} data-testid="flow-canvas">
      <EdgeMarkers />
      <ReactFlow<FlowNode, ListenEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={flowNodeTypes}
        edgeTypes={flowEdgeTypes}
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
        onlyRenderVisibleElements
        colorMode={theme}
        proOptions={{ hideAttribution: true }}
      >
        <Background variant={BackgroundVariant.Dots} gap={18} size={1} className="crew-canvas-background" />
        {showMinimap && (
          <MiniMap
            pannable
            zoomable
            style={MINIMAP_SIZE}
            nodeColor={(n) => (n.type === 'method' ? (MINIMAP_COLORS[(n.data as { role?: string }).role ?? ''] ?? 'var(--muted)') : 'var(--muted)')}
            nodeStrokeWidth={0}
            className="crew-minimap"
            ariaLabel="Minimap"
          />
        )}
        <Controls showInteractive={false} fitViewOptions={FIT_VIEW_OPTIONS} className="crew-controls" />
        <Panel position="top-right">
          <CanvasActions nodeCount={graph.nodes.length} layout={layoutFlow} layoutHint="Arrange the methods left to right in the order they run" />
        </Panel>
        <Panel position="top-left">
          <ProblemBanner problems={graph.generalProblems} />
        </Panel>
        <Panel position="bottom-center">
          <RejectionToast />
        </Panel>
      </ReactFlow>
    </div>
  );
}
