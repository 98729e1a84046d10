/**
 * The signal an agent runs under: the run's, and a timer's when the agent has `maxExecutionTimeMs`.
 * `timedOut`: whether the timer fired; `dispose` stops it.
 */
export function executionSignal(outer: AbortSignal, limitMs: number | undefined): { signal: AbortSignal; dispose: () => void; timedOut: () => boolean } {
  if (limitMs === undefined) return { signal: outer, dispose: () => {}, timedOut: () => false };
  const timer = new AbortController();
  let fired = false;
  const handle = setTimeout(() => {
    fired = true;
    timer.abort(new Error(`maximum execution time of ${limitMs} ms exceeded`));
  }, limitMs);
  return { signal: AbortSignal.any([outer, timer.signal]), dispose: () => clearTimeout(handle), timedOut: () => fired };
}
