import { useEffect, useRef } from 'react';
import { useStoreApi } from '@xyflow/react';

/** Dot spacing at zoom 1, in canvas pixels. */
export const DOT_GAP = 18;
/** The closest the dots come on screen: zoomed out further, every other one is dropped. */
const MIN_SCREEN_GAP = DOT_GAP / 2;

/**
 * How many times the dot spacing is scaled at `zoom`: 1 from zoom 0.5 up, then a power of two that keeps the
 * dots 9–18 px apart on screen (at a fixed scale they came 2 px apart and 0.1 px wide zoomed out to fit a
 * large crew: a grey haze that told nothing about position).
 */
export function dotGridScale(zoom: number): number {
  if (!(zoom > 0) || DOT_GAP * zoom >= MIN_SCREEN_GAP) return 1;
  return 2 ** Math.ceil(Math.log2(MIN_SCREEN_GAP / (DOT_GAP * zoom)));
}

/** The grid's tile (one dot, at its centre) and dot radius on screen at a viewport `[x, y, zoom]`. */
export function dotGridStyle([x, y, zoom]: readonly [number, number, number]): { size: number; x: number; y: number; radius: number } {
  const scale = dotGridScale(zoom);
  const size = DOT_GAP * scale * zoom;
  // Dots sit on multiples of the spacing in canvas coordinates; the tile is centred on one.
  return { size, x: x - size / 2, y: y - size / 2, radius: (scale * zoom) / 2 };
}

/**
 * The canvas's dot grid, a CSS background of the pane (canvas.css `.crew-canvas-background`) that follows pan
 * and zoom by style writes, without a render. React Flow's own `<Background>` is an SVG pattern, which
 * Chromium rasterised again in every tile a change touched: during a live run, with the nodes' status
 * changes, that was a fifth of the renderer's work and most of the late frames (bench:ui, issue 19).
 */
export function CanvasBackground() {
  const ref = useRef<HTMLDivElement>(null);
  const store = useStoreApi();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let last: readonly number[] = [];
    const apply = (transform: readonly [number, number, number]) => {
      if (transform.every((v, i) => v === last[i])) return;
      last = transform;
      const grid = dotGridStyle(transform);
      el.style.backgroundSize = `${grid.size}px ${grid.size}px`;
      el.style.backgroundPosition = `${grid.x}px ${grid.y}px`;
      el.style.setProperty('--dot-radius', `${grid.radius}px`);
    };
    apply(store.getState().transform);
    return store.subscribe((s) => apply(s.transform));
  }, [store]);
  return <div ref={ref} className="react-flow__background crew-canvas-background" data-testid="canvas-background" aria-hidden />;
}
