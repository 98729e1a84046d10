/**
 * `npm run bench:elk`: ELK auto-layout of the 300-node crew in the app, in its web worker, as the
 * person sees it (moved here from e2e/layout.e2e.ts, which now only checks that frames keep coming
 * while the worker has not answered).
 *
 * The crew is the e2e's: 100 agents, 200 tasks (task i → agent i mod 100), no saved layout, opened
 * in the built app (`crewdeck serve`, dist/) in headless Chromium at 1440×900. Each run clicks
 * Auto-layout with ELK selected and records requestAnimationFrame timestamps while the button is
 * aria-busy: *busy* is the first busy frame → the first frame after it, *gaps* the intervals between
 * busy frames. The floor is the same page's frames with nothing happening, recorded for 1 s right
 * before each click: a busy gap is read against the idle gaps of the same run (ratio of the max gap
 * to the idle max gap), so the machine's own frame clock is not counted as the layout's.
 *
 * Prints medians and p95 over the runs and never fails on speed. Options (after `npm run bench:elk --`):
 *   --runs N   measured layouts (default 5, after one warm-up)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { serve } from '../e2e/support/app';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/support/chromium';
import { median, percentile } from './stats';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(args.runs);
if (!(runs >= 1)) throw new Error('--runs takes a positive number');

interface Frames {
  frames: number;
  spanMs: number;
  maxGapMs: number;
  p95GapMs: number;
}
interface Sample {
  idle: Frames;
  busy: Frames;
}

function bigCrew() {
  const agents = Array.from({ length: 100 }, (_, i) => ({ id: `agent-${i + 1}`, role: `Analyst ${i + 1}`, goal: 'Find facts', tools: [] }));
  const tasks = Array.from({ length: 200 }, (_, i) => ({ id: `task-${i + 1}`, name: `Step ${i + 1} of the study`, description: 'Do it.', expectedOutput: 'A line.', agentId: `agent-${(i % 100) + 1}` }));
  return { version: 1, kind: 'crew', id: 'big', name: 'Big crew', process: 'sequential', agents, tasks };
}

/** Idle frames for `idleMs`, then a click on Auto-layout and the frames while it is busy. */
async function measureOnce(page: Page, idleMs: number): Promise<Sample> {
  const recording = page.evaluate(
    (idle) =>
      new Promise<{ idle: number[]; busy: number[]; after: number }>((resolve) => {
        const button = () => document.querySelector('[data-testid="canvas-auto-layout"]');
        const idleFrames: number[] = [];
        const busyFrames: number[] = [];
        let first = 0;
        let clicked = false;
        const tick = (t: number) => {
          if (!first) first = t;
          if (!clicked) {
            idleFrames.push(t);
            if (t - first >= idle) {
              clicked = true;
              (button() as HTMLButtonElement).click();
            }
          } else if (button()?.getAttribute('aria-busy') === 'true') busyFrames.push(t);
          else if (busyFrames.length > 0) return resolve({ idle: idleFrames, busy: busyFrames, after: t });
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    idleMs,
  );
  const { idle, busy, after } = await recording;
  return { idle: frames(idle, idle[idle.length - 1]!), busy: frames(busy, after) };
}

function frames(times: number[], end: number): Frames {
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  return { frames: times.length, spanMs: end - times[0]!, maxGapMs: gaps.length ? Math.max(...gaps) : 0, p95GapMs: gaps.length ? percentile(gaps, 95) : 0 };
}

const fmt = (v: number, digits = 1) => v.toFixed(digits);
const mp = (values: number[], digits = 1) => `${fmt(median(values), digits)} / ${fmt(percentile(values, 95), digits)}`;

async function main(): Promise<void> {
  const loadBefore = loadavg()[0];
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-bench-elk-'));
  writeFileSync(join(dir, 'big.crew.json'), JSON.stringify(bigCrew()));
  const app = await serve(dir);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // tsx keeps function names with a __name() helper the page does not have.
    await page.addInitScript('globalThis.__name = (f) => f');
    await page.goto(app.url);
    await page.locator('[data-testid="document-item"][data-path="big.crew.json"]').click();
    await page.getByTestId('crew-canvas').waitFor();
    await page.getByTestId('canvas-layout-engine').selectOption('elk');
    const samples: Sample[] = [];
    for (let i = 0; i <= runs; i++) {
      const s = await measureOnce(page, 1000);
      process.stderr.write(
        `  ${i === 0 ? 'warm-up' : `${i}/${runs}`}: busy ${fmt(s.busy.spanMs, 0)} ms, ${s.busy.frames} frames, max gap ${fmt(s.busy.maxGapMs)} ms (p95 ${fmt(s.busy.p95GapMs)}); idle before: max gap ${fmt(s.idle.maxGapMs)} ms (p95 ${fmt(s.idle.p95GapMs)}) over ${s.idle.frames} frames\n`,
      );
      if (i > 0) samples.push(s);
    }
    console.log(
      `ELK auto-layout of the 300-node crew in the app (web worker), ${runs} runs after 1 warm-up, median / p95 over runs:\n` +
        `  busy (first busy frame → first frame after): ${mp(samples.map((s) => s.busy.spanMs), 0)} ms; frames drawn while busy ${mp(samples.map((s) => s.busy.frames), 0)}\n` +
        `  frame gaps while busy: max ${mp(samples.map((s) => s.busy.maxGapMs))} ms, p95 ${mp(samples.map((s) => s.busy.p95GapMs))} ms\n` +
        `  floor, the same page idle for 1 s before each click: max gap ${mp(samples.map((s) => s.idle.maxGapMs))} ms, p95 ${mp(samples.map((s) => s.idle.p95GapMs))} ms\n` +
        `  max busy gap / max idle gap, per run: ${samples.map((s) => fmt(s.busy.maxGapMs / s.idle.maxGapMs, 2)).join(' ')} (median ${fmt(median(samples.map((s) => s.busy.maxGapMs / s.idle.maxGapMs)), 2)}×)\n` +
        `  machine: ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Chromium ${browser.version()}, 1-minute load ${fmt(loadBefore!, 2)} before, ${fmt(loadavg()[0]!, 2)} after`,
    );
  } finally {
    await browser.close();
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
