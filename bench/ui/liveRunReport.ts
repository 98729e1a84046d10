import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { PERFORMANCE_DOC } from '../performanceDoc';
import { median, percentile } from '../stats';
import type { LiveRunSample } from './liveRun';
import { fmt } from './uiReport';

/** Targets of a live run streaming into the trace and the canvas (one 60 Hz frame at p95, no frame over 50 ms). */
export const LIVE_TARGETS = { frameP95Ms: 16.7, frameMaxMs: 50, frameJitterMs: 0.5 } as const;

export interface LiveSummary {
  tasks: number;
  delayMs: number;
  runs: number;
  /** Pooled over every measured run's frames. */
  p50: number;
  p95: number;
  max: number;
  /** The same page idle after each run (the finished run shown, nothing streaming), pooled: the floor. */
  idle: { p50: number; p95: number; max: number; frames: number };
  /** Renderer CPU (CDP thread/process time) per frame, median over the runs, live and idle: what the page costs whatever the load. */
  cpu: { mainThreadMsPerFrame: number; idleMainThreadMsPerFrame: number; processMsPerFrame: number; idleProcessMsPerFrame: number; mainThreadMs: number };
  /** Per run, to show the spread. */
  perRun: { p50: number; p95: number; max: number; frames: number; idleP50: number; idleP95: number; idleMax: number; slowFramePct: number; runMs: number; pushedEvents: number; longFrames: number; longFrameMaxMs: number; rows: number; tasksDone: number }[];
  slowFramePct: number;
  runMs: number;
  pushedEvents: number;
  loadAverage1m: [number, number];
  met: { p95: boolean; max: boolean };
}

export function summariseLive(tasks: number, delayMs: number, samples: LiveRunSample[], loadAverage1m: [number, number]): LiveSummary {
  const pooled = samples.flatMap((s) => s.intervals);
  const limit = LIVE_TARGETS.frameP95Ms + LIVE_TARGETS.frameJitterMs;
  const p95 = percentile(pooled, 95);
  const max = pooled.length ? Math.max(...pooled) : NaN;
  return {
    tasks,
    delayMs,
    runs: samples.length,
    p50: median(pooled),
    p95,
    max,
    idle: (() => {
      const idle = samples.flatMap((s) => s.idleIntervals);
      return { p50: median(idle), p95: percentile(idle, 95), max: idle.length ? Math.max(...idle) : NaN, frames: idle.length };
    })(),
    cpu: {
      mainThreadMsPerFrame: median(samples.map((s) => s.cpu.mainThreadMs / s.frames.count)),
      idleMainThreadMsPerFrame: median(samples.map((s) => s.idleCpu.mainThreadMs / s.idle.count)),
      processMsPerFrame: median(samples.map((s) => s.cpu.processMs / s.frames.count)),
      idleProcessMsPerFrame: median(samples.map((s) => s.idleCpu.processMs / s.idle.count)),
      mainThreadMs: median(samples.map((s) => s.cpu.mainThreadMs)),
    },
    perRun: samples.map((s) => ({
      p50: s.frames.p50,
      p95: s.frames.p95,
      max: s.frames.max,
      frames: s.frames.count,
      idleP50: s.idle.p50,
      idleP95: s.idle.p95,
      idleMax: s.idle.max,
      slowFramePct: s.intervals.length ? (100 * s.intervals.filter((v) => v > limit).length) / s.intervals.length : NaN,
      runMs: s.runMs,
      pushedEvents: s.pushedEvents,
      longFrames: s.longFrames.count,
      longFrameMaxMs: s.longFrames.maxMs,
      rows: s.rows,
      tasksDone: s.tasksDone,
    })),
    slowFramePct: pooled.length ? (100 * pooled.filter((v) => v > limit).length) / pooled.length : NaN,
    runMs: median(samples.map((s) => s.runMs)),
    pushedEvents: median(samples.map((s) => s.pushedEvents)),
    loadAverage1m,
    met: { p95: p95 <= limit, max: max <= LIVE_TARGETS.frameMaxMs },
  };
}

export function printLive(l: LiveSummary): void {
  const out = [
    '',
    `Live run: a ${l.tasks}-task hierarchical crew started from the app's Run dialog, every model reply streamed and delayed ${l.delayMs} ms; ${l.runs} runs (+1 warm-up), each on a fresh page with the crew open on the canvas`,
    `1-minute load average: ${fmt(l.loadAverage1m[0], 2)} before, ${fmt(l.loadAverage1m[1], 2)} after`,
    ...l.perRun.map(
      (r, i) =>
        `  run ${i + 1}: ${r.frames} frames over ${fmt(r.runMs / 1000, 2)} s, ${r.pushedEvents} events pushed, ${r.rows} trace rows; frame p50 ${fmt(r.p50)} / p95 ${fmt(r.p95)} / max ${fmt(r.max)} ms; ${r.longFrames} long animation frames (max ${fmt(r.longFrameMaxMs, 0)} ms); idle after: p50 ${fmt(r.idleP50)} / p95 ${fmt(r.idleP95)} / max ${fmt(r.idleMax)} ms`,
    ),
    `idle floor (the same page after each run, nothing streaming, as long as the run): p50 ${fmt(l.idle.p50)} / p95 ${fmt(l.idle.p95)} / max ${fmt(l.idle.max)} ms over ${l.idle.frames} frames`,
    `renderer CPU (thread/process time, independent of the load): main thread ${fmt(l.cpu.mainThreadMs, 0)} ms a run, ${fmt(l.cpu.mainThreadMsPerFrame)} ms a frame live vs ${fmt(l.cpu.idleMainThreadMsPerFrame)} idle; whole renderer process ${fmt(l.cpu.processMsPerFrame)} vs ${fmt(l.cpu.idleProcessMsPerFrame)} ms a frame`,
    `pooled frame intervals: p50 ${fmt(l.p50)} / p95 ${fmt(l.p95)} / max ${fmt(l.max)} ms, ${fmt(l.slowFramePct)}% over one vsync — ` +
      `target p95 ≤ ${LIVE_TARGETS.frameP95Ms} ms: ${l.met.p95 ? 'met' : 'MISSED'}; max ≤ ${LIVE_TARGETS.frameMaxMs} ms: ${l.met.max ? 'met' : 'MISSED'}`,
  ];
  console.log(out.join('\n'));
}

const BEGIN = '<!-- bench:ui-live:begin — generated by bench/ui.bench.ts (live scenario); edit outside these markers -->';
const END = '<!-- bench:ui-live:end -->';
const UI_END = '<!-- bench:ui:end -->';

export function renderLiveSection(l: LiveSummary, date: string): string {
  const verdict = (ok: boolean) => (ok ? '**met**' : '**missed**');
  return [
    `### Live run: ${l.tasks} tasks streaming into the trace and the canvas`,
    '',
    `- **Date:** ${date}; **load:** 1-minute load average ${fmt(l.loadAverage1m[0], 2)} before, ${fmt(l.loadAverage1m[1], 2)} after`,
    `- **Command:** \`npm run bench:ui\` (alone: \`npm run bench:ui -- --only live\`; \`--live-tasks\`, \`--live-delay-ms\`, \`--runs\`)`,
    `- **What:** a fresh page opens the ${l.tasks}-task hierarchical crew (\`liveCrew\` in \`bench/ui/liveRun.ts\`: the trace crew with every scripted reply streamed in three chunks and delayed ${l.delayMs} ms) on the canvas and starts it with ▶ Run → Start. The run goes through the real \`crewdeck serve\`; its events (${fmt(l.pushedEvents, 0)} pushes, median) reach the renderer over the host API WebSocket and are folded into the trace panel (following the newest span) and the canvas overlay. Frames are the intervals between \`requestAnimationFrame\` timestamps from the Start click to the frame after the finished run was painted (median ${fmt(l.runMs / 1000, 2)} s); \`long-animation-frame\` entries are counted over the same window.`,
    '',
    `| ${l.runs} runs (+1 warm-up) | frame p50 | p95 | max | frames over one vsync | long animation frames (max) |`,
    '|---|--:|--:|--:|--:|--:|',
    ...l.perRun.map((r, i) => `| run ${i + 1} (${fmt(r.runMs / 1000, 2)} s, ${r.frames} frames) | ${fmt(r.p50)} ms | ${fmt(r.p95)} ms | ${fmt(r.max)} ms | ${fmt(r.slowFramePct)}% | ${r.longFrames} (${fmt(r.longFrameMaxMs, 0)} ms) |`),
    `| **pooled** | **${fmt(l.p50)} ms** | **${fmt(l.p95)} ms** | **${fmt(l.max)} ms** | ${fmt(l.slowFramePct)}% | |`,
    `| idle floor (same page after each run, nothing streaming) | ${fmt(l.idle.p50)} ms | ${fmt(l.idle.p95)} ms | ${fmt(l.idle.max)} ms | | |`,
    '',
    `Renderer CPU (CDP thread and process time, which do not grow with the load): main thread ${fmt(l.cpu.mainThreadMsPerFrame)} ms a frame while the run streams in (${fmt(l.cpu.mainThreadMs, 0)} ms a run), ${fmt(l.cpu.idleMainThreadMsPerFrame)} ms idle; the whole renderer process ${fmt(l.cpu.processMsPerFrame)} vs ${fmt(l.cpu.idleProcessMsPerFrame)} ms a frame.`,
    '',
    `Targets: p95 ≤ ${LIVE_TARGETS.frameP95Ms} ms (an interval up to ${fmt(LIVE_TARGETS.frameP95Ms + LIVE_TARGETS.frameJitterMs)} ms counts as one frame) ${verdict(l.met.p95)}; max ≤ ${LIVE_TARGETS.frameMaxMs} ms ${verdict(l.met.max)}.`,
  ].join('\n');
}

/** Rewrites the live block (placed right after the generated UI section when it is not there yet). */
export function writeLiveSection(l: LiveSummary, date: string, file = PERFORMANCE_DOC): string {
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n';
  if (!text.includes(BEGIN) || !text.includes(END)) {
    const block = `${BEGIN}\n${END}`;
    text = text.includes(UI_END) ? text.replace(UI_END, `${UI_END}\n\n${block}`) : `${text.trimEnd()}\n\n${block}\n`;
  }
  const start = text.indexOf(BEGIN) + BEGIN.length;
  text = `${text.slice(0, start)}\n${renderLiveSection(l, date)}\n${text.slice(text.indexOf(END))}`;
  writeFileSync(file, text, 'utf8');
  return file;
}
