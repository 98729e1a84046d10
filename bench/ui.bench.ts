/**
 * `npm run bench:ui`: the renderer under load, in a real Chromium driven by playwright-core against the
 * built app (`crewdeck serve`, dist/).
 *
 *  - Trace: a recorded run of ≥ 10,000 events (a 520-task hierarchical crew run through the real
 *    runtime into the workspace's SQLite store) clicked in the sidebar on a fresh page load, twice over:
 *    with no crew open (the app then opens the run's crew on the canvas too) and with the run's crew
 *    already open. Time to first rows and to interactive, long tasks while opening, the host's own
 *    time for the same API calls (from Node), then mouse-wheel scrolling of the trace tree (3 s of
 *    notches, 3 s of flings) with every main-thread task over 50 ms recorded. Targets: ≤ 500 ms to
 *    interactive, no long task while scrolling.
 *  - Canvas: a 300-node crew (100 agents, 200 tasks); nodes dragged with the mouse (60 moves over 1 s)
 *    while requestAnimationFrame intervals are recorded, at the zoom the app opens it with (fit) and at
 *    zoom 1.0. Target: drag frame intervals p95 ≤ 16.7 ms.
 *  - Live: a 200-task hierarchical crew (every reply streamed, 5 ms per model call) opened on the canvas
 *    and started with the app's Run dialog; its events stream through `crewdeck serve` and the host API
 *    WebSocket into the trace panel and the canvas overlay while requestAnimationFrame intervals and
 *    long-animation-frame entries are recorded from the Start click to the painted finished run.
 *    Targets: frame p95 ≤ 16.7 ms, max ≤ 50 ms.
 *
 * Prints medians and p95 and never fails on speed. Options (after `npm run bench:ui --`):
 *   --runs N         trace opens and drags per zoom, measured (default 5; one more of each as warm-up)
 *   --trace-tasks N  tasks of the recorded run (default 520: 10,058 events)
 *   --only LIST      scenarios to run, comma-separated: trace, canvas, live (default all three; the
 *                    generated UI section is rewritten only when trace and canvas both ran, the live
 *                    block whenever live ran)
 *   --live-tasks N   tasks of the live run (default 200)
 *   --live-delay-ms N  delay of every scripted model reply in the live run (default 5)
 *   --no-write       do not update docs/PERFORMANCE.md
 *   --profile DIR    Chrome trace + JS CPU profile of one open per scenario, one scroll of each kind and
 *                    one drag per zoom, summarised on stderr (again later: node --import tsx bench/ui/profiler.ts DIR)
 *   --screenshots DIR  screenshots of the opened trace and of the canvas before and after the drags
 *   --keep           keep the temporary workspace (its path is printed)
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { repoRoot, serve } from '../e2e/support/app';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/support/chromium';
import { prepareBenchWorkspace } from './ui/benchWorkspace';
import { measureCanvasDrags, type CanvasResult, type ZoomMode } from './ui/canvasDrag';
import { Profiler } from './ui/profiler';
import { timeHostLoad } from './ui/hostTiming';
import { measureLiveRun, writeLiveCrew, type LiveRunSample } from './ui/liveRun';
import { printLive, summariseLive, writeLiveSection } from './ui/liveRunReport';
import { measureTraceOpen, VIEWPORT, type OpenScenario, type TraceSample } from './ui/traceOpen';
import { printUiReport, summariseCanvas, summariseHost, summariseTrace, UI_TARGETS, type TraceSummary, type UiReport } from './ui/uiReport';
import { writeUiSection } from './ui/uiPerformanceDoc';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'trace-tasks': { type: 'string', default: '520' },
    'no-write': { type: 'boolean', default: false },
    profile: { type: 'string' },
    screenshots: { type: 'string' },
    keep: { type: 'boolean', default: false },
    only: { type: 'string', default: 'trace,canvas,live' },
    'live-tasks': { type: 'string', default: '200' },
    'live-delay-ms': { type: 'string', default: '5' },
  },
});
const scenarios = new Set(args.only.split(',').map((s) => s.trim()));
for (const s of scenarios) if (!['trace', 'canvas', 'live'].includes(s)) throw new Error(`--only: unknown scenario "${s}" (trace, canvas, live)`);
const liveTasks = Number(args['live-tasks']);
const liveDelayMs = Number(args['live-delay-ms']);
if (!(liveTasks >= 1) || !(liveDelayMs >= 0)) throw new Error('--live-tasks takes a positive number, --live-delay-ms a non-negative one');
const runs = Number(args.runs);
const traceTasks = Number(args['trace-tasks']);
if (!(runs >= 1) || !(traceTasks >= 1)) throw new Error('--runs and --trace-tasks take positive numbers');

const CANVAS = { agents: 100, tasks: 200, columns: 20 };
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const loadBefore = loadavg()[0];
  if (args.screenshots) mkdirSync(args.screenshots, { recursive: true });
  const full = scenarios.has('trace') && scenarios.has('canvas');
  let ws: Awaited<ReturnType<typeof prepareBenchWorkspace>> | undefined;
  if (scenarios.has('trace') || scenarios.has('canvas')) {
    log(`preparing the workspace: recording a ${traceTasks}-task hierarchical run through the runtime…`);
    ws = await prepareBenchWorkspace({ traceTasks, canvas: CANVAS });
    log(`  ${ws.dir}: run ${ws.run.runId}, ${ws.run.events} events, ${(ws.run.eventJsonBytes / 1e6).toFixed(1)} MB of event JSON, recorded in ${(ws.run.recordMs / 1000).toFixed(1)} s`);
  }
  const dir = ws?.dir ?? mkdtempSync(join(tmpdir(), 'crewdeck-bench-ui-'));
  const livePath = scenarios.has('live') ? writeLiveCrew(dir, liveTasks, liveDelayMs) : undefined;
  const app = await serve(dir);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  // Interrupted (Ctrl-C, or output piped into `head`): still stop the server and the browser.
  const shutdown = async () => {
    await browser.close().catch(() => undefined);
    await app.stop();
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void shutdown().finally(() => process.exit(130)));
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const errors: string[] = [];
  const profiler = args.profile ? new Profiler(browser, args.profile, join(repoRoot, 'dist', 'renderer', 'assets')) : undefined;
  try {
    if (livePath) {
      const liveLoad = loadavg()[0];
      const samples: LiveRunSample[] = [];
      for (let i = 0; i <= runs; i++) {
        const sample = await measureLiveRun(browser, app.url, livePath, {
          profiler: i === 1 ? profiler : undefined,
          screenshot: args.screenshots && i === 1 ? join(args.screenshots, 'live-run.png') : undefined,
        });
        log(
          `  live ${i === 0 ? 'warm-up' : `${i}/${runs}`}: ${sample.frames.count} frames over ${(sample.runMs / 1000).toFixed(2)} s, ${sample.pushedEvents} events pushed, ${sample.rows} rows; ` +
            `frame p50 ${sample.frames.p50.toFixed(1)} / p95 ${sample.frames.p95.toFixed(1)} / max ${sample.frames.max.toFixed(1)} ms; ${sample.longFrames.count} long animation frames (max ${sample.longFrames.maxMs.toFixed(0)} ms); ` +
            `idle after: p50 ${sample.idle.p50.toFixed(1)} / p95 ${sample.idle.p95.toFixed(1)} / max ${sample.idle.max.toFixed(1)} ms; ` +
            `renderer main-thread CPU ${sample.cpu.mainThreadMs.toFixed(0)} ms (${(sample.cpu.mainThreadMs / sample.frames.count).toFixed(1)} ms a frame; idle ${(sample.idleCpu.mainThreadMs / sample.idle.count).toFixed(1)}), ` +
            `process ${sample.cpu.processMs.toFixed(0)} ms; of the main thread: script ${sample.cpu.scriptMs.toFixed(0)}, style ${sample.cpu.styleMs.toFixed(0)}, layout ${sample.cpu.layoutMs.toFixed(0)} ms (${sample.cpu.layouts} layouts)`,
        );
        const worst = sample.intervals.indexOf(Math.max(...sample.intervals));
        log(`    longest interval: frame ${worst + 1} of ${sample.intervals.length}, ${Math.round(sample.intervals.slice(0, worst).reduce((a, b) => a + b, 0))} ms after the first frame`);
        for (const d of sample.longFrames.described) log(`    long frame: ${d}`);
        if (i > 0) samples.push(sample);
        errors.push(...sample.errors);
      }
      const live = summariseLive(liveTasks, liveDelayMs, samples, [liveLoad!, loadavg()[0]!]);
      printLive(live);
      if (!args['no-write']) console.log(`wrote ${writeLiveSection(live, new Date().toISOString().slice(0, 10))}`);
    }
    if (!ws) return;
    const trace: TraceSummary[] = [];
    for (const scenario of scenarios.has('trace') ? (['sidebar', 'crew-open'] as OpenScenario[]) : []) {
      const samples: TraceSample[] = [];
      let warmup: TraceSample | undefined;
      for (let i = 0; i <= runs; i++) {
        const sample = await measureTraceOpen(browser, app.url, ws.run.runId, {
          scenario,
          documentPath: ws.run.documentPath,
          scroll: scenario === 'sidebar',
          profiler: i === 1 ? profiler : undefined,
          screenshot: args.screenshots && i === 1 ? join(args.screenshots, `trace-${scenario}.png`) : undefined,
        });
        log(
          `  trace ${scenario} ${i === 0 ? 'warm-up' : `${i}/${runs}`}: first rows ${sample.firstRowsMs.toFixed(0)} ms, interactive ${sample.interactiveMs.toFixed(0)} ms, ` +
            `${sample.openLongTasks.count} long tasks opening (max ${sample.openLongTasks.maxMs.toFixed(0)} ms)` +
            Object.entries(sample.scrolls ?? {})
              .map(([kind, sc]) => `; ${kind} scroll ${sc.scrolledPx.toFixed(0)} px: ${sc.longTasks.count} long tasks (max ${sc.longTasks.maxMs.toFixed(0)} ms), frame p95 ${sc.frames.p95.toFixed(1)} ms`)
              .join(''),
        );
        if (i === 0) warmup = sample;
        else samples.push(sample);
      }
      trace.push(summariseTrace(scenario, samples, warmup!));
      errors.push(...samples.flatMap((s) => s.errors));
    }
    const host = scenarios.has('trace') ? await timeHostLoad(app.url, ws.run.runId, runs) : { calls: 0, pagedMs: [], oneCallMs: [] };
    log(`  host alone: paged load ${host.pagedMs.map((v) => v.toFixed(0)).join(', ')} ms; one call ${host.oneCallMs.map((v) => v.toFixed(0)).join(', ')} ms`);

    const canvas: CanvasResult[] = [];
    for (const mode of scenarios.has('canvas') ? (['fit', 'readable'] as ZoomMode[]) : []) {
      const result = await measureCanvasDrags(browser, app.url, ws.canvas.path, CANVAS.agents + CANVAS.tasks, mode, runs, profiler, args.screenshots);
      for (const d of result.drags) {
        log(`  canvas ${mode} (zoom ${result.zoom.toFixed(2)}) drag ${d.node}: p50 ${d.frames.p50.toFixed(1)} / p95 ${d.frames.p95.toFixed(1)} / max ${d.frames.max.toFixed(1)} ms over ${d.frames.count} frames, ${d.movesReceived} moves in ${d.dragMs.toFixed(0)} ms, moved ${d.moved.dx.toFixed(0)},${d.moved.dy.toFixed(0)} px`);
      }
      canvas.push(result);
    }

    const report: UiReport = {
      date: new Date().toISOString().slice(0, 10),
      command: 'npm run bench:ui',
      machine: {
        cores: cpus().length,
        cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
        memoryGiB: totalmem() / 1024 ** 3,
        platform: `${process.platform} ${process.arch}`,
        node: process.version,
        chromium: browser.version(),
      },
      loadAverage1m: [loadBefore!, loadavg()[0]!],
      viewport: VIEWPORT,
      runs,
      run: ws.run,
      canvasCrew: ws.canvas,
      trace,
      host: summariseHost(host),
      canvas: canvas.map(summariseCanvas),
      errors: [...errors, ...canvas.flatMap((c) => c.errors)],
      targets: UI_TARGETS,
    };
    if (trace.length > 0 || canvas.length > 0) printUiReport(report);
    if (profiler) log(`\nprofiles written to ${args.profile}`);
    if (!args['no-write'] && full) console.log(`\nwrote ${writeUiSection(report)}`);
  } finally {
    await browser.close();
    await app.stop();
    if (args.keep) log(`workspace kept: ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
