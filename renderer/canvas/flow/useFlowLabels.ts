import { useStore } from '@xyflow/react';

/**
 * Below this zoom a method's own 13 px title would be under 10 px on screen: the method draws only its
 * name, at a fixed size on screen (flow.css, `--canvas-zoom`), in full — the flow's label layer.
 */
export const FLOW_LABEL_ZOOM = 0.77;

/** True while method names are drawn as screen-sized labels (re-renders only when that flips). */
export function useFlowLabels(): boolean {
  return useStore((s) => s.transform[2] < FLOW_LABEL_ZOOM);
}
