import { useStore } from '@xyflow/react';

/** Below this zoom, node text is unreadable: nodes draw a simplified body (much cheaper for big crews). */
export const LOW_DETAIL_ZOOM = 0.45;

/** True while the canvas is zoomed out past LOW_DETAIL_ZOOM (re-renders only when that flips). */
export function useLowDetail(): boolean {
  return useStore((s) => s.transform[2] < LOW_DETAIL_ZOOM);
}
