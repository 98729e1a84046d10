/** Small statistics for the benchmarks: order statistics and a memory high-water mark. */

/** Median of the values (mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile: the smallest value with at least p% of the values at or below it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * RSS high-water mark. A zero-latency run is mostly one long chain of microtasks, so a timer alone
 * would rarely get to fire while a run is in progress: callers also call `sample()` from inside the
 * run (the event listener), and the timer covers the gaps between runs.
 */
export class RssSampler {
  peak = 0;
  samples = 0;
  /** Time spent sampling, so its cost on the measured runs can be checked. */
  spentMs = 0;
  private timer: NodeJS.Timeout | undefined;

  start(intervalMs = 5): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  sample(): void {
    const t0 = performance.now();
    const rss = process.memoryUsage.rss();
    this.spentMs += performance.now() - t0;
    this.samples++;
    if (rss > this.peak) this.peak = rss;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.sample();
  }
}

export const MiB = 1024 * 1024;
