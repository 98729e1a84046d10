import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { ReactFlow, type Edge, type EdgeTypes, type Node, type NodeTypes } from '@xyflow/react';
import type { Problem } from '../../shared/model/problems';
import type { DocumentCommand } from '../commands/command';
import type { EdgeRef } from '../commands/disconnect';
import { useUiStore } from '../stores/uiStore';
import { CANVAS_PROPS, CanvasChrome } from './canvasChrome';
import { EdgeMarkers } from './edges/EdgeMarkers';
import { ProblemBanner } from './ProblemBanner';
import type { useCanvasState } from './useCanvasState';
import { useCanvasShortcuts } from './useCanvasShortcuts';
import { useConnectionHandlers, type CanvasConnections } from './useConnectionHandlers';
import { useKeepPlaceWhenTopMoves } from './useKeepPlaceWhenTopMoves';
import { usePaletteDrop, type PaletteDrop } from './usePaletteDrop';
import { useZoomVariable } from './useZoomVariable';

/** What a kind of document brings to its canvas (a module constant: the canvas's callbacks depend on it). */
export interface CanvasKind<E extends Edge, T extends string> {
  of: 'crew' | 'flow';
  className: string;
  testId: string;
  nodeTypes: NodeTypes;
  edgeTypes: EdgeTypes;
  minimapColor(node: Node): string;
  palette: PaletteDrop<T>;
  connections: CanvasConnections;
  /** The selected edges the crew's delete removes (useCanvasShortcuts). */
  selectedEdges(edges: E[]): EdgeRef[];
  /** Replaces the crew's delete (useCanvasShortcuts); undefined when nothing is selected. */
  deleteSelection?(edges: E[], selectedNodeIds: string[]): DocumentCommand | undefined;
}

interface DocumentCanvasProps<N extends Node, E extends Edge, T extends string> {
  kind: CanvasKind<E, T>;
  /** Problems of no node, in the banner above the canvas. */
  problems: Problem[];
  state: ReturnType<typeof useCanvasState<N, E>>;
  /** The edges drawn (the state's, or more or fewer). */
  edges: E[];
  actions: Parameters<typeof CanvasChrome>[0]['actions'];
  /** Set as data-node-count and data-edge-count on the canvas. */
  counts?: { nodes: number; edges: number };
  /** Over the canvas (its empty-state hint). */
  children?: ReactNode;
}

/**
 * A document on an editable React Flow canvas, as both canvases (crew and flow) show it: the problems
 * banner, the nodes and edges with the canvas chrome, its keys, connecting by dragging, and dropping
 * items from the palette. What differs is the `kind` and what the caller draws.
 */
export function DocumentCanvas<N extends Node, E extends Edge, T extends string>({ kind, problems, state, edges, actions, counts, children }: DocumentCanvasProps<N, E, T>) {
  const container = useRef<HTMLDivElement>(null);
  const theme = useUiStore((s) => s.theme);
  const { nodes, fitOnOpen, showMinimap, onNodesChange, onEdgesChange, onNodeDragStop } = state;

  const edgesRef = useRef(state.edges);
  edgesRef.current = state.edges;
  const selectedEdges = useCallback(() => kind.selectedEdges(edgesRef.current), [kind]);
  const deleteSelection = useMemo(() => {
    const remove = kind.deleteSelection;
    return remove ? (selectedNodeIds: string[]) => remove(edgesRef.current, selectedNodeIds) : undefined;
  }, [kind]);
  useCanvasShortcuts(container, selectedEdges, deleteSelection);
  useZoomVariable(container);
  useKeepPlaceWhenTopMoves(container);

  const { isValidConnection, onConnect, onConnectEnd } = useConnectionHandlers<E>(kind.connections);
  const { onDragOver, onDrop } = usePaletteDrop(kind.palette);

  return (
    <>
      <ProblemBanner problems={problems} of={kind.of} />
      <div className={kind.className} ref={container} data-testid={kind.testId} data-node-count={counts?.nodes} data-edge-count={counts?.edges}>
        <EdgeMarkers />
        <ReactFlow<N, E>
          nodes={nodes}
          edges={edges}
          nodeTypes={kind.nodeTypes}
          edgeTypes={kind.edgeTypes}
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
          <CanvasChrome showMinimap={showMinimap} minimapColor={kind.minimapColor} actions={actions} />
          {children}
        </ReactFlow>
      </div>
    </>
  );
}
