import { useEffect, type RefObject } from 'react';
import { useReactFlow } from '@xyflow/react';

/**
 * A banner above the canvas comes or goes (the problem banner once the first node is dropped, the trust
 * banner): the canvas's top edge moves and, with it, everything drawn on it. The viewport moves by the
 * same amount the other way, so nodes stay where they are on screen — the method just dropped stays
 * under the pointer.
 */
export function useKeepPlaceWhenTopMoves(container: RefObject<HTMLElement | null>): void {
  const flow = useReactFlow();
  useEffect(() => {
    const element = container.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    let top = element.getBoundingClientRect().top;
    const observer = new ResizeObserver(() => {
      const now = element.getBoundingClientRect().top;
      const moved = now - top;
      top = now;
      if (moved === 0) return;
      const { x, y, zoom } = flow.getViewport();
      void flow.setViewport({ x, y: y - moved, zoom });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [flow, container]);
}
