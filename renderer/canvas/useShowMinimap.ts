import { useUiStore } from '../stores/uiStore';

/**
 * The minimap redraws on every move of a dragged node; on large crews that alone drops frames
 * (bench:ui at 300 nodes: drag p95 33 ms with it, 17 ms without), so 'auto' hides it above this size.
 */
export const MINIMAP_AUTO_MAX_NODES = 150;
/** Below this size the whole crew fits in view, and the minimap would only cover a node. */
export const MINIMAP_AUTO_MIN_NODES = 40;

export function useShowMinimap(nodeCount: number): boolean {
  const minimap = useUiStore((s) => s.minimap);
  return minimap === 'on' || (minimap === 'auto' && nodeCount >= MINIMAP_AUTO_MIN_NODES && nodeCount <= MINIMAP_AUTO_MAX_NODES);
}
