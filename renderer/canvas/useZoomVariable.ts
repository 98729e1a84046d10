import { useEffect, type RefObject } from 'react';
import { useStoreApi } from '@xyflow/react';

/**
 * Keeps the canvas's zoom in the CSS variable `--canvas-zoom` on `container`, so a style can give a
 * label a fixed size on screen whatever the zoom (`calc(12px / var(--canvas-zoom))`). Set straight on
 * the element: panning and zooming re-render nothing.
 */
export function useZoomVariable(container: RefObject<HTMLElement | null>): void {
  const store = useStoreApi();
  useEffect(() => {
    let last = Number.NaN;
    const apply = (zoom: number) => {
      if (zoom === last) return;
      last = zoom;
      container.current?.style.setProperty('--canvas-zoom', String(zoom));
    };
    apply(store.getState().transform[2]);
    return store.subscribe((s) => apply(s.transform[2]));
  }, [store, container]);
}
