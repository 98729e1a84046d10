const GROWTH = 2 ** 0.25;

/**
 * The scale of a live run's timeline: the smallest of 1 s × 2^(k/4) (k ≥ 0) at or above `ms`. It grows
 * in ~19% steps as the run goes on, so the waterfall bars are not all moved by every event.
 */
export function timelineStep(ms: number): number {
  return 1000 * GROWTH ** Math.max(0, Math.ceil(Math.log(ms / 1000) / Math.log(GROWTH) - 1e-9));
}
