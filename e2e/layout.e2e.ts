import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

// Issue 18: the app gives the space to the work — at 1440×900 nothing overflows, panels resize and keep their size.
let app: ServedApp;
let workspace: string;
let session: Session;

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

beforeAll(async () => {
  workspace = tempWorkspace('layout');
  // A 300-node crew: 100 agents, 200 tasks (task i assigned to agent i mod 100), no layout saved.
  const agents = Array.from({ length: 100 }, (_, i) => ({ id: `agent-${i + 1}`, role: `Analyst ${i + 1}`, goal: 'Find facts', tools: [] }));
  const tasks = Array.from({ length: 200 }, (_, i) => ({ id: `task-${i + 1}`, name: `Step ${i + 1} of the study`, description: 'Do it.', expectedOutput: 'A line.', agentId: `agent-${(i % 100) + 1}` }));
  writeFileSync(join(workspace, 'big.crew.json'), JSON.stringify({ version: 1, kind: 'crew', id: 'big', name: 'Big crew', process: 'sequential', agents, tasks }));
  app = await serve(workspace);
  session = await openBrowser(app.url);
});

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

const openDocument = (page: Page, path: string) => page.locator(`[data-testid="document-item"][data-path="${path}"]`).click();

async function runShownDocument(page: Page): Promise<void> {
  await page.getByTestId('run-crew').click();
  await page.getByTestId('run-start').click();
  await page.locator('[data-testid="run-status"]', { hasText: /completed|paused/ }).waitFor({ timeout: 30_000 });
}

describe('layout at 1440×900', () => {
  it('with no run shown the canvas has at least 70 % of the height, and the run panel is only its tab bar', async () => {
    const { page } = session;
    await openDocument(page, 'product-launch.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    await page.getByTestId('trace-empty').waitFor({ state: 'detached' }).catch(() => undefined);
    const canvas = (await page.getByTestId('crew-canvas').boundingBox())!;
    expect(canvas.height / 900).toBeGreaterThanOrEqual(0.7);
    expect(await page.getByTestId('run-panel').getAttribute('data-open')).toBe('false');
    await session.shot('layout-no-run');
  });

  it('select all on a crew with a run keeps the page 1440 px wide (the filter chip truncates, with a tooltip)', async () => {
    const { page } = session;
    await openDocument(page, 'research-brief.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    await runShownDocument(page);
    await page.getByTestId('crew-canvas').locator('.react-flow__pane').click({ position: { x: 30, y: 200 } });
    await page.keyboard.press('Control+a');
    const chip = page.getByTestId('trace-filter');
    await chip.waitFor();
    expect(await chip.getAttribute('title')).toMatch(/^Filtered by /);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    // The inspector stays in the window.
    const inspector = (await page.getByTestId('inspector').boundingBox())!;
    expect(inspector.x + inspector.width).toBeLessThanOrEqual(1440);
    await session.shot('layout-select-all');
    await page.keyboard.press('Escape');
  });

  it('resizes the run panel by keyboard and keeps the size after a reload', async () => {
    const { page } = session;
    const grip = page.getByTestId('resize-runPanel');
    await grip.waitFor();
    const before = Number(await grip.getAttribute('aria-valuenow'));
    await grip.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowUp');
    const after = Number(await grip.getAttribute('aria-valuenow'));
    expect(after).toBe(before + 80);
    const height = (await page.getByTestId('run-panel').boundingBox())!.height;
    expect(Math.round(height)).toBe(after);
    // Sidebar and inspector have grips of their own.
    expect(await page.getByRole('separator', { name: 'Resize the sidebar' }).count()).toBe(1);
    expect(await page.getByRole('separator', { name: 'Resize the inspector' }).count()).toBe(1);
    await session.shot('layout-run-panel-resized');

    const runId = await page.getByTestId('trace-panel').getAttribute('data-run-id');
    await page.reload();
    // Opening the crew shows its latest run without a click.
    await openDocument(page, 'research-brief.crew.json');
    await page.locator(`[data-testid="trace-panel"][data-run-id="${runId}"]`).waitFor();
    await page.getByTestId('crew-canvas').locator('[data-testid="node-status"][data-status="done"]').first().waitFor();
    await session.shot('layout-latest-run-on-open');
    expect(Number(await page.getByTestId('resize-runPanel').getAttribute('aria-valuenow'))).toBe(after);
    expect(Math.round((await page.getByTestId('run-panel').boundingBox())!.height)).toBe(after);
  });

  it('New run clears the shown run; a crew without runs shows none', async () => {
    const { page } = session;
    await page.getByTestId('trace-new-run').click();
    await page.locator('[data-testid="run-panel"][data-open="false"]').waitFor();
    expect(await page.getByTestId('trace-panel').count()).toBe(0);
    await openDocument(page, 'product-launch.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    expect(await page.getByTestId('trace-panel').count()).toBe(0);
  });

  it('marks the method a paused flow waits at, with Answer…', async () => {
    const { page } = session;
    await openDocument(page, 'feedback-loop.flow.json');
    await page.getByTestId('flow-canvas').waitFor();
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();
    const dialog = page.getByTestId('flow-feedback-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    await dialog.getByTestId('flow-feedback-later').click();
    const marker = page.locator('[data-testid^="paused-marker-"]');
    await marker.waitFor();
    expect(await marker.count()).toBe(1);
    const key = (await marker.getAttribute('data-testid'))!.replace('paused-marker-', '');
    expect(await page.getByTestId(`flow-method-${key}`).getAttribute('data-status')).toBe('waiting');
    await session.shot('layout-paused-flow-marker');
    await page.getByTestId(`paused-answer-${key}`).click();
    await dialog.waitFor();
    await dialog.getByTestId('flow-feedback-later').click();
  });

  it('keeps every node added from the palette, and the Manager of hierarchical, inside the visible canvas', async () => {
    const { page } = session;
    await page.getByLabel('New crew name').fill('In view');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('crew-canvas').waitFor();
    const inView = async (testId: string) => {
      const canvas = (await page.getByTestId('crew-canvas').boundingBox())!;
      const node = page.getByTestId(testId);
      await node.waitFor();
      const box = (await node.boundingBox())!;
      return box.x >= canvas.x && box.y >= canvas.y && box.x + box.width <= canvas.x + canvas.width && box.y + box.height <= canvas.y + canvas.height;
    };
    const kinds = ['task', 'task', 'task', 'agent', 'task'] as const;
    for (const kind of kinds) {
      const before = await page.locator(`[data-testid^="crew-node-${kind}:"]`).count();
      await page.getByTestId(`palette-${kind}`).click();
      await expect.poll(() => page.locator(`[data-testid^="crew-node-${kind}:"]`).count()).toBe(before + 1);
      const id = await page.locator(`[data-testid^="crew-node-${kind}:"]`).nth(before).getAttribute('data-testid');
      // The canvas pans to the new node over a few frames: poll until it has.
      await expect.poll(() => inView(id!), { message: `${id} in view` }).toBe(true);
    }
    await page.getByTestId('crew-canvas').locator('.react-flow__pane').click({ position: { x: 200, y: 20 } });
    await page.getByTestId('field-process').selectOption('hierarchical');
    await expect.poll(() => inView('crew-node-manager'), { message: 'the Manager in view' }).toBe(true);
    await session.shot('layout-palette-in-view');
  });

  it('Ctrl+K finds a task by name and selects it; ? lists the shortcuts', async () => {
    const { page } = session;
    await openDocument(page, 'research-brief.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    await page.keyboard.press('Control+k');
    await page.getByTestId('command-palette').waitFor();
    await page.getByTestId('command-input').fill('write the');
    const first = page.getByTestId('command-item').first();
    expect(await first.getAttribute('data-kind')).toBe('node');
    expect(await first.textContent()).toContain('Write the brief');
    await session.shot('layout-command-palette');
    await page.keyboard.press('Enter');
    await page.getByTestId('command-palette').waitFor({ state: 'detached' });
    const selected = await page.locator('[data-testid^="crew-node-task:"].selected, .react-flow__node.selected [data-testid^="crew-node-task:"]').count();
    expect(selected).toBe(1);
    expect(await page.getByTestId('inspector').textContent()).toContain('Write the brief');
    await page.getByTestId('crew-canvas').locator('.react-flow__pane').click({ position: { x: 30, y: 300 } });
    await page.keyboard.press('?');
    await page.getByTestId('shortcuts-overlay').waitFor();
    expect(await page.getByTestId('shortcuts-overlay').textContent()).toContain('Ctrl/⌘ K');
    await page.keyboard.press('Escape');
    await page.getByTestId('shortcuts-overlay').waitFor({ state: 'detached' });
  });

  it('opens the 300-node crew folded by agent: at Fit every agent label is on screen, whole, ≥ 9 px, none overlapping, no scroll', async () => {
    const { page } = session;
    await openDocument(page, 'big.crew.json');
    const canvas = page.getByTestId('crew-canvas');
    await expect.poll(() => canvas.getAttribute('data-node-count')).toBe('100');
    await page.getByTestId('canvas-fit-view').click();
    await page.getByTestId('crew-node-agent:agent-100').waitFor();
    // Fit animates for 200 ms: read the labels once the zoom stops changing.
    let zoom = -1;
    await expect.poll(async () => {
      const now = await page.evaluate(() => new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).a);
      const settled = now === zoom;
      zoom = now;
      return settled;
    }).toBe(true);
    const labels = await page.evaluate(() => {
      const viewport = new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).a;
      return [...document.querySelectorAll<HTMLElement>('[data-testid^="crew-node-agent:"] .crew-node-title')].map((title) => {
        const box = title.getBoundingClientRect();
        return { text: title.textContent ?? '', px: parseFloat(getComputedStyle(title).fontSize) * viewport, whole: title.scrollWidth <= title.clientWidth + 1 && title.scrollHeight <= title.clientHeight + 1, box: { x: box.x, y: box.y, width: box.width, height: box.height } };
      });
    });
    expect(labels).toHaveLength(100);
    const area = (await canvas.boundingBox())!;
    for (const label of labels) {
      expect(label.px, label.text).toBeGreaterThanOrEqual(9);
      expect(label.whole, `${label.text} is cut off`).toBe(true);
      expect(label.box.x >= area.x && label.box.y >= area.y && label.box.x + label.box.width <= area.x + area.width && label.box.y + label.box.height <= area.y + area.height, `${label.text} on screen`).toBe(true);
    }
    for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) expect(overlaps(labels[i]!.box, labels[j]!.box), `${labels[i]!.text} / ${labels[j]!.text}`).toBe(false);
    expect(await page.getByTestId('fold-agent:agent-7').textContent()).toContain('+2 tasks');
    expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([1440, 900]);
    await session.shot('layout-300-node-overview');
  });

  it('expanded, the 300-node crew lays out in swimlanes, and Fit shows the whole graph', async () => {
    const { page } = session;
    const canvas = page.getByTestId('crew-canvas');
    await page.getByTestId('canvas-collapse-all').click();
    await expect.poll(() => canvas.getAttribute('data-node-count')).toBe('300');
    await page.getByTestId('canvas-swimlanes').click();
    // Lanes: agent 1's tasks (1 and 101) share its row, in order (read in the canvas's own coordinates,
    // which the fit animating after the layout does not move).
    const y = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`).evaluate((n) => new DOMMatrixReadOnly(getComputedStyle(n).transform).f);
    await page.getByTestId('crew-node-task:task-101').waitFor();
    const [a1, t1, t101] = [await y('agent:agent-1'), await y('task:task-1'), await y('task:task-101')];
    expect(t1).toBe(a1);
    expect(t101).toBe(a1);
    await page.getByTestId('canvas-fit-view').click();
    // Every node is drawn (none culled as out of view) and inside the canvas.
    await expect.poll(() => page.locator('.react-flow__node').count()).toBe(300);
    const area = (await canvas.boundingBox())!;
    await expect
      .poll(() => page.evaluate(({ x, y, width, height }) => [...document.querySelectorAll('.react-flow__node')].filter((n) => { const b = n.getBoundingClientRect(); return b.x < x || b.y < y || b.right > x + width || b.bottom > y + height; }).length, area))
      .toBe(0);
    // Edges are drawn for the selection only on a crew this large.
    expect(await page.locator('.react-flow__edge').count()).toBe(0);
    await page.getByTestId('crew-node-agent:agent-1').click();
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    await session.shot('layout-300-node-swimlanes');
  });

  it('folds the 300-node crew by agent: Collapse all leaves the 100 agents; a selected agent shows its edges; labels stay ≥ 9 px', async () => {
    const { page } = session;
    const canvas = page.getByTestId('crew-canvas');
    expect(await canvas.getAttribute('data-node-count')).toBe('300');
    await page.getByTestId('canvas-collapse-all').click();
    await expect.poll(() => canvas.getAttribute('data-node-count')).toBe('100');
    expect(await page.locator('[data-testid^="crew-node-task:"]').count()).toBe(0);
    expect(await page.getByTestId('fold-agent:agent-1').textContent()).toContain('+2 tasks');
    await page.getByTestId('canvas-fit-view').click();
    await page.waitForTimeout(600);
    // Collapse all is the overview again: blocks in a grid, the minimap (shown here) kept clear.
    const minimap = (await page.locator('.crew-minimap').boundingBox())!;
    const under = await page.locator('[data-testid^="crew-node-agent:"]').evaluateAll(
      (nodes, m) => nodes.filter((n) => { const b = n.getBoundingClientRect(); return b.right > m.x && b.x < m.x + m.width && b.bottom > m.y && b.y < m.y + m.height; }).length,
      minimap,
    );
    expect(under).toBe(0);
    const px = await page.evaluate(() => {
      const viewport = document.querySelector('.react-flow__viewport') as HTMLElement;
      const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
      const title = document.querySelector('[data-testid^="crew-node-agent:"] .crew-node-title') as HTMLElement;
      return parseFloat(getComputedStyle(title).fontSize) * zoom;
    });
    expect(px).toBeGreaterThanOrEqual(9);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    await session.shot('layout-300-collapsed');

    // Ctrl+K to a folded task unfolds its agent (agent 50: tasks 50 and 150) and selects it.
    await canvas.locator('.react-flow__pane').click({ position: { x: 700, y: 400 } });
    await page.keyboard.press('Control+k');
    await page.getByTestId('command-input').fill('Step 150 of');
    expect(await page.getByTestId('command-item').first().textContent()).toContain('Step 150 of the study');
    await page.keyboard.press('Enter');
    await expect.poll(() => canvas.getAttribute('data-node-count')).toBe('102');
    await page.locator('.react-flow__node.selected [data-testid="crew-node-task:task-150"]').waitFor();
    // One agent unfolds on its own: its two tasks come back (Fit first: the reveal panned to task 150;
    // Fit shows the whole crew, so agent 1's toggle is drawn, if small: clicked through the DOM).
    await page.getByTestId('canvas-fit-view').click();
    await page.getByTestId('fold-agent:agent-1').dispatchEvent('click');
    await expect.poll(() => canvas.getAttribute('data-node-count')).toBe('104');
    await page.getByTestId('crew-node-task:task-101').waitFor();

    // Expand all; edges follow the selection: agent 2's two assignments only.
    await page.getByTestId('canvas-collapse-all').click();
    await expect.poll(() => canvas.getAttribute('data-node-count')).toBe('300');
    // Fit now shows all 300 nodes, too small to click: Ctrl+K selects agent 2 and brings it close.
    await page.keyboard.press('Control+k');
    await page.getByTestId('command-input').fill('Analyst 2');
    await page.getByTestId('command-item').filter({ has: page.locator('.command-label', { hasText: /^Analyst 2$/ }) }).click();
    await page.locator('.react-flow__node.selected [data-testid="crew-node-agent:agent-2"]').waitFor();
    await expect.poll(() => canvas.getAttribute('data-edge-count')).toBe('2');
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2);
    await session.shot('layout-300-selection-edges');
    // All edges on request, and back.
    await page.getByTestId('canvas-edges-mode').click();
    await expect.poll(() => canvas.getAttribute('data-edge-count')).toBe('200');
    await page.getByTestId('canvas-edges-mode').click();
    await expect.poll(() => canvas.getAttribute('data-edge-count')).toBe('2');
  });

  it('Auto-layout with ELK (in its web worker) keeps the declared agent order', async () => {
    const { page } = session;
    await openDocument(page, 'research-brief.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    const box = async (id: string) => (await page.getByTestId(`crew-node-${id}`).boundingBox())!;
    // Drag the writer above the researcher first, so the layout has an order to restore.
    const writer = await box('agent:writer');
    const researcher = await box('agent:researcher');
    await page.mouse.move(writer.x + 60, writer.y + 14);
    await page.mouse.down();
    await page.mouse.move(writer.x + 60, researcher.y - 120, { steps: 8 });
    await page.mouse.up();
    expect((await box('agent:writer')).y).toBeLessThan((await box('agent:researcher')).y);
    await page.getByTestId('canvas-layout-engine').selectOption('elk');
    const worker = page.waitForEvent('worker', { timeout: 10_000 });
    await page.getByTestId('canvas-auto-layout').click();
    expect((await worker).url()).toContain('elkWorker');
    await page.locator('[data-testid="canvas-auto-layout"]:not([aria-busy="true"])').waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await box('agent:writer')).y - (await box('agent:researcher')).y).toBeGreaterThan(0);
    // Tasks in one column, in order, left of the agents.
    const [research, brief] = [await box('task:research'), await box('task:brief')];
    expect(research.y).toBeLessThan(brief.y);
    expect((await box('agent:researcher')).x).toBeGreaterThan(research.x + research.width);
    await page.getByTestId('canvas-layout-engine').selectOption('dagre');
    expect(session.errors).toEqual([]);
  });

  it('lays out the 300-node crew with ELK off the UI thread: frames keep coming while it works', async () => {
    const { page } = session;
    // The ELK worker's answers are held until the test lets them go (over a BroadcastChannel, once the
    // worker has said it is there), so the layout is in progress for as long as the test looks, however
    // fast or slow the machine: the page must keep drawing frames meanwhile. How long it takes is
    // measured in bench:elk, not here.
    const WORKER = '**/elkWorker-*.js';
    await page.route(WORKER, async (route) => {
      const response = await route.fetch();
      const hold =
        "{ const post = self.postMessage.bind(self); const held = []; let open = false; const bc = new BroadcastChannel('e2e-elk');" +
        " bc.onmessage = (e) => { if (e.data !== 'release') return; open = true; for (const m of held.splice(0)) post(m); };" +
        " self.postMessage = (m) => { if (open) post(m); else held.push(m); }; bc.postMessage('ready'); }\n";
      await route.fulfill({ response, body: hold + (await response.text()) });
    });
    try {
      // A fresh page: a new ELK engine, whose worker is fetched through the route.
      await page.reload();
      await openDocument(page, 'big.crew.json');
      await page.getByTestId('crew-canvas').waitFor();
      // It opens folded by agent: every task back first, so ELK lays out all 300 nodes.
      await page.getByTestId('canvas-collapse-all').click();
      await expect.poll(() => page.getByTestId('crew-canvas').getAttribute('data-node-count')).toBe('300');
      await page.getByTestId('canvas-layout-engine').selectOption('elk');
      await page.evaluate(() => {
        const channel = new BroadcastChannel('e2e-elk');
        const ready = new Promise<void>((resolve) => (channel.onmessage = (e) => e.data === 'ready' && resolve()));
        Object.assign(window, { e2eElk: { channel, ready } });
      });
      const worker = page.waitForEvent('worker', { timeout: 10_000 });
      await page.getByTestId('canvas-auto-layout').click();
      expect((await worker).url()).toContain('elkWorker');
      // The worker runs and holds its answers from here on.
      await page.evaluate(() => (window as unknown as { e2eElk: { ready: Promise<void> } }).e2eElk.ready);
      await page.locator('[data-testid="canvas-auto-layout"][aria-busy="true"]').waitFor();
      // Ten frames in a row while the layout waits for the worker: the main thread is free to draw.
      const busyPerFrame = await page.evaluate(
        () =>
          new Promise<boolean[]>((resolve) => {
            const seen: boolean[] = [];
            const tick = () => {
              seen.push(document.querySelector('[data-testid="canvas-auto-layout"]')?.getAttribute('aria-busy') === 'true');
              if (seen.length === 10) resolve(seen);
              else requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
          }),
      );
      expect(busyPerFrame).toEqual(Array.from({ length: 10 }, () => true));
      await page.evaluate(() => (window as unknown as { e2eElk: { channel: BroadcastChannel } }).e2eElk.channel.postMessage('release'));
      await page.locator('[data-testid="canvas-auto-layout"]:not([aria-busy="true"])').waitFor({ timeout: 30_000 });
      // It applied: tasks in order down one column, agents in declared order beside them.
      const y = async (id: string) => (await page.getByTestId(`crew-node-${id}`).boundingBox())!.y;
      await expect.poll(async () => (await y('task:task-2')) - (await y('task:task-1')), { timeout: 5_000 }).toBeGreaterThan(0);
      await page.getByTestId('canvas-layout-engine').selectOption('dagre');
      expect(session.errors).toEqual([]);
    } finally {
      await page.unroute(WORKER);
    }
  });

  it('shows Settings without the run panel under it', async () => {
    const { page } = session;
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-panel').waitFor();
    expect(await page.getByTestId('run-panel').count()).toBe(0);
    const main = (await page.locator('.app-main').boundingBox())!;
    expect(main.y + main.height).toBeGreaterThanOrEqual(899);
    await session.shot('layout-settings');
    expect(session.errors).toEqual([]);
  });
});
