import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useReactFlow, type ReactFlowInstance } from '@xyflow/react';
import type { DocumentCommand } from '../commands/command';
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

/** The minimap's size on screen (bottom right of the canvas). */
export const MINIMAP_SIZE = { width: 168, height: 112 };

export const FIT_VIEW_OPTIONS = {
  padding: { top: `${VIEW_INSET.top}px`, right: `${VIEW_INSET.right}px`, bottom: `${VIEW_INSET.bottom}px`, left: `${VIEW_INSET.left}px` },
  maxZoom: 1.1,
} as const;

/**
 * Zoom to fit the whole document, however large: past LOW_DETAIL_ZOOM nodes draw as labelled blocks,
 * and a large crew opens folded by agent into a grid of blocks that fits readable (collapseByAgent's
 * overview). The minimap and Ctrl+K reach the rest.
 */
export function fitWhole(flow: ReactFlowInstance, minimapShown: boolean, duration = 200): void {
  if (flow.getNodes().length === 0) return;
  // The minimap floats at the bottom right: nothing Fit shows goes under it.
  const padding = minimapShown ? { ...FIT_VIEW_OPTIONS.padding, bottom: `${MINIMAP_SIZE.height + 24}px` as const } : FIT_VIEW_OPTIONS.padding;
  void flow.fitView({ ...FIT_VIEW_OPTIONS, padding, duration });
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
  layout?: (sizes: Record<string, Size>) => DocumentCommand | Promise<DocumentCommand | undefined>;
  layoutHint?: string;
  /** Swimlanes (crews): one lane per agent, its tasks in order. */
  lanes?: (sizes: Record<string, Size>) => DocumentCommand;
  /** More controls of this canvas, after the layout ones (crews: engine, collapse, edges). */
  extra?: ReactNode;
}) {
  const flow = useReactFlow();
  const minimapShown = useShowMinimap(nodeCount);
  const fit = (duration = 200) => fitWhole(flow, minimapShown, duration);
  const [busy, setBusy] = useState(false);
  const arrange = async (command: (sizes: Record<string, Size>) => DocumentCommand | Promise<DocumentCommand | undefined>) => {
    const sizes: Record<string, Size> = {};
    for (const node of flow.getNodes()) {
      if (node.measured?.width && node.measured.height) sizes[node.id] = { width: node.measured.width, height: node.measured.height };
    }
    const pending = command(sizes);
    let computed: DocumentCommand | undefined;
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
    fitWhole(flow, minimapShown);
  }, [fitRequest, flow, minimapShown]);
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
