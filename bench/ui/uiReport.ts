import { median, percentile } from '../stats';
import type { RecordedRun } from './benchWorkspace';
import type { CanvasResult, ZoomMode } from './canvasDrag';
import type { HostLoadTiming } from './hostTiming';
import { SCROLL, type OpenScenario, type ScrollKind, type ScrollSample, type TraceSample } from './traceOpen';

export const UI_TARGETS = {
  /** Median click → interactive when opening the ≥ 10,000-event run. */
  traceInteractiveMs: 500,
  /** No main-thread task over this while scrolling the trace. */
  longTaskMs: 50,
  /** p95 of the rAF intervals while dragging a node (one 60 Hz frame). */
  dragFrameP95Ms: 16.7,
  /**
   * rAF timestamps are vsync-aligned but jitter by a few tenths of a millisecond around 16.67 ms; an
   * interval up to this still counts as one frame. A dropped frame shows as ≥ 33 ms.
   */
  frameJitterMs: 0.5,
} as const;

export interface Spread {
  median: number;
  p95: number;
  max: number;
}

/** Median, p95 and max of the finite values (NaN marks "did not happen"). */
export function spread(all: number[]): Spread {
  const values = all.filter(Number.isFinite);
  return { median: median(values), p95: percentile(values, 95), max: values.length ? Math.max(...values) : NaN };
}

export interface TraceSummary {
  scenario: OpenScenario;
  samples: number;
  firstRowsMs: Spread;
  loadedMs: Spread;
  interactiveMs: Spread;
  canvasMs: Spread;
  rows: number;
  rowsAtFirst: number;
  warmup: { firstRowsMs: number; interactiveMs: number };
  host: { requests: number; bytes: number; firstRequestMs: Spread; waitingMs: Spread; lastResponseMs: Spread; pageMs: Spread };
  openLongTaskCount: Spread;
  openLongTaskMaxMs: Spread;
  openLongTaskTotalMs: Spread;
  afterOpenLongTaskCount: Spread;
  afterOpenLongTaskMaxMs: Spread;
  /** When the scenario scrolled. */
  scroll?: Record<ScrollKind, ScrollSummary>;
  interactiveMet: boolean;
}

export interface ScrollSummary {
  deltaPx: number;
  longTaskCount: Spread;
  longTaskMaxMs: Spread;
  /** Long tasks over all page loads. */
  longTasksTotal: number;
  frameP50Ms: Spread;
  frameP95Ms: Spread;
  frameMaxMs: Spread;
  scrolledPx: Spread;
  wheelsSent: number;
  wheelsReceived: Spread;
  ms: Spread;
  met: boolean;
}

function summariseScroll(samples: TraceSample[], kind: ScrollKind): ScrollSummary {
  const scrolls = samples.map((t) => t.scrolls![kind]);
  const pick = (f: (s: ScrollSample) => number) => spread(scrolls.map(f));
  const longTasksTotal = scrolls.reduce((a, sc) => a + sc.longTasks.count, 0);
  return {
    deltaPx: SCROLL[kind].deltaPx,
    longTaskCount: pick((s) => s.longTasks.count),
    longTaskMaxMs: pick((s) => s.longTasks.maxMs),
    longTasksTotal,
    frameP50Ms: pick((s) => s.frames.p50),
    frameP95Ms: pick((s) => s.frames.p95),
    frameMaxMs: pick((s) => s.frames.max),
    scrolledPx: pick((s) => s.scrolledPx),
    wheelsSent: scrolls[0]?.wheelsSent ?? NaN,
    wheelsReceived: pick((s) => s.wheelsReceived),
    ms: pick((s) => s.ms),
    met: longTasksTotal === 0,
  };
}

export function summariseTrace(scenario: OpenScenario, samples: TraceSample[], warmup: TraceSample): TraceSummary {
  const pick = (f: (s: TraceSample) => number) => spread(samples.map(f));
  const interactiveMs = pick((s) => s.interactiveMs);
  const scroll = samples.every((s) => s.scrolls) ? { notch: summariseScroll(samples, 'notch'), fling: summariseScroll(samples, 'fling') } : undefined;
  return {
    scenario,
    samples: samples.length,
    firstRowsMs: pick((s) => s.firstRowsMs),
    loadedMs: pick((s) => s.loadedMs),
    interactiveMs,
    canvasMs: pick((s) => s.canvasMs),
    rows: samples[0]?.rows ?? NaN,
    rowsAtFirst: samples[0]?.rowsAtFirst ?? NaN,
    warmup: { firstRowsMs: warmup.firstRowsMs, interactiveMs: warmup.interactiveMs },
    host: {
      requests: samples[0]?.host.requests ?? NaN,
      bytes: samples[0]?.host.bytes ?? NaN,
      firstRequestMs: pick((s) => s.host.firstRequestMs),
      waitingMs: pick((s) => s.host.waitingMs),
      lastResponseMs: pick((s) => s.host.lastResponseMs),
      pageMs: pick((s) => s.loadedMs - s.host.waitingMs),
    },
    openLongTaskCount: pick((s) => s.openLongTasks.count),
    openLongTaskMaxMs: pick((s) => s.openLongTasks.maxMs),
    openLongTaskTotalMs: pick((s) => s.openLongTasks.totalMs),
    afterOpenLongTaskCount: pick((s) => s.afterOpenLongTasks.count),
    afterOpenLongTaskMaxMs: pick((s) => s.afterOpenLongTasks.maxMs),
    scroll,
    interactiveMet: interactiveMs.median <= UI_TARGETS.traceInteractiveMs,
  };
}

export interface CanvasSummary {
  zoomMode: ZoomMode;
  zoom: number;
  openMs: number;
  nodesRendered: number;
  edgesRendered: number;
  lowDetailNodes: number;
  nodesInView: number;
  idleFrameP95Ms: number;
  warmupP95Ms: number;
  drags: {
    node: string;
    frames: number;
    p50: number;
    p95: number;
    max: number;
    longTasks: number;
    longTaskMaxMs: number;
    dropLongTaskMaxMs: number;
    moved: { dx: number; dy: number };
    dragMs: number;
    movesReceived: number;
  }[];
  /** Median drag duration (60 moves meant to take 1 s) and moves that reached the page. */
  dragMs: number;
  movesReceived: number;
  /** Median of the per-drag p95s. */
  medianP95Ms: number;
  /** p95 of all drags' intervals pooled. */
  overallP95Ms: number;
  overallP50Ms: number;
  maxMs: number;
  /** Share of intervals longer than one frame (> 16.7 ms + jitter): dropped frames. */
  slowFramePct: number;
  dragLongTasks: number;
  dropLongTaskMaxMs: Spread;
  met: boolean;
}

export function summariseCanvas(r: CanvasResult): CanvasSummary {
  const pooled = r.drags.flatMap((d) => d.intervals);
  const limit = UI_TARGETS.dragFrameP95Ms + UI_TARGETS.frameJitterMs;
  const medianP95Ms = median(r.drags.map((d) => d.frames.p95));
  return {
    zoomMode: r.zoomMode,
    zoom: r.zoom,
    openMs: r.openMs,
    nodesRendered: r.nodesRendered,
    edgesRendered: r.edgesRendered,
    lowDetailNodes: r.lowDetailNodes,
    nodesInView: r.nodesInView,
    idleFrameP95Ms: r.idleFrames.p95,
    warmupP95Ms: r.warmup.frames.p95,
    drags: r.drags.map((d) => ({
      node: d.node,
      frames: d.frames.count,
      p50: d.frames.p50,
      p95: d.frames.p95,
      max: d.frames.max,
      longTasks: d.longTasks.count,
      longTaskMaxMs: d.longTasks.maxMs,
      dropLongTaskMaxMs: d.dropLongTasks.maxMs,
      moved: d.moved,
      dragMs: d.dragMs,
      movesReceived: d.movesReceived,
    })),
    dragMs: median(r.drags.map((d) => d.dragMs)),
    movesReceived: median(r.drags.map((d) => d.movesReceived)),
    medianP95Ms,
    overallP95Ms: percentile(pooled, 95),
    overallP50Ms: median(pooled),
    maxMs: pooled.length ? Math.max(...pooled) : NaN,
    slowFramePct: pooled.length ? (100 * pooled.filter((v) => v > limit).length) / pooled.length : NaN,
    dragLongTasks: r.drags.reduce((a, d) => a + d.longTasks.count, 0),
    dropLongTaskMaxMs: spread(r.drags.map((d) => d.dropLongTasks.maxMs)),
    met: medianP95Ms <= limit,
  };
}

export interface UiReport {
  date: string;
  command: string;
  machine: { cores: number; cpuModel: string; memoryGiB: number; platform: string; node: string; chromium: string };
  loadAverage1m: [number, number];
  viewport: { width: number; height: number };
  runs: number;
  run: RecordedRun;
  canvasCrew: { path: string; agents: number; tasks: number; contextEdges: number };
  trace: TraceSummary[];
  /** The run-loading calls timed from Node (no browser). */
  host: { calls: number; pagedMs: Spread; oneCallMs: Spread };
  canvas: CanvasSummary[];
  errors: string[];
  targets: typeof UI_TARGETS;
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
export const ms = (n: number, digits = 0) => `${fmt(n, digits)} ms`;
export const medP95 = (s: Spread, digits = 0) => `${fmt(s.median, digits)} / ${fmt(s.p95, digits)} ms`;

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

export function summariseHost(h: HostLoadTiming): UiReport['host'] {
  return { calls: h.calls, pagedMs: spread(h.pagedMs), oneCallMs: spread(h.oneCallMs) };
}

export const SCENARIO_LABEL: Record<OpenScenario, string> = {
  sidebar: 'clicked under "Recent runs" in the sidebar, no crew open (the app opens the run\'s crew on the canvas too)',
  'crew-open': 'its crew clicked in the sidebar, which opens the crew and shows its latest run (this one)',
};

export function printUiReport(r: UiReport): void {
  const m = r.machine;
  const out: string[] = [
    '',
    `Crewdeck UI benchmark — ${r.date}`,
    `${m.cores} cores (${m.cpuModel}), ${fmt(m.memoryGiB)} GiB, ${m.platform}, Node ${m.node}, Chromium ${m.chromium} (headless, --disable-gpu), viewport ${r.viewport.width}×${r.viewport.height}`,
    `1-minute load average (other processes included): ${fmt(r.loadAverage1m[0], 2)} before, ${fmt(r.loadAverage1m[1], 2)} after`,
  ];
  for (const t of r.trace) {
    out.push(
      '',
      `Trace, opened ${SCENARIO_LABEL[t.scenario]}: run of ${r.run.events.toLocaleString('en-US')} events (${r.run.tasks} tasks, ${fmt(r.run.eventJsonBytes / 1e6)} MB of event JSON), ${t.rows.toLocaleString('en-US')} rows; ${t.samples} fresh page loads (+1 warm-up):`,
      ...table(
        ['measure', 'median / p95', 'max', 'target'],
        [
          ['click → first rows painted', medP95(t.firstRowsMs), ms(t.firstRowsMs.max), ''],
          ['click → whole run in the DOM', medP95(t.loadedMs), ms(t.loadedMs.max), ''],
          ['click → interactive (next frame)', medP95(t.interactiveMs), ms(t.interactiveMs.max), `≤ ${r.targets.traceInteractiveMs} ms: ${t.interactiveMet ? 'met' : `MISSED by ${fmt(t.interactiveMs.median - r.targets.traceInteractiveMs, 0)} ms`}`],
          [`  host calls outstanding, seen from the page (${t.host.requests} calls, ${fmt(t.host.bytes / 1e6)} MB)`, medP95(t.host.waitingMs), ms(t.host.waitingMs.max), ''],
          ['click → crew painted on the canvas', Number.isFinite(t.canvasMs.median) ? medP95(t.canvasMs) : 'not opened', ms(t.canvasMs.max), ''],
          ['long tasks while opening (count)', `${fmt(t.openLongTaskCount.median, 0)} / ${fmt(t.openLongTaskCount.p95, 0)}`, fmt(t.openLongTaskCount.max, 0), ''],
          ['longest task while opening', medP95(t.openLongTaskMaxMs), ms(t.openLongTaskMaxMs.max), ''],
          ['long tasks after interactive, until quiet', `${fmt(t.afterOpenLongTaskCount.median, 0)} / ${fmt(t.afterOpenLongTaskCount.p95, 0)}`, ms(t.afterOpenLongTaskMaxMs.max), ''],
          ...(t.scroll
            ? (['notch', 'fling'] as ScrollKind[]).flatMap((kind) => {
                const sc = t.scroll![kind];
                const label = `${kind} scroll (${sc.deltaPx} px × ${sc.wheelsSent} wheels, 60/s)`;
                return [
                  [`${label}: long tasks`, `${fmt(sc.longTaskCount.median, 0)} / ${fmt(sc.longTaskCount.p95, 0)}`, `${sc.longTasksTotal} in all`, `none > ${r.targets.longTaskMs} ms: ${sc.met ? 'met' : 'MISSED'}`],
                  [`${label}: longest task`, medP95(sc.longTaskMaxMs), ms(sc.longTaskMaxMs.max), ''],
                  [`${label}: frame interval p95`, medP95(sc.frameP95Ms, 1), ms(sc.frameMaxMs.max, 1), ''],
                  [`${label}: scrolled`, `${fmt(sc.scrolledPx.median, 0)} px`, `${fmt(sc.wheelsReceived.median, 0)} wheels in page`, ''],
                ];
              })
            : []),
        ],
      ),
      `warm-up (first open of this kind): first rows ${ms(t.warmup.firstRowsMs)}, interactive ${ms(t.warmup.interactiveMs)}`,
    );
  }
  out.push(
    '',
    `Host alone (Node client, same calls, no browser): runs.get + ${r.host.calls - 1} runs.events pages ${medP95(r.host.pagedMs)}; all events in one runs.events call ${medP95(r.host.oneCallMs)}`,
    '',
    `Canvas: ${r.canvasCrew.agents + r.canvasCrew.tasks}-node crew (${r.canvasCrew.agents} agents, ${r.canvasCrew.tasks} tasks, ${r.canvasCrew.contextEdges} explicit contexts); ${r.runs} drags per zoom (+1 warm-up), 60 moves over 1 s each:`,
    ...table(
      ['zoom', 'nodes (low detail, in view) / edges', 'idle p95', 'per-drag p95: median', 'pooled p50 / p95 / max', 'frames > 1 vsync', 'long tasks in drags', 'after drop, longest (median / max)', 'drag took / moves in page', 'target'],
      r.canvas.map((c) => [
        `${c.zoomMode} (${fmt(c.zoom, 2)})`,
        `${c.nodesRendered} (${c.lowDetailNodes}, ${c.nodesInView}) / ${c.edgesRendered}`,
        ms(c.idleFrameP95Ms, 1),
        ms(c.medianP95Ms, 1),
        `${fmt(c.overallP50Ms)} / ${fmt(c.overallP95Ms)} / ${fmt(c.maxMs)} ms`,
        `${fmt(c.slowFramePct)}%`,
        String(c.dragLongTasks),
        `${fmt(c.dropLongTaskMaxMs.median, 0)} / ${fmt(c.dropLongTaskMaxMs.max, 0)} ms`,
        `${ms(c.dragMs)} / ${fmt(c.movesReceived, 0)}`,
        c.met ? 'met' : `MISSED (×${fmt(c.medianP95Ms / r.targets.dragFrameP95Ms, 1)})`,
      ]),
    ),
  );
  if (r.errors.length) out.push('', `page errors: ${r.errors.length}`, ...r.errors.slice(0, 10).map((e) => `  ${e}`));
  console.log(out.join('\n'));
}
