import { useMemo } from 'react';
import { Panel } from '@xyflow/react';
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
import { DocumentCanvas, type CanvasKind } from '../DocumentCanvas';
import { useCanvasState } from '../useCanvasState';
import { flowEdgeTypes, flowNodeTypes } from './flowNodeTypes';
import type { FlowNode, ListenEdge } from './flowGraphTypes';
import { flowToGraph } from './flowToGraph';
import { FLOW_PALETTE_MIME } from './flowPaletteItems';
import { selectedMethodNode } from './FlowPalette';

const MINIMAP_COLORS: Record<string, string> = { start: 'var(--flow-start)', listen: 'var(--flow-listen)', router: 'var(--flow-router)' };
const FLOW_ACTIONS = { layout: layoutFlow, layoutHint: 'Arrange the methods left to right in the order they run' };

const FLOW_CANVAS: CanvasKind<ListenEdge, MethodTemplate> = {
  of: 'flow',
  className: 'crew-canvas flow-canvas',
  testId: 'flow-canvas',
  nodeTypes: flowNodeTypes,
  edgeTypes: flowEdgeTypes,
  minimapColor: (n) => (n.type === 'method' ? (MINIMAP_COLORS[(n.data as { role?: string }).role ?? ''] ?? 'var(--muted)') : 'var(--muted)'),
  palette: {
    mime: FLOW_PALETTE_MIME,
    read: (data) => (data ? (data as MethodTemplate) : undefined),
    width: () => FLOW_NODE_SIZE.method.width,
    add: (template, position) => addMethod(template, position, selectedMethodNode()),
  },
  connections: {
    allows: (doc, connection) => planConnection(asFlow(doc), connection.source, connection.sourceHandle, connection.target).ok,
    connect: (connection) => connectMethods(connection.source, connection.sourceHandle, connection.target),
    // Only from a method's output (or a router's route): a drag from an input handle is left.
    connectDropped: (from, over) => (from.handle?.type === 'target' ? undefined : connectMethods(from.node, from.handle?.id, over)),
  },
  selectedEdges: () => [],
  deleteSelection: (edges, selectedNodes) => {
    const refs = edges.flatMap((e) => (e.selected && e.deletable !== false && e.data ? [{ listener: e.data.listener, path: e.data.path }] : []));
    if (selectedNodes.length === 0 && refs.length === 0) return undefined;
    return composeCommands('Delete', [disconnectListens(refs), deleteFlowNodes(selectedNodes)]);
  },
};

/**
 * The flow on a React Flow canvas, like the crew canvas: the document store is the truth, React Flow
 * holds live drag positions and measured sizes, the ui store holds the selection. Connecting a
 * method's output (or a router's route) to a method makes it listen; deleting an edge removes that
 * reference from the listener's condition.
 */
export function FlowCanvas({ doc }: { doc: FlowDraft }) {
  const problems = useDocumentStore((s) => s.problems);
  const graph = useMemo(() => flowToGraph(doc, problems), [doc, problems]);
  const state = useCanvasState<FlowNode, ListenEdge>(graph);

  return (
    <DocumentCanvas kind={FLOW_CANVAS} problems={graph.generalProblems} state={state} edges={state.edges} actions={{ nodeCount: graph.nodes.length, ...FLOW_ACTIONS }}>
      {graph.nodes.length === 0 && (
        <Panel position="top-center" className="crew-canvas-empty" data-testid="flow-canvas-empty">
          Drag a method from the palette: the first one starts the flow. With a method selected, the next one listens to it.
        </Panel>
      )}
    </DocumentCanvas>
  );
}
