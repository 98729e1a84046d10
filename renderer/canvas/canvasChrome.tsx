import { Controls, MiniMap, Panel, type FinalConnectionState, type Node, type ReactFlowProps } from '@xyflow/react';
import { CanvasActions, FIT_VIEW_OPTIONS, MINIMAP_SIZE } from './CanvasActions';
import { CanvasBackground } from './CanvasBackground';
import { useKeepFitOnShrink, useRevealAdded, useRevealOnRequest } from './useRevealAdded';
import { RejectionToast } from './RejectionToast';

/** The React Flow settings both canvases share (spread onto `<ReactFlow>`). */
export const CANVAS_PROPS = {
  deleteKeyCode: null,
  selectionKeyCode: 'Shift',
  multiSelectionKeyCode: ['Shift', 'Meta', 'Control'] as string[],
  connectionRadius: 28,
  fitViewOptions: FIT_VIEW_OPTIONS,
  minZoom: 0.02,
  maxZoom: 2,
  // Large crews: nodes and edges out of view are not mounted (bench:ui, 300-node crew).
  onlyRenderVisibleElements: true,
  proOptions: { hideAttribution: true },
} satisfies Partial<ReactFlowProps>;

/** What surrounds the nodes on both canvases: background, minimap, zoom controls, actions, rejections (the problems banner docks above the canvas: ProblemBanner). */
export function CanvasChrome(props: {
  showMinimap: boolean;
  minimapColor: (node: Node) => string;
  actions: Parameters<typeof CanvasActions>[0];
}) {
  useRevealAdded();
  useRevealOnRequest();
  useKeepFitOnShrink();
  return (
    <>
      <CanvasBackground />
      {props.showMinimap && <MiniMap pannable zoomable style={MINIMAP_SIZE} nodeColor={props.minimapColor} nodeStrokeWidth={0} className="crew-minimap" ariaLabel="Minimap" />}
      {/* One Fit control: the actions' Fit (the zoom buttons keep + and − only). */}
      <Controls showInteractive={false} showFitView={false} className="crew-controls" />
      <Panel position="top-right">
        <CanvasActions {...props.actions} />
      </Panel>
      <Panel position="bottom-center">
        <RejectionToast />
      </Panel>
    </>
  );
}

/** The node a connection was dropped on (its body, not only its handle), other than the one it started from. */
export function droppedOnNode(event: MouseEvent | TouchEvent, state: FinalConnectionState): string | undefined {
  if (!state.fromNode) return undefined;
  const point = 'changedTouches' in event ? event.changedTouches[0] : event;
  const element = point ? document.elementFromPoint(point.clientX, point.clientY) : null;
  const over = state.toNode?.id ?? element?.closest('.react-flow__node')?.getAttribute('data-id') ?? undefined;
  return over && over !== state.fromNode.id ? over : undefined;
}
