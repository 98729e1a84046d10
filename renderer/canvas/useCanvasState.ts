import { useCallback, useMemo, useState } from 'react';
import { applyEdgeChanges, applyNodeChanges, type Edge, type EdgeChange, type Node, type NodeChange, type OnNodeDrag } from '@xyflow/react';
import { isFlowDraft } from '../commands/flow/flowDraft';
import { moveFlowNodes } from '../commands/flow/moveFlowNodes';
import { moveNodes } from '../commands/moveNodes';
import { useDocumentStore } from '../stores/documentStore';
import { useUiStore } from '../stores/uiStore';
import { reconcileEdges, reconcileNodes } from './reconcile';
import { useShowMinimap } from './useShowMinimap';

/**
 * What both canvases (crew and flow) keep in React Flow: the document store is the truth for what
 * exists and where; React Flow holds live positions during a drag (saved once, when it ends) and
 * measured sizes; the ui store holds the node selection. Removals never go straight into React Flow's
 * state: they are commands (the keyboard handler).
 */
export function useCanvasState<N extends Node, E extends Edge>(graph: { nodes: N[]; edges: E[] }) {
  const selectedIds = useUiStore((s) => s.selectedNodeIds);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const [nodes, setNodes] = useState<N[]>(() => reconcileNodes([], graph.nodes, selected));
  const [edges, setEdges] = useState<E[]>(graph.edges);
  const [source, setSource] = useState({ graph, selected });
  // Zoom to fit on open; an empty canvas keeps the default viewport (fitting would jump at the first drop).
  const [fitOnOpen] = useState(() => graph.nodes.length > 0);
  const showMinimap = useShowMinimap(graph.nodes.length);
  if (source.graph !== graph || source.selected !== selected) {
    // Derived state, adjusted while rendering (no extra frame with stale nodes).
    setSource({ graph, selected });
    setNodes((previous) => reconcileNodes(previous, graph.nodes, selected));
    if (source.graph !== graph) setEdges((previous) => reconcileEdges(previous, graph.edges));
  }

  const onNodesChange = useCallback((changes: NodeChange<N>[]) => {
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

  const onEdgesChange = useCallback((changes: EdgeChange<E>[]) => {
    const rest = changes.filter((c) => c.type !== 'remove');
    if (rest.length > 0) setEdges((current) => applyEdgeChanges(rest, current));
  }, []);

  const onNodeDragStop: OnNodeDrag<N> = useCallback((_event, _node, dragged) => {
    const positions = Object.fromEntries(dragged.map((n) => [n.id, n.position]));
    const store = useDocumentStore.getState();
    store.perform(isFlowDraft(store.doc) ? moveFlowNodes(positions) : moveNodes(positions));
  }, []);

  return { nodes, edges, fitOnOpen, showMinimap, onNodesChange, onEdgesChange, onNodeDragStop };
}
