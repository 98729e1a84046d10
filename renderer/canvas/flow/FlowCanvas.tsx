import { useCallback, useMemo, useRef, type DragEvent } from 'react';
import { Panel, ReactFlow, useReactFlow, type Connection, type FinalConnectionState, type IsValidConnection, type Node } from '@xyflow/react';
import '../../styles/flow.css';
import { composeCommands } from '../../commands/command';
import type { FlowDraft } from '../../commands/flow/flowDraft';
import { addMethod } from '../../commands/flow/addMethod';
import { connectMethods, planConnection } from '../../commands/flow/connectMethods';
import type { MethodTemplate } from '../../commands/flow/defaultBody';
import { deleteFlowNodes } from '../../commands/flow/deleteFlowNodes';
import { disconnectListens } from '../../commands/flow/disconnectListen';
import { asFlow } from '../../commands/flow/flowDraft';
import { FLOW_NODE_SIZE, layoutFlow } from '../../commands/flow/flowLayout';
import { useDocumentStore } from '../../stores/documentStore';
import { useUiStore } from '../../stores/uiStore';
import { CANVAS_PROPS, CanvasChrome, droppedOnNode } from '../canvasChrome';
import { EdgeMarkers } from '../edges/EdgeMarkers';
import { ProblemBanner } from '../ProblemBanner';
import { useCanvasShortcuts } from '../useCanvasShortcuts';
import { useCanvasState } from '../useCanvasState';
import { useZoomVariable } from '../useZoomVariable';
import { useKeepPlaceWhenTopMoves } from '../useKeepPlaceWhenTopMoves';
import { flowEdgeTypes, flowNodeTypes } from './flowNodeTypes';
import type { FlowNode, ListenEdge } from './flowGraphTypes';
import { flowToGraph } from './flowToGraph';
import { FLOW_PALETTE_MIME } from './flowPaletteItems';
import { selectedMethodNode } from './FlowPalette';

const MINIMAP_COLORS: Record<string, string> = { start: 'var(--flow-start)', listen: 'var(--flow-listen)', router: 'var(--flow-router)' };
const minimapColor = (n: Node) => (n.type === 'method' ? (MINIMAP_COLORS[(n.data as { role?: string }).role ?? ''] ?? 'var(--muted)') : 'var(--muted)');
const noCrewEdges = () => [];
const FLOW_ACTIONS = { layout: layoutFlow, layoutHint: 'Arrange the methods left to right in the order they run' };

/**
 * The flow on a React Flow canvas, like the crew canvas: the document store is the truth, React Flow
 * holds live drag positions and measured sizes, the ui store holds the selection. Connecting a
 * method's output (or a router's route) to a method makes it listen; deleting an edge removes that
 * reference from the listener's condition.
 */
export function FlowCanvas({ doc }: { doc: FlowDraft }) {
  const flow = useReactFlow<FlowNode, ListenEdge>();
  const container = useRef<HTMLDivElement>(null);
  const problems = useDocumentStore((s) => s.problems);
  const theme = useUiStore((s) => s.theme);
  const graph = useMemo(() => flowToGraph(doc, problems), [doc, problems]);
  const { nodes, edges, fitOnOpen, showMinimap, onNodesChange, onEdgesChange, onNodeDragStop } = useCanvasState<FlowNode, ListenEdge>(graph);

  const edgesRef = useRef(edges);
  edgesRef.current = edges;
  const deleteSelection = useCallback((selectedNodes: string[]) => {
    const refs = edgesRef.current.filter((e) => e.selected && e.deletable !== false && e.data).map((e) => ({ listener: e.data!.listener, path: e.data!.path }));
    if (selectedNodes.length === 0 && refs.length === 0) return undefined;
    return composeCommands('Delete', [disconnectListens(refs), deleteFlowNodes(selectedNodes)]);
  }, []);
  useCanvasShortcuts(container, noCrewEdges, deleteSelection);
  useZoomVariable(container);
  useKeepPlaceWhenTopMoves(container);

  const isValidConnection: IsValidConnection<ListenEdge> = useCallback((connection) => {
    const current = useDocumentStore.getState().doc;
    return current !== undefined && planConnection(asFlow(current), connection.source, connection.sourceHandle, connection.target).ok;
  }, []);

  const onConnect = useCallback((connection: Connection) => {
    useDocumentStore.getState().perform(connectMethods(connection.source, connection.sourceHandle, connection.target));
  }, []);

  // Dropping on a node's body (not its handle) connects too; an invalid drop says why.
  const onConnectEnd = useCallback((event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    if (state.isValid || state.fromHandle?.type === 'target') return;
    const over = droppedOnNode(event, state);
    if (over) useDocumentStore.getState().perform(connectMethods(state.fromNode!.id, state.fromHandle?.id, over));
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
      useDocumentStore.getState().perform(addMethod(template, position, selectedMethodNode()));
    },
    [flow],
  );

  return (
    <>
      <ProblemBanner problems={graph.generalProblems} of="flow" />
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
          fitView={fitOnOpen}
          colorMode={theme}
          {...CANVAS_PROPS}
        >
          <CanvasChrome showMinimap={showMinimap} minimapColor={minimapColor} actions={{ nodeCount: graph.nodes.length, ...FLOW_ACTIONS }} />
          {graph.nodes.length === 0 && (
            <Panel position="top-center" className="crew-canvas-empty" data-testid="flow-canvas-empty">
              Drag a method from the palette: the first one starts the flow. With a method selected, the next one listens to it.
            </Panel>
          )}
        </ReactFlow>
      </div>
    </>
  );
}
