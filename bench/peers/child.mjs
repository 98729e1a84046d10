// One measurement in a fresh process: `node [--import tsx] --import ./loopbackOnly.mjs child.mjs
// <framework module> <workload> <baseUrl>`. Warms up on a small run of the same workload, measures one
// full run and prints {ms, maxRssMiB} as JSON on the last line of stdout.
import { DELEGATIONS, PARALLEL, TASKS } from './frameworks/workloads.mjs';

const [modulePath, workload, baseUrl] = process.argv.slice(2);
const fw = await import(modulePath);

const runs = {
  W1: (n) => fw.sequential(baseUrl, n ?? TASKS, false),
  W2: (n) => fw.sequential(baseUrl, n ?? TASKS, true),
  W3: (n) => fw.delegation(baseUrl, n ?? DELEGATIONS),
  W6: () => fw.parallel(baseUrl, PARALLEL),
};
const run = runs[workload];
if (!run) throw new Error(`unknown workload ${workload}`);

// Warm-up: module loading, JIT and connection setup are not what W1–W3/W6 measure (W4 does).
await run(workload === 'W6' ? undefined : 8);
const t0 = performance.now();
const output = await run();
const ms = performance.now() - t0;
if (!/FINAL/.test(String(output))) throw new Error(`${fw.name} ${workload}: unexpected output ${JSON.stringify(String(output).slice(0, 200))}`);
process.stdout.write(`\n${JSON.stringify({ ms, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
process.exit(0);
