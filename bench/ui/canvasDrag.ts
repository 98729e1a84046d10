import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { frameIntervals, recordingLongTasks, summariseIntervals, type IntervalSummary, type LongTaskSummary } from './frameStats';
import { KEEP_NAMES_SHIM, paced, settle, startRecording, stopRecording } from './pageProbes';
import type { Profiler } from './profiler';
import { collectErrors, VIEWPORT } from './traceOpen';

/** 'fit': the zoom the app opens the crew at (zoom to fit); 'readable': zoom 1.0, node text legible. */
export type ZoomMode = 'fit' | 'readable';

const DRAG = { dx: 120, dy: 80, steps: 60, durationMs: 1000 };

export interface DragSample {
  node: string;
  frames: IntervalSummary;
  /** All frame intervals of this drag (pooled across drags for the overall p95). */
  intervals: number[];
  longTasks: LongTaskSummary;
  /** Long tasks after the mouse went up (the move is saved to the document then), until quiet. */
  dropLongTasks: LongTaskSummary;
  /** How far the node moved on screen, to check the drag really dragged. */
  moved: { dx: number; dy: number };
  /** From the first move sent to the last one acknowledged. */
  dragMs: number;
  /** Mouse moves that reached the page (Chromium coalesces moves to one per frame when it falls behind). */
  movesReceived: number;
}

export interface CanvasResult {
  zoomMode: ZoomMode;
  zoom: number;
  /** Click on the document → the frame after its nodes were painted. */
  openMs: number;
  nodesRendered: number;
  edgesRendered: number;
  /** Nodes drawn in the simplified (zoomed-out) body. */
  lowDetailNodes: number;
  /** Nodes fully inside the visible pane. */
  nodesInView: number;
  idleFrames: IntervalSummary;
  warmup: DragSample;
  drags: DragSample[];
  errors: string[];
}

const NODE_SELECTOR = '[data-testid^="crew-node-"]';

export async function measureCanvasDrags(
  browser: Browser,
  url: string,
  documentPath: string,
  expectedNodes: number,
  zoomMode: ZoomMode,
  drags: number,
  profiler?: Profiler,
  screenshots?: string,
): Promise<CanvasResult> {
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'dark' });
  await context.addInitScript(KEEP_NAMES_SHIM);
  const page = await context.newPage();
  const errors = collectErrors(page);
  try {
    await page.goto(url);
    const item = page.locator(`[data-testid="document-item"][data-path="${documentPath}"]`);
    await item.waitFor({ timeout: 30_000 });
    await settle(page);
    const clickAt = await page.evaluate(() => performance.now());
    await item.click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid^="crew-node-"]').length >= n, expectedNodes, { timeout: 60_000, polling: 'raf' });
    const shownAt = await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(() => r(performance.now()))));
    await settle(page);

    if (zoomMode === 'readable') await zoomTo(page, 1);
    const zoom = await currentZoom(page);
    const counts = await page.evaluate((sel) => {
      const pane = document.querySelector('.react-flow')!.getBoundingClientRect();
      const nodes = [...document.querySelectorAll(sel)];
      const inView = nodes.filter((n) => {
        const b = n.getBoundingClientRect();
        return b.left >= pane.left && b.right <= pane.right && b.top >= pane.top && b.bottom <= pane.bottom;
      }).length;
      return {
        nodes: nodes.length,
        edges: document.querySelectorAll('.react-flow__edge').length,
        lowDetail: document.querySelectorAll('.is-low-detail').length,
        inView,
      };
    }, NODE_SELECTOR);

    await startRecording(page);
    await new Promise((r) => setTimeout(r, 1000));
    const idle = await stopRecording(page);

    if (screenshots) await page.screenshot({ path: join(screenshots, `canvas-${zoomMode}-before.png`) });
    let candidates = await dragCandidates(page);
    let refilled = false;
    const next = async (): Promise<Candidate> => {
      for (let c = candidates.shift(); c; c = candidates.shift()) if (await grabbable(page, c)) return c;
      // Zoomed in, few nodes fit in view: drag the ones in view again (from where they are now).
      if (!refilled) {
        refilled = true;
        candidates = await dragCandidates(page);
        for (let c = candidates.shift(); c; c = candidates.shift()) if (await grabbable(page, c)) return c;
      }
      throw new Error(`ran out of nodes to drag in view at zoom ${zoom.toFixed(2)} (${drags + 1} needed)`);
    };
    const warmup = await dragNode(page, await next());
    const samples: DragSample[] = [];
    for (let i = 1; i <= drags; i++) {
      const node = await next();
      if (i === 1) await profiler?.start(page, `canvas-drag-${zoomMode}`);
      samples.push(await dragNode(page, node));
      if (i === 1) await profiler?.stop(page);
    }
    if (screenshots) await page.screenshot({ path: join(screenshots, `canvas-${zoomMode}-after.png`) });
    return {
      zoomMode,
      zoom,
      openMs: shownAt - clickAt,
      nodesRendered: counts.nodes,
      edgesRendered: counts.edges,
      lowDetailNodes: counts.lowDetail,
      nodesInView: counts.inView,
      idleFrames: summariseIntervals(frameIntervals(idle.frames)),
      warmup,
      drags: samples,
      errors,
    };
  } finally {
    await context.close();
  }
}

async function currentZoom(page: Page): Promise<number> {
  return page.evaluate(() => {
    const t = (document.querySelector('.react-flow__viewport') as HTMLElement).style.transform;
    const m = /scale\(([\d.]+)\)/.exec(t);
    return m ? Number(m[1]) : NaN;
  });
}

/**
 * React Flow zooms by 2^(-deltaY × 0.002) per pixel-mode wheel event (d3-zoom's wheel delta), centred
 * on the pointer: one wheel of the right size lands on the zoom wanted.
 */
async function zoomTo(page: Page, target: number): Promise<void> {
  const pane = await page.locator('.react-flow__pane').boundingBox();
  if (!pane) throw new Error('no canvas pane');
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  for (let attempt = 0; attempt < 4; attempt++) {
    const k = await currentZoom(page);
    if (Math.abs(k - target) < 0.005) break;
    await page.mouse.wheel(0, -Math.log2(target / k) / 0.002);
    await page.waitForTimeout(250);
  }
  await settle(page);
}

interface Candidate {
  id: string;
  x: number;
  y: number;
  /** The way this node is dragged (DRAG.dx/dy, mirrored to stay clear of the pane's edges and panels). */
  dx: number;
  dy: number;
}

/**
 * Nodes that can be grabbed at their centre and dragged diagonally by DRAG.dx/dy with the pointer staying
 * inside the pane (React Flow auto-pans the view when the pointer nears an edge, which would measure
 * something else) and off its panels (minimap, controls, actions); in an order spread across the view.
 */
async function dragCandidates(page: Page): Promise<Candidate[]> {
  const all = await page.evaluate(
    ({ sel, dx, dy }) => {
      const pane = document.querySelector('.react-flow')!.getBoundingClientRect();
      const panels = [...document.querySelectorAll('.react-flow__panel')].map((p) => p.getBoundingClientRect());
      // React Flow starts auto-panning 40 px from the pane's edges.
      const margin = 48;
      const clear = (x: number, y: number) =>
        x >= pane.left + margin &&
        x <= pane.right - margin &&
        y >= pane.top + margin &&
        y <= pane.bottom - margin &&
        panels.every((p) => x < p.left - 8 || x > p.right + 8 || y < p.top - 8 || y > p.bottom + 8);
      const out: { id: string; x: number; y: number; dx: number; dy: number }[] = [];
      for (const el of document.querySelectorAll(sel)) {
        const b = el.getBoundingClientRect();
        const x = b.left + b.width / 2;
        const y = b.top + b.height / 2;
        if (!clear(x, y)) continue;
        // Down-right if there is room, else whichever diagonal stays clear.
        const way = [
          [dx, dy],
          [-dx, dy],
          [dx, -dy],
          [-dx, -dy],
        ].find(([wx, wy]) => clear(x + wx!, y + wy!));
        if (way) out.push({ id: el.getAttribute('data-testid')!.slice('crew-node-'.length), x, y, dx: way[0]!, dy: way[1]! });
      }
      return out;
    },
    { sel: NODE_SELECTOR, dx: DRAG.dx, dy: DRAG.dy },
  );
  // Spread: every k-th candidate first, then the ones in between.
  const stride = Math.max(1, Math.floor(all.length / 6));
  const order: Candidate[] = [];
  for (let offset = 0; offset < stride; offset++) for (let i = offset; i < all.length; i += stride) order.push(all[i]!);
  return order;
}

/** True if a pointer at the candidate's centre lands on the node itself (not on a node dragged over it). */
async function grabbable(page: Page, c: Candidate): Promise<boolean> {
  return page.evaluate(({ id, x, y }) => document.elementFromPoint(x, y)?.closest('[data-testid^="crew-node-"]')?.getAttribute('data-testid') === `crew-node-${id}`, c);
}

async function nodeBox(page: Page, id: string) {
  const box = await page.locator(`[data-testid="crew-node-${id}"]`).boundingBox();
  if (!box) throw new Error(`node ${id} is not visible`);
  return box;
}

/** Mouse down on the node, DRAG.steps moves at a steady pace over DRAG.durationMs, mouse up; rAF intervals recorded from the down to the last move. */
async function dragNode(page: Page, node: Candidate): Promise<DragSample> {
  const before = await nodeBox(page, node.id);
  await page.mouse.move(node.x, node.y);
  await startRecording(page);
  await page.mouse.down();
  const dragMs = await paced(DRAG.steps, DRAG.durationMs / DRAG.steps, (i) => page.mouse.move(node.x + (node.dx * i) / DRAG.steps, node.y + (node.dy * i) / DRAG.steps));
  const drag = await stopRecording(page);
  await startRecording(page);
  await page.mouse.up();
  await settle(page, 300);
  const drop = await stopRecording(page);
  const after = await nodeBox(page, node.id);
  if (Math.abs(after.x - before.x - node.dx) > 10 || Math.abs(after.y - before.y - node.dy) > 10) {
    throw new Error(`dragging ${node.id} by ${node.dx},${node.dy} moved it by ${after.x - before.x},${after.y - before.y}: the drag did not take`);
  }
  const intervals = frameIntervals(drag.frames);
  return {
    node: node.id,
    frames: summariseIntervals(intervals),
    intervals,
    longTasks: recordingLongTasks(drag),
    dropLongTasks: recordingLongTasks(drop),
    moved: { dx: after.x - before.x, dy: after.y - before.y },
    dragMs,
    movesReceived: drag.inputs.mousemove,
  };
}
