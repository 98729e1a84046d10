import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useReactFlow, useStoreApi, type ReactFlowInstance } from '@xyflow/react';
import type { Command } from '../commands/command';
import { layoutAll } from '../commands/layoutAll';
import { useDocumentStore } from '../stores/documentStore';
import { useUiStore } from '../stores/uiStore';
import type { Size } from '../model/nodeSizes';
import { useShowMinimap } from './useShowMinimap';
import { FitIcon, LayoutIcon } from './icons';

/**
 * What the floating controls cover at the canvas's edges (the actions at the top right, the zoom
 * buttons at the bottom left): Fit and revealing a new node keep nodes and their run badges clear of
 * them. The problems banner sits above the canvas, outside it.
 */
export const VIEW_INSET = { top: 64, right: 32, bottom: 32, left: 72 } as const;

export const FIT_VIEW_OPTIONS = {
  padding: { top: `${VIEW_INSET.top}px`, right: `${VIEW_INSET.right}px`, bottom: `${VIEW_INSET.bottom}px`, left: `${VIEW_INSET.left}px` },
  maxZoom: 1.1,
} as const;

/**
 * The lowest zoom Fit goes to: node titles (13 px) stay at least 9 px on screen. A crew too large to
 * fit at it is shown from its top-left corner at this zoom (the minimap and Ctrl+K find the rest).
 */
export const READABLE_ZOOM = 0.7;

const READABLE_FIT_MIN_NODES = 40;

/** Zoom to fit, but on large documents never below READABLE_ZOOM. */
export function fitReadable(flow: ReactFlowInstance, width: number, height: number, duration = 200): void {
  const nodes = flow.getNodes();
  if (nodes.length === 0) return;
  const bounds = flow.getNodesBounds(nodes);
  const zoomX = (width - VIEW_INSET.left - VIEW_INSET.right) / Math.max(1, bounds.width);
  const zoomY = (height - VIEW_INSET.top - VIEW_INSET.bottom) / Math.max(1, bounds.height);
  // Small documents always fit whole; large ones (40+ nodes) stop at the readable zoom.
  if (nodes.length < READABLE_FIT_MIN_NODES || Math.min(zoomX, zoomY) >= READABLE_ZOOM) {
    void flow.fitView({ ...FIT_VIEW_OPTIONS, duration });
    return;
  }
  const zoom = READABLE_ZOOM;
  // Centred across when it fits across; else from the left edge. Always from the top.
  const x = zoomX >= zoom ? (width - bounds.width * zoom) / 2 - bounds.x * zoom : VIEW_INSET.left - bounds.x * zoom;
  void flow.setViewport({ x, y: VIEW_INSET.top - bounds.y * zoom, zoom }, { duration });
}

/** Auto-layout and zoom-to-fit, floating at the canvas's top right; crews also get swimlanes. */
export function CanvasActions({
  nodeCount,
  layout = layoutAll,
  layoutHint = 'Arrange tasks in order with their agents beside them',
  lanes,
  extra,
}: {
  nodeCount: number;
  /** The auto-layout command; a promise when it is computed off the UI thread (ELK's worker). */
  layout?: (sizes: Record<string, Size>) => Command | Promise<Command | undefined>;
  layoutHint?: string;
  /** Swimlanes (crews): one lane per agent, its tasks in order. */
  lanes?: (sizes: Record<string, Size>) => Command;
  /** More controls of this canvas, after the layout ones (crews: engine, collapse, edges). */
  extra?: ReactNode;
}) {
  const flow = useReactFlow();
  const store = useStoreApi();
  const minimapShown = useShowMinimap(nodeCount);
  const fit = (duration = 200) => fitReadable(flow, store.getState().width, store.getState().height, duration);
  const [busy, setBusy] = useState(false);
  const arrange = async (command: (sizes: Record<string, Size>) => Command | Promise<Command | undefined>) => {
    const sizes: Record<string, Size> = {};
    for (const node of flow.getNodes()) {
      if (node.measured?.width && node.measured.height) sizes[node.id] = { width: node.measured.width, height: node.measured.height };
    }
    const pending = command(sizes);
    let computed: Command | undefined;
    if (pending instanceof Promise) {
      setBusy(true);
      try {
        computed = await pending;
      } finally {
        setBusy(false);
      }
    } else computed = pending;
    if (!computed) return;
    const result = useDocumentStore.getState().perform(computed);
    if (result.ok) requestAnimationFrame(() => fit(250));
  };
  const autoLayout = () => void arrange(layout);
  // View → Fit View in the desktop app's menu.
  const fitRequest = useUiStore((s) => s.fitViewRequest);
  const seenRequest = useRef(fitRequest);
  useEffect(() => {
    if (fitRequest === seenRequest.current) return;
    seenRequest.current = fitRequest;
    fitReadable(flow, store.getState().width, store.getState().height);
  }, [fitRequest, flow, store]);
  return (
    <div className="canvas-actions" role="toolbar" aria-label="Canvas">
      <button type="button" className="canvas-action" onClick={autoLayout} title={layoutHint} disabled={busy} aria-busy={busy} data-testid="canvas-auto-layout">
        <LayoutIcon />
        {busy ? 'Laying out…' : 'Auto-layout'}
      </button>
      {lanes && (
        <button type="button" className="canvas-action" onClick={() => void arrange(lanes)} title="One lane per agent with its tasks in order: for large crews" data-testid="canvas-swimlanes">
          Swimlanes
        </button>
      )}
      <button
        type="button"
        className="canvas-action"
        onClick={() => fit()}
        title="Zoom to fit (never so far that labels cannot be read)"
        data-testid="canvas-fit-view"
      >
        <FitIcon />
        Fit
      </button>
      <button
        type="button"
        className="canvas-action"
        aria-pressed={minimapShown}
        onClick={() => useUiStore.getState().setMinimap(minimapShown ? 'off' : 'on')}
        title={minimapShown ? 'Hide the minimap' : 'Show the minimap (hidden by default on large crews: it slows dragging)'}
        data-testid="canvas-minimap"
      >
        Minimap
      </button>
      {extra}
    </div>
  );
}
