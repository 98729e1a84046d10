import { useEffect, useRef } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { Command } from '../commands/command';
import { layoutAll } from '../commands/layoutAll';
import { useDocumentStore } from '../stores/documentStore';
import { useUiStore } from '../stores/uiStore';
import type { Size } from '../model/nodeSizes';
import { useShowMinimap } from './useShowMinimap';
import { FitIcon, LayoutIcon } from './icons';

/**
 * What the floating controls cover at the canvas's edges (the actions at the top right, the zoom
 * buttons at the bottom left, the problems banner at the top left): Fit and revealing a new node keep
 * nodes and their run badges clear of them.
 */
export const VIEW_INSET = { top: 64, right: 32, bottom: 32, left: 72 } as const;

export const FIT_VIEW_OPTIONS = {
  padding: { top: `${VIEW_INSET.top}px`, right: `${VIEW_INSET.right}px`, bottom: `${VIEW_INSET.bottom}px`, left: `${VIEW_INSET.left}px` },
  maxZoom: 1.1,
} as const;

/** Auto-layout and zoom-to-fit, floating at the canvas's top right. */
export function CanvasActions({ nodeCount, layout = layoutAll, layoutHint = 'Arrange tasks in order with their agents beside them' }: { nodeCount: number; layout?: (sizes: Record<string, Size>) => Command; layoutHint?: string }) {
  const flow = useReactFlow();
  const minimapShown = useShowMinimap(nodeCount);
  const autoLayout = () => {
    const sizes: Record<string, Size> = {};
    for (const node of flow.getNodes()) {
      if (node.measured?.width && node.measured.height) sizes[node.id] = { width: node.measured.width, height: node.measured.height };
    }
    const result = useDocumentStore.getState().perform(layout(sizes));
    if (result.ok) requestAnimationFrame(() => void flow.fitView({ ...FIT_VIEW_OPTIONS, duration: 250 }));
  };
  // View → Fit View in the desktop app's menu.
  const fitRequest = useUiStore((s) => s.fitViewRequest);
  const seenRequest = useRef(fitRequest);
  useEffect(() => {
    if (fitRequest === seenRequest.current) return;
    seenRequest.current = fitRequest;
    void flow.fitView({ ...FIT_VIEW_OPTIONS, duration: 200 });
  }, [fitRequest, flow]);
  return (
    <div className="canvas-actions" role="toolbar" aria-label="Canvas">
      <button type="button" className="canvas-action" onClick={autoLayout} title={layoutHint} data-testid="canvas-auto-layout">
        <LayoutIcon />
        Auto-layout
      </button>
      <button
        type="button"
        className="canvas-action"
        onClick={() => void flow.fitView({ ...FIT_VIEW_OPTIONS, duration: 200 })}
        title="Zoom to fit"
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
    </div>
  );
}
