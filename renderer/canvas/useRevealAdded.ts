import { useEffect, useRef } from 'react';
import { useReactFlow, useStore, useStoreApi } from '@xyflow/react';
import { VIEW_INSET } from './CanvasActions';

/**
 * Keeps the work in view: a node the person adds (palette click or drop, paste, the Manager that
 * hierarchical brings) that is not fully inside the visible canvas — less the floating controls —
 * is panned to (zooming out only if it is larger than the view). Opening a document is not an add,
 * nor is a node shown again (tasks unfolded from their agent, collapseByAgent): only ids new since the
 * document opened count.
 */
export function useRevealAdded(): void {
  const flow = useReactFlow();
  const store = useStoreApi();
  const ids = useStore((s) => s.nodes.map((n) => n.id).join('\n'));
  const known = useRef<Set<string> | undefined>(undefined);
  const seen = useRef(new Set<string>());

  useEffect(() => {
    const current = new Set(ids ? ids.split('\n') : []);
    const previous = known.current;
    known.current = current;
    const opened = !previous || previous.size === 0 || ![...current].some((id) => previous.has(id));
    if (opened) seen.current = new Set();
    const added = [...current].filter((id) => !previous?.has(id) && !seen.current.has(id));
    for (const id of current) seen.current.add(id);
    // Nothing shared with before: another document was opened.
    if (opened || added.length === 0) return;
    let frames = 0;
    let handle = 0;
    const reveal = () => {
      const nodes = added.map((id) => flow.getInternalNode(id)).filter((n) => n !== undefined);
      // Wait (a few frames at most) for React Flow to measure the new nodes.
      if (nodes.some((n) => !n.measured.width) && frames++ < 10) {
        handle = requestAnimationFrame(reveal);
        return;
      }
      const { x, y, zoom } = flow.getViewport();
      const pane = store.getState();
      const view = {
        left: (VIEW_INSET.left - x) / zoom,
        top: (VIEW_INSET.top - y) / zoom,
        right: (pane.width - VIEW_INSET.right - x) / zoom,
        bottom: (pane.height - VIEW_INSET.bottom - y) / zoom,
      };
      // The smallest pan that brings every added node inside the view (the rest of the canvas moves least).
      let left = Infinity;
      let top = Infinity;
      let right = -Infinity;
      let bottom = -Infinity;
      for (const n of nodes) {
        const p = n.internals.positionAbsolute;
        left = Math.min(left, p.x);
        top = Math.min(top, p.y);
        right = Math.max(right, p.x + (n.measured.width ?? 0));
        bottom = Math.max(bottom, p.y + (n.measured.height ?? 0));
      }
      if (right - left > view.right - view.left || bottom - top > view.bottom - view.top) {
        void flow.fitView({ nodes: added.map((id) => ({ id })), padding: FIT_PADDING_PX, maxZoom: zoom, duration: 200 });
        return;
      }
      const dx = left < view.left ? left - view.left : right > view.right ? right - view.right : 0;
      const dy = top < view.top ? top - view.top : bottom > view.bottom ? bottom - view.bottom : 0;
      if (dx !== 0 || dy !== 0) void flow.setViewport({ x: x - dx * zoom, y: y - dy * zoom, zoom }, { duration: 200 });
    };
    handle = requestAnimationFrame(reveal);
    return () => cancelAnimationFrame(handle);
  }, [ids, flow, store]);
}

/** Dispatched on window with a node id (the command palette): pan to that node. */
export const REVEAL_NODE_EVENT = 'crewdeck:reveal-node';

/** Pans to a node asked for by REVEAL_NODE_EVENT, keeping the zoom readable. */
export function useRevealOnRequest(): void {
  const flow = useReactFlow();
  useEffect(() => {
    const onReveal = (event: Event) => {
      const id = (event as CustomEvent<string>).detail;
      if (!flow.getInternalNode(id)) return;
      void flow.fitView({ nodes: [{ id }], padding: FIT_PADDING_PX, minZoom: 0.8, maxZoom: Math.max(0.8, flow.getViewport().zoom), duration: 200 });
    };
    window.addEventListener(REVEAL_NODE_EVENT, onReveal);
    return () => window.removeEventListener(REVEAL_NODE_EVENT, onReveal);
  }, [flow]);
}

const FIT_PADDING_PX = { top: `${VIEW_INSET.top}px`, right: `${VIEW_INSET.right}px`, bottom: `${VIEW_INSET.bottom}px`, left: `${VIEW_INSET.left}px` } as const;

/**
 * The canvas got shorter (the run panel opened with a run): a small document is fitted again, never
 * zoomed in, so no node — the Manager below, a run badge — drops out of view.
 */
export function useKeepFitOnShrink(): void {
  const flow = useReactFlow();
  const height = useStore((s) => s.height);
  const previous = useRef(height);
  useEffect(() => {
    const before = previous.current;
    previous.current = height;
    if (!(height < before) || flow.getNodes().length >= 40) return;
    void flow.fitView({ padding: FIT_PADDING_PX, maxZoom: Math.min(1.1, flow.getViewport().zoom), duration: 150 });
  }, [height, flow]);
}
