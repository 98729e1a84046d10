/**
 * The HTTP figure of `npm run bench:runtime`: the same 200-task sequential workload as bench:peers' W1
 * (bench/peers/frameworks), run by Crewdeck through the real `openai` provider (streaming, every event
 * in SQLite) and by the bare openai SDK making the same streamed calls in a loop, both against the
 * zero-latency server of bench/peers on 127.0.0.1, in its own process. The two are interleaved run by
 * run in this one process, so the ratio compares like with like under the same load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as crewdeck from './peers/frameworks/crewdeck';
import * as bareSdk from './peers/frameworks/floorSdk.mjs';
import { TASKS } from './peers/frameworks/workloads.mjs';
import { median, percentile } from './stats';

export interface HttpPathFigures {
  tasks: number;
  runs: number;
  crewdeckPerTaskMs: number[];
  sdkPerTaskMs: number[];
  /** Per run pair: Crewdeck's per-task time / the SDK's in the run next to it. */
  pairRatios: number[];
  crewdeckMedianMs: number;
  crewdeckP95Ms: number;
  sdkMedianMs: number;
  sdkP95Ms: number;
  /** Median of Crewdeck's runs / median of the SDK's. */
  ratio: number;
  /** Issue 19's target: Crewdeck ≤ this × the bare SDK per task. */
  targetRatio: number;
}

export const HTTP_TARGET_RATIO = 1.2;

const here = dirname(fileURLToPath(import.meta.url));

/** The zero-latency server in a process of its own, so it does not share the measured event loop. */
async function startServer(): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(here, 'peers', 'zeroServer.mjs'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    lines.once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`the zero-latency server exited (${code}) before listening`)));
  });
  if (!/^http:\/\/127\.0\.0\.1:\d+\/v1$/.test(baseUrl)) throw new Error(`the zero-latency server printed ${JSON.stringify(baseUrl)}, not a loopback URL`);
  return { baseUrl, child };
}

export async function measureHttpPath(options: { runs: number; warmup: number; tasks?: number }): Promise<HttpPathFigures> {
  const tasks = options.tasks ?? TASKS;
  const { baseUrl, child } = await startServer();
  const crewdeckPerTaskMs: number[] = [];
  const sdkPerTaskMs: number[] = [];
  const pairRatios: number[] = [];
  const time = async (run: () => Promise<string>): Promise<number> => {
    const t0 = performance.now();
    const output = await run();
    const ms = performance.now() - t0;
    if (!/FINAL/.test(output)) throw new Error(`unexpected output from the zero-latency server: ${JSON.stringify(output.slice(0, 200))}`);
    return ms / tasks;
  };
  try {
    for (let i = 0; i < options.warmup + options.runs; i++) {
      // Alternate which goes first, so neither always runs right after the other's garbage.
      const order = i % 2 === 0 ? (['crewdeck', 'sdk'] as const) : (['sdk', 'crewdeck'] as const);
      const pair: Record<string, number> = {};
      for (const who of order) {
        pair[who] = await time(() => (who === 'crewdeck' ? crewdeck.sequential(baseUrl, tasks) : bareSdk.sequential(baseUrl, tasks)));
      }
      if (i < options.warmup) continue;
      crewdeckPerTaskMs.push(pair.crewdeck!);
      sdkPerTaskMs.push(pair.sdk!);
      pairRatios.push(pair.crewdeck! / pair.sdk!);
    }
  } finally {
    child.kill();
  }
  const crewdeckMedianMs = median(crewdeckPerTaskMs);
  const sdkMedianMs = median(sdkPerTaskMs);
  return {
    tasks,
    runs: options.runs,
    crewdeckPerTaskMs,
    sdkPerTaskMs,
    pairRatios,
    crewdeckMedianMs,
    crewdeckP95Ms: percentile(crewdeckPerTaskMs, 95),
    sdkMedianMs,
    sdkP95Ms: percentile(sdkPerTaskMs, 95),
    ratio: crewdeckMedianMs / sdkMedianMs,
    targetRatio: HTTP_TARGET_RATIO,
  };
}
