import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { CrewDocumentSchema, type CrewDocument } from '../../shared/model/crew';
import { traceCrew } from './benchWorkspace';
import { frameIntervals, summariseIntervals, type IntervalSummary } from './frameStats';
import { KEEP_NAMES_SHIM, settle } from './pageProbes';
import type { Profiler } from './profiler';
import { collectErrors, VIEWPORT } from './traceOpen';

export const LIVE_CREW_FILE = 'bench-live.crew.json';

/**
 * The crew the live scenario runs from the app: the trace crew (`traceCrew(tasks)`, a built-in manager
 * delegating every task) with every scripted reply streamed (`stream: true`: three `llm.chunk`s each) and
 * delayed by `delayMs`, so the run's ~20 events per task arrive over seconds, as from a fast model.
 */
export function liveCrew(tasks: number, delayMs: number): CrewDocument {
  const base = traceCrew(tasks);
  const slow = (reply: unknown): unknown => (typeof reply === 'string' ? { content: reply, delayMs } : { ...(reply as object), delayMs });
  const withLatency = (llm: unknown): unknown => {
    const model = llm as { provider?: string; script?: Record<string, unknown> } | undefined;
    if (model?.provider !== 'scripted' || !model.script) return llm;
    const s = model.script;
    return {
      ...model,
      script: {
        ...s,
        stream: true,
        ...(s.default !== undefined ? { default: slow(s.default) } : {}),
        ...(Array.isArray(s.sequence) ? { sequence: s.sequence.map(slow) } : {}),
        ...(Array.isArray(s.rules)
          ? { rules: (s.rules as { reply: unknown }[]).map((r) => ({ ...r, reply: Array.isArray(r.reply) ? r.reply.map(slow) : slow(r.reply) })) }
          : {}),
      },
    };
  };
  return CrewDocumentSchema.parse({
    ...base,
    id: `bench-live-${tasks}`,
    name: `Bench: live, ${tasks} tasks`,
    manager: base.manager && 'llm' in base.manager ? { ...base.manager, llm: withLatency(base.manager.llm) } : base.manager,
    agents: base.agents.map((a) => ({ ...a, llm: withLatency(a.llm) })),
  });
}

export function writeLiveCrew(dir: string, tasks: number, delayMs: number): string {
  writeFileSync(join(dir, LIVE_CREW_FILE), `${JSON.stringify(liveCrew(tasks, delayMs), null, 2)}\n`);
  return LIVE_CREW_FILE;
}

export interface LiveRunSample {
  /** requestAnimationFrame intervals from the Run click to the frame after the completed run was painted. */
  frames: IntervalSummary;
  intervals: number[];
  /**
   * The floor: requestAnimationFrame intervals of the same page, same viewport, right after the run
   * finished (the finished run shown in the trace and on the canvas, nothing streaming), recorded for
   * as long as the run took (at most 20 s). What the machine and the browser give an idle page.
   */
  idle: IntervalSummary;
  idleIntervals: number[];
  /**
   * CPU the page's renderer used from the Start click to the finished run (`cpu`) and over the idle
   * recording (`idleCpu`), from CDP Performance.getMetrics: thread and process CPU time, which, unlike
   * frame intervals, do not grow when other processes take the cores.
   */
  cpu: RendererCpu;
  idleCpu: RendererCpu;
  /** PerformanceObserver 'long-animation-frame' entries (frames over 50 ms) in that window. */
  longFrames: { count: number; maxMs: number; maxBlockingMs: number; described: string[] };
  /** Run click → the trace shows the run completed. */
  runMs: number;
  /** Run events and stream deltas pushed to the page over the host API while recording. */
  pushedEvents: number;
  /** Trace rows at the end (the panel's count), and task nodes in view shown done on the canvas (it mounts only those in view). */
  rows: number;
  tasksDone: number;
  errors: string[];
}

/**
 * Opens the live crew on the canvas, starts it with the app's own Run dialog and records every frame
 * while its events stream in through the host API into the trace panel and the canvas overlay.
 */
export async function measureLiveRun(
  browser: Browser,
  url: string,
  documentPath: string,
  options: { profiler?: Profiler; screenshot?: string } = {},
): Promise<LiveRunSample> {
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'dark' });
  await context.addInitScript(KEEP_NAMES_SHIM);
  await context.addInitScript(countEventPushes);
  const page = await context.newPage();
  const errors = collectErrors(page);
  try {
    await page.goto(url);
    await page.locator(`[data-testid="document-item"][data-path="${documentPath}"]`).click();
    await page.locator('[data-testid^="crew-node-"]').first().waitFor({ timeout: 60_000 });
    await settle(page);
    await page.getByTestId('run-crew').click();
    const start = page.getByTestId('run-start');
    await start.waitFor();
    await settle(page, 300);
    await startLiveRecording(page);
    await options.profiler?.start(page, 'live-run');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const cpu0 = await rendererMetrics(cdp);
    await start.click();
    await page.waitForFunction(() => (window as unknown as { __benchLive: { doneAt: number } }).__benchLive.doneAt > 0, undefined, { timeout: 300_000, polling: 100 });
    const cpu1 = await rendererMetrics(cdp);
    await options.profiler?.stop(page);
    const rec = await stopLiveRecording(page);
    await settle(page, 300);
    const idle0 = await rendererMetrics(cdp);
    const idleIntervals = frameIntervals(await recordIdleFrames(page, Math.min(20_000, Math.max(2_000, rec.doneAt - rec.clickAt))));
    const idle1 = await rendererMetrics(cdp);
    await cdp.detach();
    if (options.screenshot) await page.screenshot({ path: options.screenshot });
    const tasksDone = await page.locator('[data-testid^="crew-node-task"] [data-testid="node-status"][data-status="done"]').count();
    if (rec.status !== 'completed') throw new Error(`the live run ended ${rec.status}`);
    const intervals = frameIntervals(rec.frames);
    return {
      frames: summariseIntervals(intervals),
      intervals,
      idle: summariseIntervals(idleIntervals),
      idleIntervals,
      cpu: cpuBetween(cpu0, cpu1),
      idleCpu: cpuBetween(idle0, idle1),
      longFrames: {
        count: rec.longFrames.length,
        maxMs: rec.longFrames.length ? Math.max(...rec.longFrames.map((f) => f.duration)) : 0,
        maxBlockingMs: rec.longFrames.length ? Math.max(...rec.longFrames.map((f) => f.blocking)) : 0,
        described: rec.longFrames.map((f) => `${Math.round(f.duration)} ms at +${Math.round(f.start - rec.clickAt)} ms (style+layout ${Math.round(f.styleLayoutMs)} ms; ${f.scripts.join(', ') || 'no script'})`),
      },
      runMs: rec.doneAt - rec.clickAt,
      pushedEvents: rec.pushes,
      rows: rec.rows,
      tasksDone,
      errors,
    };
  } finally {
    await context.close();
  }
}

export interface RendererCpu {
  /** CPU time of the renderer's main thread (CDP `ThreadTime`). */
  mainThreadMs: number;
  /** CPU time of the whole renderer process: main thread, compositor, raster (`ProcessTime`). */
  processMs: number;
  /** Main-thread time (wall) in script, style recalculation and layout. */
  scriptMs: number;
  styleMs: number;
  layoutMs: number;
  layouts: number;
}

async function rendererMetrics(cdp: CDPSession): Promise<Map<string, number>> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return new Map(metrics.map((m) => [m.name, m.value]));
}

function cpuBetween(a: Map<string, number>, b: Map<string, number>): RendererCpu {
  const d = (name: string) => (b.get(name) ?? NaN) - (a.get(name) ?? NaN);
  return {
    mainThreadMs: d('ThreadTime') * 1000,
    processMs: d('ProcessTime') * 1000,
    scriptMs: d('ScriptDuration') * 1000,
    styleMs: d('RecalcStyleDuration') * 1000,
    layoutMs: d('LayoutDuration') * 1000,
    layouts: d('LayoutCount'),
  };
}

/** requestAnimationFrame timestamps for `ms` on a page left alone. */
async function recordIdleFrames(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(
    (ms) =>
      new Promise<number[]>((resolve) => {
        const frames: number[] = [];
        const onFrame = (t: number) => {
          frames.push(t);
          if (t - frames[0]! < ms) requestAnimationFrame(onFrame);
          else resolve(frames);
        };
        requestAnimationFrame(onFrame);
      }),
    ms,
  );
}

/** Init script: counts the host's `event` pushes reaching the page (before the app handles them). */
function countEventPushes(): void {
  const w = window as unknown as { __benchPushes: number };
  w.__benchPushes = 0;
  const Native = window.WebSocket;
  class CountingWebSocket extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (m) => {
        // One `push`, or a batch of them (`pushes`).
        const data = String(m.data);
        if (data.startsWith('{"push') && data.includes('{"kind":"event","event":')) w.__benchPushes += data.split('{"kind":"event","event":').length - 1;
      });
    }
  }
  window.WebSocket = CountingWebSocket;
}

interface LiveRecording {
  frames: number[];
  longFrames: { start: number; duration: number; blocking: number; styleLayoutMs: number; scripts: string[] }[];
  clickAt: number;
  doneAt: number;
  status: string;
  rows: number;
  pushes: number;
}

/**
 * A rAF loop that records frame times from the Run click (the `run-start` click's event timestamp) until
 * the frame after the one in which the trace panel first showed the new run finished, and a
 * long-animation-frame observer over the same window.
 */
async function startLiveRecording(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = {
      frames: [] as number[],
      longFrames: [] as { start: number; duration: number; blocking: number; styleLayoutMs: number; scripts: string[] }[],
      clickAt: NaN,
      doneAt: 0,
      status: '',
      rows: 0,
      pushes: 0,
      pushesAtClick: 0,
      seenDone: false,
      // A page opened on a workspace shows its latest run: the finished run to wait for is a new one.
      previousRunId: document.querySelector('[data-testid="trace-panel"]')?.getAttribute('data-run-id') ?? '',
      observer: undefined as PerformanceObserver | undefined,
    };
    const w = window as unknown as { __benchLive: typeof state; __benchPushes: number; __benchLongFrame: (e: PerformanceEntry) => LongFrameEntry };
    w.__benchLive = state;
    type LongFrameEntry = { start: number; duration: number; blocking: number; styleLayoutMs: number; scripts: string[] };
    type Script = { invoker?: string; sourceFunctionName?: string; sourceURL?: string; sourceCharPosition?: number; duration: number };
    // What the frame spent its time on: style and layout, and its three longest scripts (LoAF attribution).
    w.__benchLongFrame = (e) => {
      const f = e as PerformanceEntry & { blockingDuration?: number; styleAndLayoutStart?: number; scripts?: Script[] };
      const scripts = [...(f.scripts ?? [])].sort((a, b) => b.duration - a.duration).slice(0, 3);
      return {
        start: f.startTime,
        duration: f.duration,
        blocking: f.blockingDuration ?? 0,
        styleLayoutMs: f.styleAndLayoutStart ? f.startTime + f.duration - f.styleAndLayoutStart : 0,
        scripts: scripts.map((x) => `${x.invoker ?? '?'} ${x.sourceFunctionName || '(anonymous)'}@${(x.sourceURL ?? '').split('/').pop()}:${x.sourceCharPosition ?? -1} ${Math.round(x.duration)} ms`),
      };
    };
    document.addEventListener(
      'click',
      (e) => {
        if (Number.isNaN(state.clickAt) && e.target instanceof Element && e.target.closest('[data-testid="run-start"]')) {
          state.clickAt = e.timeStamp;
          state.pushesAtClick = w.__benchPushes;
        }
      },
      { capture: true },
    );
    state.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        state.longFrames.push(w.__benchLongFrame(e));
      }
    });
    state.observer.observe({ type: 'long-animation-frame' });
    const onFrame = (t: number) => {
      if (Number.isNaN(state.clickAt)) {
        requestAnimationFrame(onFrame);
        return;
      }
      state.frames.push(t);
      if (state.seenDone) {
        // The frame that painted the finished run is over.
        state.doneAt = t;
        state.pushes = w.__benchPushes - state.pushesAtClick;
        return;
      }
      const panel = document.querySelector('[data-testid="trace-panel"]');
      const status = panel?.getAttribute('data-run-id') === state.previousRunId ? undefined : panel?.getAttribute('data-run-status');
      if (status === 'completed' || status === 'failed' || status === 'cancelled') {
        state.seenDone = true;
        state.status = status;
        state.rows = Number((panel!.querySelector('.trace-count')?.textContent ?? '').replace(/[^0-9]/g, ''));
      }
      requestAnimationFrame(onFrame);
    };
    requestAnimationFrame(onFrame);
  });
}

async function stopLiveRecording(page: Page): Promise<LiveRecording> {
  return page.evaluate(() => {
    const w = window as unknown as { __benchLive: LiveRecording & { observer?: PerformanceObserver }; __benchLongFrame: (e: PerformanceEntry) => LiveRecording['longFrames'][number] };
    const state = w.__benchLive;
    if (state.observer) {
      for (const e of state.observer.takeRecords()) {
        state.longFrames.push(w.__benchLongFrame(e));
      }
      state.observer.disconnect();
    }
    const inWindow = state.longFrames.filter((f) => f.start + f.duration >= state.clickAt && f.start <= state.doneAt);
    return { frames: state.frames, longFrames: inWindow, clickAt: state.clickAt, doneAt: state.doneAt, status: state.status, rows: state.rows, pushes: state.pushes };
  });
}
