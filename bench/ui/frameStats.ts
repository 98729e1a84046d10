import { median, percentile } from '../stats';
import type { LongTask, Recording } from './pageProbes';

/** Intervals between consecutive requestAnimationFrame timestamps. */
export function frameIntervals(frames: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < frames.length; i++) out.push(frames[i]! - frames[i - 1]!);
  return out;
}

export interface IntervalSummary {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

export function summariseIntervals(intervals: readonly number[]): IntervalSummary {
  return { count: intervals.length, p50: median(intervals), p95: percentile(intervals, 95), max: intervals.length ? Math.max(...intervals) : NaN };
}

export interface LongTaskSummary {
  count: number;
  maxMs: number;
  totalMs: number;
}

/** Long tasks overlapping [from, to] (page time). */
export function longTasksBetween(tasks: readonly LongTask[], from: number, to: number): LongTaskSummary {
  const inside = tasks.filter((t) => t.start + t.duration > from && t.start < to);
  return { count: inside.length, maxMs: inside.length ? Math.max(...inside.map((t) => t.duration)) : 0, totalMs: inside.reduce((a, t) => a + t.duration, 0) };
}

export function recordingLongTasks(r: Recording): LongTaskSummary {
  return longTasksBetween(r.longTasks, r.start, r.end);
}
