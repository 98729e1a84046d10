/** Shared by the bench:scale parts: CPU time of this process, interleaved pairs, ratios. */
import { median, percentile } from '../stats';

/** User + system CPU of this process while `work` runs, in ms (work in other processes is not counted). */
export async function cpuMs<T>(work: () => Promise<T> | T): Promise<{ ms: number; wallMs: number; value: T }> {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const value = await work();
  const c = process.cpuUsage(c0);
  return { ms: (c.user + c.system) / 1000, wallMs: performance.now() - w0, value };
}

export interface Pair {
  measured: number[];
  floor: number[];
}

/** `rounds` pairs of (measured, floor), alternating which goes first; the first `warmup` pairs are dropped. */
export async function interleaved(rounds: number, warmup: number, measured: () => Promise<number>, floor: () => Promise<number>): Promise<Pair> {
  const pair: Pair = { measured: [], floor: [] };
  for (let i = 0; i < warmup + rounds; i++) {
    const order = i % 2 === 0 ? ([measured, floor] as const) : ([floor, measured] as const);
    const a = await order[0]();
    const b = await order[1]();
    if (i < warmup) continue;
    const [m, f] = i % 2 === 0 ? [a, b] : [b, a];
    pair.measured.push(m);
    pair.floor.push(f);
  }
  return pair;
}

export const ratio = (p: Pair) => median(p.measured) / median(p.floor);
export const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : '—');
export const verdict = (value: number, target: number) => `${value <= target ? '**met**' : '**missed**'} (≤ ${target}×)`;
export { median, percentile };
export const log = (msg: string) => process.stderr.write(`${msg}\n`);
