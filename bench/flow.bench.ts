/**
 * `npm run bench:flow`: what the flow engine adds on top of the work its methods do.
 *
 * 1. Parallel branches: one start method fans out to 8 listeners, each calling a model that takes
 *    200 ms (the `scripted` provider's `delayMs`); an `and` gate joins them. Target: the flow takes
 *    ≤ 1.25 × 200 ms, i.e. the branches really run at the same time.
 * 2. A chain of 1,000 `set_state` methods (no model at all): the engine's overhead per method,
 *    with every method checkpointed to a real SQLite file (`persist: true`).
 *
 * Options (after `npm run bench:flow --`): --runs N (default 10), --no-write (leave docs/PERFORMANCE.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FlowDocumentSchema, type FlowDocument } from '../shared/model/flow';
import { createRuntime } from '../runtime/runtime';
import { SqliteRunStore } from '../runtime/store/sqliteRunStore';
import { writeGeneratedBlock } from './docBlock';
import { median, percentile } from './stats';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '10' }, 'no-write': { type: 'boolean', default: false } } });
const runs = Number(args.runs);
const BRANCHES = 8;
const LATENCY_MS = 200;
const CHAIN = 1000;

function parallelFlow(): FlowDocument {
  const llm = { provider: 'scripted', model: 'slow', script: { default: { content: 'done', delayMs: LATENCY_MS } } };
  return FlowDocumentSchema.parse({
    kind: 'flow',
    version: 1,
    id: 'fan-out',
    name: 'Fan out',
    maxMethodCalls: 100,
    methods: [
      { id: 'start', name: 'start', trigger: { start: true }, body: { type: 'set_state', set: { started: 'yes' } } },
      ...Array.from({ length: BRANCHES }, (_, i) => ({ id: `b${i}`, name: `b${i}`, trigger: { listen: 'start' }, body: { type: 'llm', prompt: `branch ${i}`, llm } })),
      { id: 'join', name: 'join', trigger: { listen: { and: Array.from({ length: BRANCHES }, (_, i) => `b${i}`) } }, body: { type: 'set_state', set: { joined: 'yes' } } },
    ],
  });
}

function chainFlow(): FlowDocument {
  return FlowDocumentSchema.parse({
    kind: 'flow',
    version: 1,
    id: 'chain',
    name: 'Chain',
    maxMethodCalls: CHAIN + 1,
    persist: true,
    methods: Array.from({ length: CHAIN }, (_, i) => ({
      id: `m${i}`,
      name: `m${i}`,
      trigger: i === 0 ? { start: true } : { listen: `m${i - 1}` },
      body: { type: 'set_state', set: { step: String(i) } },
    })),
  });
}

async function measure(doc: FlowDocument): Promise<number[]> {
  const times: number[] = [];
  for (let i = -1; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-flow-'));
    const store = SqliteRunStore.open(dir);
    try {
      const runtime = createRuntime({ workspace: dir, store });
      const started = performance.now();
      const result = await runtime.runFlow(doc);
      const ms = performance.now() - started;
      if (result.status !== 'completed') throw new Error(`${doc.id}: ${result.status} ${result.error?.message ?? ''}`);
      if (i >= 0) times.push(ms); // the first run warms up
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return times;
}

const load = loadavg()[0];
const parallel = await measure(parallelFlow());
const chain = await measure(chainFlow());
const fmt = (n: number, d = 1) => n.toFixed(d);
const parallelTarget = 1.25 * LATENCY_MS;
const perMethod = chain.map((ms) => ms / CHAIN);
const lines = [
  `- **Date:** ${new Date().toISOString().slice(0, 10)}; ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; 1-minute load ${fmt(load!, 2)} before`,
  `- **Command:** \`npm run bench:flow\` (${runs} measured runs per scenario after one warm-up; every run in a fresh workspace with a real SQLite run store)`,
  '',
  '| scenario | median | p95 | target |',
  '|---|--:|--:|---|',
  `| ${BRANCHES} parallel branches, each a ${LATENCY_MS} ms model call, joined by \`and\` | ${fmt(median(parallel))} ms | ${fmt(percentile(parallel, 95))} ms | ≤ ${parallelTarget} ms: **${percentile(parallel, 95) <= parallelTarget ? 'met' : 'missed'}** (p95) |`,
  `| chain of ${CHAIN} \`set_state\` methods, checkpoint after each | ${fmt(median(chain), 0)} ms (${fmt(median(perMethod), 3)} ms / method) | ${fmt(percentile(chain, 95), 0)} ms (${fmt(percentile(perMethod, 95), 3)} ms / method) | overhead per method (reported) |`,
];
console.log(lines.join('\n'));
if (!args['no-write']) console.log(`\nwrote ${writeGeneratedBlock('flow', '## Flows (npm run bench:flow)', lines.join('\n'))}`);
