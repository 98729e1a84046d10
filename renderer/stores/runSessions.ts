import { isLiveOnly, type RuntimeEvent } from '../../shared/events';
import type { HostApi } from '../../shared/host-api';
import { fetchRunEvents } from './fetchRunEvents';
import { foldRunEvents } from './reduceRunEvent';
import { emptyRunView, type RunView } from './runView';

/** One run the renderer follows: its folded view, and live events waiting to be folded. */
interface RunSession {
  runId: string;
  view?: RunView;
  /** Set while stored events are being fetched; live events wait in `queue` meanwhile. */
  loading?: Promise<void>;
  error?: string;
  queue: RuntimeEvent[];
  lastUsed: number;
}

const MAX_CACHED = 6;
/** Without animation frames (a hidden page, tests): fold at this pace instead. */
const FLUSH_MS = 16;
/**
 * While events stream in, views are folded at most this often: an event after a quiet spell is shown at
 * the next frame, a stream is shown ten times a second. Folding at every frame cost the renderer's main
 * thread 2.6 s for a 4.4 s, 5,000-event run (bench:ui live), most of it rendering and laying out views
 * no one reads at that rate; at this pace it is 2.0 s (docs/PERFORMANCE.md).
 */
const STREAM_FOLD_MS = 100;
const FIRST_PAGE = 1500;
const NEXT_PAGE = 2500;

/**
 * Keeps the views of the runs the person has looked at, fed first from the store (`runs.events`,
 * paged) and then from live pushes — in seq order, with no gaps (a gap is fetched) and no duplicates
 * (folding ignores events at or below the view's last seq). Live events are queued and folded after an
 * animation frame, at most every STREAM_FOLD_MS: however fast a run streams, the trace and the canvas
 * get a new view at most ten times a second.
 */
export class RunSessions {
  private readonly sessions = new Map<string, RunSession>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private flushFrame: number | undefined;
  /** performance.now() of the last fold of live events. */
  private lastFlush = -Infinity;
  private clock = 0;

  constructor(
    private readonly api: () => HostApi,
    /** A followed run's view changed; `partial` while the rest of its stored events are still loading. */
    private readonly changed: (runId: string, view: RunView | undefined, error?: string, partial?: boolean) => void,
    private readonly pinned: () => string | undefined,
  ) {}

  view(runId: string): RunView | undefined {
    return this.sessions.get(runId)?.view;
  }

  isLoading(runId: string): boolean {
    return this.sessions.get(runId)?.loading !== undefined;
  }

  /** Loads a run (or returns the cached one) and follows it from then on. */
  async open(runId: string): Promise<void> {
    let session = this.sessions.get(runId);
    if (session) {
      session.lastUsed = ++this.clock;
      if (session.loading) await session.loading;
      else if (session.error) {
        this.sessions.delete(runId);
        session = undefined;
      }
    }
    if (!session) {
      session = { runId, queue: [], lastUsed: ++this.clock };
      this.sessions.set(runId, session);
      this.evict();
      await this.load(session);
    }
  }

  /** A live event from the host. Events of runs nobody follows are ignored: `open` reads them from the store. */
  receive(event: RuntimeEvent): void {
    const session = this.sessions.get(event.runId);
    // A run whose stored events could not be read is read again (with these) when it is opened next.
    if (!session || session.error !== undefined) return;
    session.queue.push(event);
    if (!session.loading) this.scheduleFlush();
  }

  /** After a reconnect: fetch whatever the followed, unfinished (or paused) runs missed. */
  catchUp(): void {
    for (const session of this.sessions.values()) {
      if (!session.loading && session.view && (session.view.status === 'running' || session.view.status === 'pending' || session.view.status === 'paused')) void this.fill(session);
    }
  }

  /** Folds queued live events now (tests and the end of a batch use it). */
  flush(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    if (this.flushFrame !== undefined) cancelAnimationFrame(this.flushFrame);
    this.flushTimer = undefined;
    this.flushFrame = undefined;
    this.lastFlush = performance.now();
    for (const session of this.sessions.values()) {
      if (!session.loading && session.queue.length > 0) this.drain(session);
    }
  }

  /**
   * Right after the next animation frame, once STREAM_FOLD_MS have passed since the last fold: in a task
   * of its own (a 0 ms timer), not in the frame's callback, so the fold's render, commit and forced layout
   * run between two frames and the next frame only paints them. Folded inside the callback, all of it
   * and the frame's own paint had to fit in one frame, and a fast run's folds made one frame in seven or
   * eight late (bench:ui live). The timer covers pages that get no frames: a hidden tab folds every
   * 100 ms, and without requestAnimationFrame (tests in Node) every FLUSH_MS.
   */
  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    if (typeof requestAnimationFrame !== 'function') {
      this.flushTimer = setTimeout(() => this.flush(), FLUSH_MS);
      return;
    }
    const atFrame = () => {
      // The page can lose its frames while the wait runs (a test environment torn down): fold now.
      if (typeof requestAnimationFrame !== 'function') return this.flush();
      this.flushFrame = requestAnimationFrame(() => {
        this.flushFrame = undefined;
        clearTimeout(this.flushTimer);
        this.flushTimer = setTimeout(() => this.flush(), 0);
      });
      this.flushTimer = setTimeout(() => this.flush(), 100);
    };
    const wait = this.lastFlush + STREAM_FOLD_MS - performance.now();
    if (wait <= 0) atFrame();
    else this.flushTimer = setTimeout(atFrame, wait);
  }

  private async load(session: RunSession): Promise<void> {
    const task = (async () => {
      const api = this.api();
      // The first page is small so a long run shows at once; the rest follows in larger pages.
      const [{ run }, first] = await Promise.all([
        api.invoke('runs.get', { runId: session.runId }),
        api.invoke('runs.events', { runId: session.runId, afterSeq: 0, limit: FIRST_PAGE }),
      ]);
      let page = first;
      let view = emptyRunView(session.runId, run.document);
      for (;;) {
        const events = page.events as RuntimeEvent[];
        view = foldRunEvents(view, events);
        session.view = view;
        if (!page.more || events.length === 0) return;
        if (this.sessions.get(session.runId) === session) this.changed(session.runId, view, undefined, true);
        page = await api.invoke('runs.events', { runId: session.runId, afterSeq: view.lastSeq, limit: NEXT_PAGE });
      }
    })();
    session.loading = task.then(
      () => undefined,
      () => undefined,
    );
    try {
      await task;
      session.error = undefined;
    } catch (error) {
      session.error = error instanceof Error ? error.message : String(error);
      session.queue = [];
    }
    session.loading = undefined;
    if (this.sessions.get(session.runId) !== session) return;
    if (session.error) this.changed(session.runId, undefined, session.error);
    else this.drain(session);
  }

  /** Folds the queued events that continue the view; a gap is fetched from the store first. */
  private drain(session: RunSession): void {
    const view = session.view;
    if (!view) return;
    const queue = session.queue.sort((a, b) => a.seq - b.seq);
    let next = view.lastSeq + 1;
    let consumed = 0;
    const batch: RuntimeEvent[] = [];
    for (const e of queue) {
      // A stream delta follows the stored event whose seq it carries, and takes no seq of its own.
      const at = isLiveOnly(e) ? e.seq + 1 : e.seq;
      if (at > next) break;
      consumed += 1;
      if (at < next) continue;
      batch.push(e);
      if (!isLiveOnly(e)) next += 1;
    }
    session.queue = queue.slice(consumed);
    session.view = foldRunEvents(view, batch);
    this.changed(session.runId, session.view);
    if (session.queue.length > 0) void this.fill(session);
  }

  /** Fetches the events between the view and the live queue (missed while disconnected or loading). */
  private async fill(session: RunSession): Promise<void> {
    if (!session.view || session.loading) return;
    const from = session.view.lastSeq;
    const task = fetchRunEvents(this.api(), session.runId, from);
    session.loading = task.then(
      () => undefined,
      () => undefined,
    );
    try {
      const missed = await task;
      if (session.view) session.view = foldRunEvents(session.view, missed);
    } catch {
      // Keep what we have; the next live event or reconnect tries again.
    }
    session.loading = undefined;
    if (this.sessions.get(session.runId) !== session) return;
    const stuck = session.queue.length > 0 && session.queue.every((e) => (isLiveOnly(e) ? e.seq + 1 : e.seq) > (session.view?.lastSeq ?? 0) + 1);
    if (stuck && session.view?.lastSeq === from) {
      // The store has nothing newer yet; the queued events cannot be folded without the gap.
      this.changed(session.runId, session.view);
      return;
    }
    this.drain(session);
  }

  private evict(): void {
    if (this.sessions.size <= MAX_CACHED) return;
    const keep = this.pinned();
    const oldest = [...this.sessions.values()].filter((s) => s.runId !== keep && !s.loading).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const s of oldest.slice(0, this.sessions.size - MAX_CACHED)) this.sessions.delete(s.runId);
  }
}
