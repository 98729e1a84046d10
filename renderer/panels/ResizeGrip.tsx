import { useRef, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { PANEL_LIMITS, usePanelLayoutStore, type PanelId } from '../stores/panelLayoutStore';

const STEP = 16;
const BIG_STEP = 64;

/**
 * The visible grip between two panels: drag it, or focus it and use the arrow keys (Shift for bigger
 * steps, Home/End for the limits). `grows` is the direction that makes the panel bigger.
 */
export function ResizeGrip({ panel, grows, label }: { panel: PanelId; grows: 'left' | 'right' | 'up'; label: string }) {
  const size = usePanelLayoutStore((s) => s.sizes[panel]);
  const drag = useRef<{ at: number; size: number } | undefined>(undefined);
  const horizontal = grows === 'up';
  const { min, max } = PANEL_LIMITS[panel];
  const resize = (next: number) => usePanelLayoutStore.getState().resize(panel, next);

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    drag.current = { at: horizontal ? e.clientY : e.clientX, size };
    e.currentTarget.setPointerCapture(e.pointerId);
    e.preventDefault();
  };
  const onPointerMove = (e: ReactPointerEvent) => {
    if (!drag.current) return;
    const moved = (horizontal ? e.clientY : e.clientX) - drag.current.at;
    resize(drag.current.size + (grows === 'right' ? moved : -moved));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? BIG_STEP : STEP;
    const bigger = horizontal ? 'ArrowUp' : grows === 'right' ? 'ArrowRight' : 'ArrowLeft';
    const smaller = horizontal ? 'ArrowDown' : grows === 'right' ? 'ArrowLeft' : 'ArrowRight';
    let next: number | undefined;
    if (e.key === bigger) next = size + step;
    else if (e.key === smaller) next = size - step;
    else if (e.key === 'Home') next = min;
    else if (e.key === 'End') next = max;
    if (next === undefined) return;
    e.preventDefault();
    resize(next);
  };

  return (
    <div
      className="resize-grip"
      data-orientation={horizontal ? 'horizontal' : 'vertical'}
      data-testid={`resize-${panel}`}
      role="separator"
      aria-label={label}
      aria-orientation={horizontal ? 'horizontal' : 'vertical'}
      aria-valuenow={size}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      title={`${label} (drag, or arrow keys)`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => (drag.current = undefined)}
      onPointerCancel={() => (drag.current = undefined)}
      onKeyDown={onKeyDown}
    />
  );
}
