/**
 * `npm run bench:runtime`: framework overhead of the crew runtime.
 *
 * First the HTTP figure (bench/httpPath.ts): 200 sequential tasks through the real `openai` provider
 * against a zero-latency server on 127.0.0.1, beside the bare openai SDK making the same streamed calls,
 * interleaved. Then the scripted crews: the `scripted` provider with no delay, so model time is zero by
 * construction and the wall time of a run is framework time: prompt assembly, the agent loop, the
 * policy gate and tools, guardrails, delegation, the event log and the SQLite run store (a real file in
 * a temp workspace).
 *
 * Options (after `npm run bench:runtime --`): --runs N (measured, default 10), --warmup N (default 2),
 * --http-runs N (HTTP run pairs, default 7), --only <scenario id | http | calculator>, --no-write (do not update
 * docs/PERFORMANCE.md), --profile <file.cpuprofile>
 * (with --only: a CPU profile of the measured runs only, 100 µs sampling; summarise it with
 * `node --import tsx bench/cpuProfileSummary.ts <file>`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CrewDocument } from '../shared/model/crew';
import type { RuntimeEvent } from '../shared/events';
import { createRuntime } from '../runtime/runtime';
import { BoundedMath } from '../runtime/tools/boundedMath';
import { calculatorReady, calculatorTool, warmUpCalculator } from '../runtime/tools/calculator';
import { SqliteRunStore } from '../runtime/store/sqliteRunStore';
import { hierarchicalCrew, sequentialCrew, type Expectations } from './crews';
import { measureHttpPath, type HttpPathFigures } from './httpPath';
import { FIRST_CALL_EXPRESSIONS, measureFirstCalculatorCall } from './calculatorFirstCall';
import { writeRuntimeSection, type BenchReport, type CalculatorFigures, type ScenarioResult } from './performanceDoc';
import { median, MiB, percentile, RssSampler } from './stats';

const TARGET_MS_PER_TASK = 1;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    only: { type: 'string' },
    'http-runs': { type: 'string', default: '7' },
    'no-write': { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const measuredRuns = Number(args.runs);
const warmupRuns = Number(args.warmup);

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('Run with --expose-gc (npm run bench:runtime does).');
  process.exit(2);
}

interface Scenario {
  id: string;
  label: string;
  /** Counted against the target (diagnostic scenarios are reported but not judged). */
  judged: boolean;
  /** 'none' runs the same crew without a run store, to show what persistence costs. */
  store: 'sqlite' | 'none';
  build: () => { doc: CrewDocument; expect: Expectations };
}

const SCENARIOS: Scenario[] = [
  {
    id: 'sequential-200',
    label: 'sequential, 200 tasks (context: previous task)',
    judged: true,
    store: 'sqlite',
    build: () => sequentialCrew({ tasks: 200, context: 'previous' }),
  },
  {
    id: 'hierarchical-20',
    label: 'hierarchical, 20 tasks (manager delegates each)',
    judged: true,
    store: 'sqlite',
    build: () => hierarchicalCrew(20),
  },
  {
    id: 'sequential-200-allctx',
    label: 'diagnostic: sequential, 200 tasks, default context (all earlier outputs)',
    judged: false,
    store: 'sqlite',
    build: () => sequentialCrew({ tasks: 200, context: 'all' }),
  },
  {
    id: 'sequential-200-nostore',
    label: 'diagnostic: sequential, 200 tasks, no run store',
    judged: false,
    store: 'none',
    build: () => sequentialCrew({ tasks: 200, context: 'previous' }),
  },
  {
    id: 'hierarchical-20-nostore',
    label: 'diagnostic: hierarchical, 20 tasks, no run store',
    judged: false,
    store: 'none',
    build: () => hierarchicalCrew(20),
  },
];

/** CPU profile of the measured runs only (start-up, module loading and warm-ups excluded). */
class MeasuredRunsProfiler {
  private session: Session | undefined;
  constructor(private readonly file: string | undefined) {}

  async start(): Promise<void> {
    if (!this.file || this.session) return;
    this.session = new Session();
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: 100 });
    await this.session.post('Profiler.start');
  }

  async stop(): Promise<void> {
    if (!this.file || !this.session) return;
    const { profile } = await this.session.post('Profiler.stop');
    writeFileSync(this.file, JSON.stringify(profile));
    this.session.disconnect();
    process.stderr.write(`CPU profile of the measured runs: ${this.file}\n`);
  }
}

async function runScenario(scenario: Scenario, sampler: RssSampler, profiler: MeasuredRunsProfiler): Promise<ScenarioResult> {
  const { doc, expect } = scenario.build();
  const dir = mkdtempSync(join(tmpdir(), `crewdeck-bench-${scenario.id}-`));
  const store = scenario.store === 'sqlite' ? SqliteRunStore.open(dir) : undefined;
  const runtime = createRuntime({ workspace: dir, store });
  const perTaskMs: number[] = [];
  const wallMs: number[] = [];
  const taskTsMs: number[] = [];
  const taskHrMs: number[] = [];
  let heapEnd = NaN;
  let samplingMs = 0;
  let events = 0;
  let eventBytes = 0;
  const peakBefore = sampler.peak;
  sampler.peak = 0;
  sampler.sample();
  // RSS is read before and after every run, on every 1024th event and by a 5 ms timer (which rarely
  // gets a turn during a zero-latency run). Reading it costs ~10-100 µs on this VM, so not more often;
  // getrusage's maxRSS (the kernel's own high-water mark, per process) is reported as a cross-check.
  // No GC is forced between runs: a full GC right before a run made that run's scavenges several
  // times slower (15-20 ms instead of 2-3 ms) and inflated the figures. The heap is measured once,
  // after all of a crew's runs.

  // Runs go back to back; reading back and checking the stored events happens after the last one,
  // so it neither sits between measured runs nor shows in the --profile.
  const finished: { runId: string; delivered: number; events: RuntimeEvent[] }[] = [];
  try {
    for (let run = 0; run < warmupRuns + measuredRuns; run++) {
      const measured = run >= warmupRuns;
      const startedAt = new Map<string, number>();
      const hr: number[] = [];
      const seen: RuntimeEvent[] = [];
      let delivered = 0;
      const onEvent = (e: RuntimeEvent) => {
        delivered++;
        if (!store) seen.push(e);
        if ((delivered & 1023) === 0) sampler.sample();
        if (e.type === 'task.started') startedAt.set(e.taskId, performance.now());
        else if (e.type === 'task.completed') hr.push(performance.now() - (startedAt.get(e.taskId) ?? NaN));
      };

      if (run === warmupRuns) await profiler.start();
      sampler.sample();
      const samplingBefore = sampler.spentMs;
      const t0 = performance.now();
      const result = await runtime.runCrew(doc, { onEvent });
      const elapsed = performance.now() - t0;
      if (measured) samplingMs += sampler.spentMs - samplingBefore;
      sampler.sample();

      if (result.status !== 'completed') throw new Error(`${scenario.id} run ${run + 1} ${result.status}: ${result.error?.message}`);
      finished.push({ runId: result.runId, delivered, events: seen });
      if (!measured) continue;
      wallMs.push(elapsed);
      perTaskMs.push(elapsed / expect.tasks);
      taskHrMs.push(...hr);
    }
    await profiler.stop();

    finished.forEach((f, run) => {
      // With a store, the figures come from what was persisted; without one, from what was emitted.
      const stored = store ? store.events(f.runId) : f.events;
      check(scenario.id, stored, f.delivered, expect);
      if (run < warmupRuns) return;
      taskTsMs.push(...taskDurationsFromTs(stored));
      events += stored.length;
      for (const e of stored) eventBytes += JSON.stringify(e).length;
    });
    finished.length = 0;
    gc!();
    heapEnd = process.memoryUsage().heapUsed;
  } finally {
    store?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const peakRss = sampler.peak;
  sampler.peak = Math.max(peakBefore, peakRss);

  const medianPerTask = median(perTaskMs);
  return {
    id: scenario.id,
    label: scenario.label,
    judged: scenario.judged,
    tasks: expect.tasks,
    runs: measuredRuns,
    perTaskMedianMs: medianPerTask,
    perTaskP95Ms: percentile(perTaskMs, 95),
    runWallMedianMs: median(wallMs),
    taskTsMedianMs: median(taskTsMs),
    taskTsP95Ms: percentile(taskTsMs, 95),
    taskHrMedianMs: median(taskHrMs),
    taskHrP95Ms: percentile(taskHrMs, 95),
    eventsPerTask: events / measuredRuns / expect.tasks,
    eventKiBPerTask: eventBytes / measuredRuns / expect.tasks / 1024,
    peakRssMiB: peakRss / MiB,
    maxRssSoFarMiB: process.resourceUsage().maxRSS / 1024,
    heapAfterGcMiB: heapEnd / MiB,
    met: medianPerTask <= TARGET_MS_PER_TASK,
    samplingPct: (100 * samplingMs) / wallMs.reduce((a, b) => a + b, 0),
  };
}

/** Every run must really take the path the bench claims to measure, and persist every event. */
function check(id: string, stored: RuntimeEvent[], delivered: number, expect: Expectations): void {
  const count = (type: RuntimeEvent['type']) => stored.filter((e) => e.type === type).length;
  const problems: string[] = [];
  if (stored.length !== delivered) problems.push(`${delivered} events delivered but ${stored.length} stored`);
  if (count('task.completed') !== expect.tasks) problems.push(`${count('task.completed')} task.completed, expected ${expect.tasks}`);
  if (count('tool.completed') !== expect.toolCalls + expect.delegations) {
    problems.push(`${count('tool.completed')} tool.completed, expected ${expect.toolCalls + expect.delegations}`);
  }
  if (count('task.retrying') !== expect.guardrailRetries) problems.push(`${count('task.retrying')} task.retrying, expected ${expect.guardrailRetries}`);
  if (count('delegation.completed') !== expect.delegations) problems.push(`${count('delegation.completed')} delegation.completed, expected ${expect.delegations}`);
  if (problems.length > 0) throw new Error(`${id}: the run did not take the expected path: ${problems.join('; ')}`);
}

/** task.started → task.completed, from the stored events' `ts` (whole milliseconds: Date.now). */
function taskDurationsFromTs(events: RuntimeEvent[]): number[] {
  const started = new Map<string, number>();
  const out: number[] = [];
  for (const e of events) {
    if (e.type === 'task.started') started.set(e.taskId, e.ts);
    else if (e.type === 'task.completed') out.push(e.ts - (started.get(e.taskId) ?? NaN));
  }
  return out;
}

function machine(): BenchReport['machine'] {
  const cpu = cpus();
  return { cores: cpu.length, cpuModel: cpu[0]?.model.trim() ?? 'unknown', node: process.version, platform: `${process.platform} ${process.arch}`, memoryGiB: totalmem() / 1024 ** 3 };
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

function printTable(report: BenchReport): void {
  const m = report.machine;
  console.log(`\nCrewdeck runtime benchmark — ${report.date}`);
  console.log(`${m.cores} cores (${m.cpuModel}), ${fmt(m.memoryGiB, 1)} GiB, Node ${m.node}, ${m.platform}`);
  console.log(`1-minute load average (other processes included): ${fmt(report.loadAverage1m[0])} before, ${fmt(report.loadAverage1m[1])} after`);
  console.log(`scripted model, zero latency (model time = 0 by construction); events persisted to SQLite (WAL)`);
  console.log(`${report.warmup} warm-up + ${report.runs} measured runs per crew; target: median ≤ ${TARGET_MS_PER_TASK} ms of framework overhead per task\n`);
  const header = ['scenario', 'tasks', 'overhead/task med', 'p95', 'run wall med', 'task dur (ts) med/p95', 'task dur (hr) med/p95', 'events/task', 'KiB events/task', 'peak RSS (sampled / maxRSS)', 'heap after gc', 'target'];
  const rows = report.scenarios.map((s) => [
    s.id,
    String(s.tasks),
    `${fmt(s.perTaskMedianMs, 3)} ms`,
    `${fmt(s.perTaskP95Ms, 3)} ms`,
    `${fmt(s.runWallMedianMs, 1)} ms`,
    `${fmt(s.taskTsMedianMs, 0)} / ${fmt(s.taskTsP95Ms, 0)} ms`,
    `${fmt(s.taskHrMedianMs, 3)} / ${fmt(s.taskHrP95Ms, 3)} ms`,
    fmt(s.eventsPerTask, 1),
    fmt(s.eventKiBPerTask, 1),
    `${fmt(s.peakRssMiB, 0)} / ${fmt(s.maxRssSoFarMiB, 0)} MiB`,
    `${fmt(s.heapAfterGcMiB, 1)} MiB`,
    s.judged ? (s.met ? 'met' : `MISSED ×${fmt(s.perTaskMedianMs / TARGET_MS_PER_TASK, 1)}`) : 'info',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log(`\nRSS sampling cost inside the timed runs (timer + every 1024th event), % of their wall time: ${report.scenarios.map((s) => `${s.id} ${fmt(s.samplingPct, 2)}%`).join(", ")}`);
  console.log(`before the first run (modules loaded, after GC): RSS ${fmt(report.baseline.rssMiB, 0)} MiB, heapUsed ${fmt(report.baseline.heapMiB, 1)} MiB`);
  console.log(`process max RSS (OS high-water mark, whole process): ${fmt(report.processMaxRssMiB, 0)} MiB`);
}

/**
 * The calculator before any crew runs (a crew's run starts it ahead): a cold call on a fresh
 * calculator, then the tool's own calculator from warmUp() to ready, its first call and later calls.
 */
async function measureCalculator(): Promise<CalculatorFigures> {
  // First, as a run's trace shows it, in a fresh process (nothing here has touched the calculator yet).
  const inRun = await measureFirstCalculatorCall();
  const cold = new BoundedMath();
  let started = performance.now();
  // Not plain arithmetic (which the host answers at once): this call waits for the child.
  await cold.evaluate('sqrt(16) * 3');
  const coldCallMs = performance.now() - started;
  cold.dispose();

  const ctx = { workspace: tmpdir(), signal: new AbortController().signal, agentRole: 'bench', config: {} };
  started = performance.now();
  warmUpCalculator();
  await calculatorReady();
  const startMs = performance.now() - started;
  started = performance.now();
  await calculatorTool.execute({ expression: '2 * (3 + 4)' }, ctx);
  const firstCallMs = performance.now() - started;
  const later: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await calculatorTool.execute({ expression: `${i} * 1.5 + sqrt(${i + 2})` }, ctx);
    later.push(performance.now() - t);
  }
  return { inRun, coldCallMs, startMs, firstCallMs, laterCalls: later.length, laterMedianMs: median(later), laterP95Ms: percentile(later, 95) };
}

/** The floor under a warm calculator call: one message to a Node child and back over IPC, nothing computed. */
async function measureIpcFloor(calls: number): Promise<{ calls: number; medianMs: number; p95Ms: number }> {
  const child = spawn(process.execPath, ['-e', "process.on('message', (m) => process.send(m))"], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const roundTrip = (n: number) =>
    new Promise<void>((done) => {
      child.once('message', () => done());
      child.send({ n });
    });
  try {
    await roundTrip(-1); // the child has started
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await roundTrip(i);
      times.push(performance.now() - t);
    }
    return { calls, medianMs: median(times), p95Ms: percentile(times, 95) };
  } finally {
    child.kill();
  }
}

function printHttp(h: HttpPathFigures): void {
  console.log(
    `\nthrough HTTP (real openai provider, streaming, zero-latency server on 127.0.0.1), ${h.tasks} sequential tasks, ${h.runs} interleaved run pairs:\n` +
      `  Crewdeck ${fmt(h.crewdeckMedianMs, 3)} ms/task median (p95 ${fmt(h.crewdeckP95Ms, 3)}), bare openai SDK ${fmt(h.sdkMedianMs, 3)} ms/task (p95 ${fmt(h.sdkP95Ms, 3)}): ` +
      `${fmt(h.ratio)}× (target ≤ ${h.targetRatio}×: ${h.ratio <= h.targetRatio ? 'met' : 'MISSED'}); per-pair ratios ${h.pairRatios.map((r) => fmt(r)).join(' ')}`,
  );
}

function printCalculator(c: CalculatorFigures): void {
  console.log(
    `\ncalculator, first calls in a fresh run (trace durationMs): ${FIRST_CALL_EXPRESSIONS[0]} ${fmt(c.inRun.plainFirstMs, 0)} ms (target ≤ 100 ms), ${FIRST_CALL_EXPRESSIONS[1]} right after ${fmt(c.inRun.mathjsFirstMs, 0)} ms (waits for the child)` +
      `\ncalculator (child process): start-up ${fmt(c.startMs, 0)} ms in the background; first call once started ${fmt(c.firstCallMs, 2)} ms (target ≤ 100 ms); ` +
      `later calls median ${fmt(c.laterMedianMs, 2)} / p95 ${fmt(c.laterP95Ms, 2)} ms over ${c.laterCalls} (target ≤ 5 ms); a call without start-up ahead ${fmt(c.coldCallMs, 0)} ms`,
  );
}

async function main(): Promise<void> {
  const chosen = args.only ? SCENARIOS.filter((s) => s.id === args.only) : SCENARIOS;
  if (args.only === 'calculator') {
    // The calculator alone (its figures were asserted by tests before; now only measured here).
    const c = await measureCalculator();
    printCalculator(c);
    const floor = await measureIpcFloor(c.laterCalls);
    console.log(
      `floor, the same run: a bare IPC round trip to a Node child (echo) median ${fmt(floor.medianMs, 2)} / p95 ${fmt(floor.p95Ms, 2)} ms over ${floor.calls}; ` +
        `later calculator calls / floor: median ${fmt(c.laterMedianMs / floor.medianMs)}×, p95 ${fmt(c.laterP95Ms / floor.p95Ms)}×`,
    );
    return;
  }
  if (chosen.length === 0 && args.only !== 'http') throw new Error(`no scenario "${args.only}"; scenarios: http, calculator, ${SCENARIOS.map((s) => s.id).join(', ')}`);
  if (args.profile && !args.only) throw new Error('--profile needs --only <scenario id>');
  const profiler = new MeasuredRunsProfiler(args.profile);
  const loadBefore = loadavg()[0];
  gc!();
  const baseline = { rssMiB: process.memoryUsage.rss() / MiB, heapMiB: process.memoryUsage().heapUsed / MiB };
  let http: HttpPathFigures | undefined;
  if (!args.only || args.only === 'http') {
    process.stderr.write(`running http (1 warm-up + ${args['http-runs']} interleaved pairs)…\n`);
    http = await measureHttpPath({ runs: Number(args['http-runs']), warmup: 1 });
    printHttp(http);
    if (args.only === 'http') return;
  }
  const calculator = args.only ? undefined : await measureCalculator();
  const sampler = new RssSampler();
  sampler.start();
  const scenarios: ScenarioResult[] = [];
  for (const scenario of chosen) {
    process.stderr.write(`running ${scenario.id} (${warmupRuns} warm-up + ${measuredRuns} measured)…\n`);
    scenarios.push(await runScenario(scenario, sampler, profiler));
  }
  sampler.stop();
  const report: BenchReport = {
    date: new Date().toISOString().slice(0, 10),
    command: 'npm run bench:runtime',
    machine: machine(),
    runs: measuredRuns,
    warmup: warmupRuns,
    targetMsPerTask: TARGET_MS_PER_TASK,
    processMaxRssMiB: process.resourceUsage().maxRSS / 1024,
    loadAverage1m: [loadBefore!, loadavg()[0]!],
    baseline,
    http,
    calculator,
    scenarios,
  };
  printTable(report);
  if (http) printHttp(http);
  if (calculator) printCalculator(calculator);
  if (!args['no-write'] && !args.only) {
    const file = writeRuntimeSection(report);
    console.log(`\nwrote ${file}`);
  }
}

await main();
