/**
 * Code that runs inside the page (Playwright serialises these functions into it), so each one is
 * self-contained: no imports, no closures over this module. Times are `performance.now()` in the page.
 */
import type { Page } from 'playwright-core';

export interface LongTask {
  start: number;
  duration: number;
}

export interface Recording {
  /** requestAnimationFrame timestamps (frame begin times) while recording. */
  frames: number[];
  /** Main-thread tasks over 50 ms (PerformanceObserver 'longtask') that started while recording. */
  longTasks: LongTask[];
  /** Input events that reached the page while recording (Chromium coalesces moves and wheels per frame). */
  inputs: { mousemove: number; wheel: number };
  start: number;
  end: number;
}

export interface OpenTimes {
  /** The click's event timestamp (the input), time zero of the measurement. */
  click: number;
  /** First frame after the one that painted the first trace row of the run. */
  firstRows: number;
  rowsAtFirst: number;
  /** First frame after the one that painted the fully loaded run (status completed, no "loading events…"). */
  interactive: number;
  /** The frame in which the fully loaded run was first in the DOM. */
  loaded: number;
  rowsAtLoaded: number;
  /**
   * First frame after the one that painted the run's crew on the canvas, when the sidebar opens the
   * run's document too (it does when the host's run summary carries `documentPath`); NaN if not.
   */
  canvasNodes: number;
  /** Every long task since the page loaded (buffered), in page time. */
  longTasks: LongTask[];
}

/**
 * tsx compiles with esbuild's keepNames, which wraps inner named functions in `__name(fn, "name")`;
 * the helper does not exist in the page, so functions passed to `page.evaluate` would throw.
 */
export const KEEP_NAMES_SHIM = 'globalThis.__name = globalThis.__name || ((fn) => fn);';

export interface WireLogEntry {
  dir: 'out' | 'in';
  /** performance.now() when sent, or when the message reached the page's main thread. */
  t: number;
  id: number;
  channel?: string;
  bytes: number;
}

/**
 * An init script: logs every host API message over the page's WebSocket (time, request id, channel,
 * size) in `window.__benchWire`. Incoming messages are timed by a listener added before the app's own
 * `onmessage`, so the time is when the message reached the main thread, before the app parsed it.
 */
export function logHostWire(): void {
  const log: { dir: 'out' | 'in'; t: number; id: number; channel?: string; bytes: number }[] = [];
  (window as unknown as { __benchWire: typeof log }).__benchWire = log;
  const Native = window.WebSocket;
  class LoggedWebSocket extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (m) => {
        const data = String(m.data);
        const id = /"id":(\d+)/.exec(data.slice(0, 40));
        if (id) log.push({ dir: 'in', t: performance.now(), id: Number(id[1]), bytes: data.length });
      });
    }
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
      if (typeof data === 'string') {
        const m = /"id":(\d+),"channel":"([^"]+)"/.exec(data.slice(0, 80));
        if (m) log.push({ dir: 'out', t: performance.now(), id: Number(m[1]), channel: m[2], bytes: data.length });
      }
      super.send(data);
    }
  }
  window.WebSocket = LoggedWebSocket;
}

export async function wireLog(page: Page): Promise<WireLogEntry[]> {
  return page.evaluate(() => (window as unknown as { __benchWire?: WireLogEntry[] }).__benchWire ?? []);
}

/** Starts a rAF loop and a long-task observer in the page; `stopRecording` returns what they saw. */
export async function startRecording(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = {
      frames: [] as number[],
      longTasks: [] as { start: number; duration: number }[],
      start: performance.now(),
      end: NaN,
      inputs: { mousemove: 0, wheel: 0 },
      running: true,
      observer: undefined as PerformanceObserver | undefined,
      count: (e: Event) => {
        if (state.running && (e.type === 'mousemove' || e.type === 'wheel')) state.inputs[e.type]++;
      },
    };
    window.addEventListener('mousemove', state.count, { capture: true, passive: true });
    window.addEventListener('wheel', state.count, { capture: true, passive: true });
    (window as unknown as { __benchRecording: typeof state }).__benchRecording = state;
    const onFrame = (t: number) => {
      if (!state.running) return;
      state.frames.push(t);
      requestAnimationFrame(onFrame);
    };
    requestAnimationFrame(onFrame);
    state.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.startTime + e.duration >= state.start) state.longTasks.push({ start: e.startTime, duration: e.duration });
    });
    state.observer.observe({ type: 'longtask' });
  });
}

export async function stopRecording(page: Page): Promise<Recording> {
  return page.evaluate(() => {
    const state = (window as unknown as {
      __benchRecording: {
        frames: number[];
        longTasks: { start: number; duration: number }[];
        inputs: { mousemove: number; wheel: number };
        start: number;
        end: number;
        running: boolean;
        observer?: PerformanceObserver;
        count: (e: Event) => void;
      };
    }).__benchRecording;
    state.running = false;
    window.removeEventListener('mousemove', state.count, { capture: true });
    window.removeEventListener('wheel', state.count, { capture: true });
    state.end = performance.now();
    if (state.observer) {
      for (const e of state.observer.takeRecords()) if (e.startTime + e.duration >= state.start) state.longTasks.push({ start: e.startTime, duration: e.duration });
      state.observer.disconnect();
    }
    return { frames: state.frames, longTasks: state.longTasks, inputs: state.inputs, start: state.start, end: state.end };
  });
}

/**
 * Watches, once per frame, for the run's trace rows, the fully loaded run and the canvas nodes, and
 * records the first frame *after* each was first in the DOM (so the frame that painted it is done).
 */
export async function installOpenProbe(page: Page, runId: string, clicked = 'recent-run'): Promise<void> {
  await page.evaluate(({ runId, clicked }) => {
    const times = {
      click: NaN,
      firstRows: NaN,
      rowsAtFirst: 0,
      loaded: NaN,
      rowsAtLoaded: 0,
      interactive: NaN,
      canvasNodes: NaN,
      longTasks: [] as { start: number; duration: number }[],
    };
    const w = window as unknown as { __benchOpen: typeof times; __benchOpenObserver: PerformanceObserver };
    w.__benchOpen = times;
    w.__benchOpenObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) times.longTasks.push({ start: e.startTime, duration: e.duration });
    });
    w.__benchOpenObserver.observe({ type: 'longtask', buffered: true });
    document.addEventListener(
      'click',
      (e) => {
        if (Number.isNaN(times.click) && e.target instanceof Element && e.target.closest(`[data-testid="${clicked}"]`)) times.click = e.timeStamp;
      },
      { capture: true },
    );
    const selector = `[data-testid="trace-panel"][data-run-id="${runId}"]`;
    let rowsSeen = false;
    let loadedSeen = false;
    let canvasSeen = false;
    const onFrame = () => {
      const now = performance.now();
      // What was seen in the previous frame has been painted by now.
      if (rowsSeen && Number.isNaN(times.firstRows)) times.firstRows = now;
      if (loadedSeen && Number.isNaN(times.interactive)) times.interactive = now;
      if (canvasSeen && Number.isNaN(times.canvasNodes)) times.canvasNodes = now;
      const panel = document.querySelector(selector);
      if (panel && !rowsSeen) {
        const rows = panel.querySelectorAll('[data-testid="trace-row"]').length;
        if (rows > 0) {
          rowsSeen = true;
          times.rowsAtFirst = rows;
        }
      }
      if (panel && !loadedSeen && panel.getAttribute('data-run-status') === 'completed' && !/loading/.test(panel.querySelector('.trace-count')?.textContent ?? 'loading')) {
        loadedSeen = true;
        times.loaded = now;
        times.rowsAtLoaded = Number((panel.querySelector('.trace-count')?.textContent ?? '').replace(/[^0-9]/g, ''));
      }
      if (!canvasSeen && document.querySelector('[data-testid^="crew-node-"]')) canvasSeen = true;
      // The canvas is watched for up to 5 s more: whether the run's crew opens depends on the host's run summary.
      if (Number.isNaN(times.interactive) || (Number.isNaN(times.canvasNodes) && now - times.interactive < 5000)) requestAnimationFrame(onFrame);
    };
    requestAnimationFrame(onFrame);
  }, { runId, clicked });
}

export async function openTimes(page: Page): Promise<OpenTimes> {
  return page.evaluate(() => {
    const w = window as unknown as { __benchOpen: OpenTimesInPage; __benchOpenObserver: PerformanceObserver };
    for (const e of w.__benchOpenObserver.takeRecords()) w.__benchOpen.longTasks.push({ start: e.startTime, duration: e.duration });
    return w.__benchOpen;
  });
}
type OpenTimesInPage = OpenTimes;

/** Waits until the page has had no long task for `quietMs` (or `maxMs` passed); returns how long that took. */
export async function settle(page: Page, quietMs = 500, maxMs = 15_000): Promise<number> {
  return page.evaluate(
    ({ quietMs, maxMs }) =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        let last = t0;
        const observer = new PerformanceObserver((list) => {
          for (const e of list.getEntries()) last = Math.max(last, e.startTime + e.duration);
        });
        observer.observe({ type: 'longtask' });
        const check = () => {
          const now = performance.now();
          if (now - last >= quietMs || now - t0 >= maxMs) {
            observer.disconnect();
            resolve(now - t0);
          } else setTimeout(check, 50);
        };
        setTimeout(check, 50);
      }),
    { quietMs, maxMs },
  );
}

/**
 * Calls `send(i)` for i = 1…count at a steady `intervalMs` without waiting for each to be acknowledged,
 * like a real mouse whose events keep coming while the page is busy (Chromium acknowledges input only
 * once the page has handled it, so awaiting each would slow the input down to the page's pace).
 */
export async function paced(count: number, intervalMs: number, send: (i: number) => Promise<void>): Promise<number> {
  const t0 = performance.now();
  const sent: Promise<void>[] = [];
  for (let i = 1; i <= count; i++) {
    sent.push(send(i));
    const wait = t0 + i * intervalMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  await Promise.all(sent);
  return performance.now() - t0;
}
