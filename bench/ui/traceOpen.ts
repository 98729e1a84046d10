import type { Browser, Page } from 'playwright-core';
import { frameIntervals, longTasksBetween, recordingLongTasks, summariseIntervals, type IntervalSummary, type LongTaskSummary } from './frameStats';
import { installOpenProbe, KEEP_NAMES_SHIM, logHostWire, openTimes, paced, settle, startRecording, stopRecording, wireLog, type WireLogEntry } from './pageProbes';
import type { Profiler } from './profiler';

export const VIEWPORT = { width: 1440, height: 900 };
const SCROLL_MS = 3000;
const WHEEL_EVERY_MS = 1000 / 60;

/** One fresh page load: open the recorded run from the sidebar, then wheel-scroll its trace. */
export interface TraceSample {
  /** Click → the frame after the first rows of the run were painted. */
  firstRowsMs: number;
  rowsAtFirst: number;
  /** Click → the frame in which the whole run (status completed, no "loading events…") was in the DOM. */
  loadedMs: number;
  /** Click → the frame after that one: time to interactive. */
  interactiveMs: number;
  /** Rows in the tree once loaded (spans, all expanded). */
  rows: number;
  /** Click → the frame after the run's crew was painted on the canvas (NaN if it was not opened). */
  canvasMs: number;
  /** Long tasks from the click to interactive. */
  openLongTasks: LongTaskSummary;
  /** Long tasks from interactive until the page was quiet (≥ 500 ms without one) — mostly the canvas. */
  afterOpenLongTasks: LongTaskSummary;
  /** The host API calls that loaded the run (`runs.get`, `runs.events` pages), timed in the page. */
  host: HostCalls;
  /** Only when the scenario scrolled. */
  scrolls?: Record<ScrollKind, ScrollSample>;
  errors: string[];
}

export interface HostCalls {
  requests: number;
  /** Response JSON received, bytes (UTF-16 code units). */
  bytes: number;
  /** Click → the first request sent. */
  firstRequestMs: number;
  /** Time with at least one of these requests outstanding: waiting for the host (its work + the transfer). */
  waitingMs: number;
  /** Click → the last response reached the page. */
  lastResponseMs: number;
}

/** The run-loading calls sent between the click and the loaded frame, from the page's wire log. */
export function hostCalls(log: readonly WireLogEntry[], click: number, loaded: number): HostCalls {
  const out = log.filter((e) => e.dir === 'out' && e.t >= click && e.t <= loaded && (e.channel === 'runs.get' || e.channel === 'runs.events'));
  const spans = out
    .map((o) => ({ start: o.t, end: log.find((e) => e.dir === 'in' && e.id === o.id)?.t ?? NaN, bytes: log.find((e) => e.dir === 'in' && e.id === o.id)?.bytes ?? 0 }))
    .sort((a, b) => a.start - b.start);
  let waitingMs = 0;
  let reach = -Infinity;
  for (const sp of spans) {
    const from = Math.max(sp.start, reach);
    if (sp.end > from) waitingMs += sp.end - from;
    reach = Math.max(reach, sp.end);
  }
  return {
    requests: spans.length,
    bytes: spans.reduce((a, sp) => a + sp.bytes, 0),
    firstRequestMs: spans.length ? spans[0]!.start - click : NaN,
    waitingMs,
    lastResponseMs: spans.length ? Math.max(...spans.map((sp) => sp.end)) - click : NaN,
  };
}

/** 'notch': 100 px per wheel event (one mouse-wheel notch); 'fling': 600 px per event, a fast flick. */
export type ScrollKind = 'notch' | 'fling';
export const SCROLL: Record<ScrollKind, { deltaPx: number }> = { notch: { deltaPx: 100 }, fling: { deltaPx: 600 } };

export interface ScrollSample {
  /** Main-thread tasks over 50 ms while scrolling (and 200 ms after the last wheel). */
  longTasks: LongTaskSummary;
  frames: IntervalSummary;
  scrolledPx: number;
  wheelsSent: number;
  /** Wheel events that reached the page (Chromium may coalesce them). */
  wheelsReceived: number;
  ms: number;
}

/** Wheel events at 60 per second for SCROLL_MS, sent at a steady pace, with frames and long tasks recorded. */
async function wheelScroll(page: Page, kind: ScrollKind): Promise<ScrollSample> {
  const tree = page.getByTestId('trace-tree');
  const scrollTop = () => tree.evaluate((el) => el.scrollTop);
  const top0 = await scrollTop();
  const wheels = Math.round(SCROLL_MS / WHEEL_EVERY_MS);
  await startRecording(page);
  const ms = await paced(wheels, WHEEL_EVERY_MS, () => page.mouse.wheel(0, SCROLL[kind].deltaPx));
  await new Promise((r) => setTimeout(r, 200));
  const recording = await stopRecording(page);
  const top1 = await scrollTop();
  await settle(page, 300);
  return {
    longTasks: recordingLongTasks(recording),
    frames: summariseIntervals(frameIntervals(recording.frames)),
    scrolledPx: top1 - top0,
    wheelsSent: wheels,
    wheelsReceived: recording.inputs.wheel,
    ms,
  };
}

/**
 * 'sidebar': the run is clicked in the sidebar on a fresh page with no crew open, so the app also opens
 * the run's crew on the canvas. 'crew-open': the run's crew is clicked in the sidebar instead, and the app
 * shows its latest run (this one) in the trace. (It used to open the crew first and then click the run,
 * but the crew now shows its latest run as it opens: the run was on screen before the click.)
 */
export type OpenScenario = 'sidebar' | 'crew-open';

export interface TraceOpenOptions {
  scenario: OpenScenario;
  /** Workspace path of the run's crew (clicked in 'crew-open'). */
  documentPath: string;
  /** Also measure wheel scrolling after the open. */
  scroll: boolean;
  profiler?: Profiler;
  screenshot?: string;
}

export async function measureTraceOpen(browser: Browser, url: string, runId: string, options: TraceOpenOptions): Promise<TraceSample> {
  const { profiler } = options;
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'dark' });
  await context.addInitScript(KEEP_NAMES_SHIM);
  await context.addInitScript(logHostWire);
  const page = await context.newPage();
  const errors = collectErrors(page);
  try {
    await page.goto(url);
    const item = page.locator(`[data-testid="recent-run"][data-run-id="${runId}"]`);
    await item.waitFor({ timeout: 30_000 });
    const crew = page.locator(`[data-testid="document-item"][data-path="${options.documentPath}"]`);
    await settle(page);
    await installOpenProbe(page, runId, options.scenario === 'crew-open' ? 'document-item' : 'recent-run');
    await profiler?.start(page, `trace-open-${options.scenario}`);
    await (options.scenario === 'crew-open' ? crew : item).click();
    await page.waitForFunction(() => !Number.isNaN((window as unknown as { __benchOpen: { interactive: number } }).__benchOpen.interactive), undefined, {
      timeout: 120_000,
      polling: 100,
    });
    await settle(page);
    await profiler?.stop(page);
    if (options.screenshot) await page.screenshot({ path: options.screenshot });
    const times = await openTimes(page);
    const host = hostCalls(await wireLog(page), times.click, times.loaded);
    const quietAt = await page.evaluate(() => performance.now());

    let scrolls: Record<ScrollKind, ScrollSample> | undefined;
    if (options.scroll) {
      const box = await page.getByTestId('trace-tree').boundingBox();
      if (!box) throw new Error('the trace tree is not visible');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      scrolls = {} as Record<ScrollKind, ScrollSample>;
      for (const kind of ['notch', 'fling'] as ScrollKind[]) {
        await profiler?.start(page, `trace-scroll-${kind}`);
        scrolls[kind] = await wheelScroll(page, kind);
        await profiler?.stop(page);
      }
    }

    return {
      firstRowsMs: times.firstRows - times.click,
      rowsAtFirst: times.rowsAtFirst,
      loadedMs: times.loaded - times.click,
      interactiveMs: times.interactive - times.click,
      rows: times.rowsAtLoaded,
      canvasMs: times.canvasNodes - times.click,
      openLongTasks: longTasksBetween(times.longTasks, times.click, times.interactive),
      afterOpenLongTasks: longTasksBetween(times.longTasks, times.interactive, quietAt),
      host,
      scrolls,
      errors,
    };
  } finally {
    await context.close();
  }
}

export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}
