import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/**
 * Issue 32: a new flow built from the palette failed on its first run (every method a start, the
 * default `{input}` with no value, the pre-made `begin` running too) and nothing warned; dropped nodes
 * overlapped and did not stay where they were dropped. Now: an empty file, three methods dropped while
 * the previous one is selected — it validates and runs on the first try, each where it was dropped; a
 * start method reading `{input}` shows a problem on its node before any run.
 */
let app: ServedApp;
let session: Session;
let workspace: string;

beforeAll(async () => {
  workspace = tempWorkspace('flow-drawn');
  app = await serve(workspace);
  session = await openBrowser(app.url);
});

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

type Box = { x: number; y: number; width: number; height: number };
const contains = (b: Box, p: { x: number; y: number }) => p.x >= b.x && p.x <= b.x + b.width && p.y >= b.y && p.y <= b.y + b.height;
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const methodNodes = (page: Page) => page.locator('[data-testid^="flow-method-"]');

/** Drags a palette item onto the canvas at (x, y) of the page; returns the new method's node. */
async function drop(page: Page, canvas: Locator, template: string, at: { x: number; y: number }): Promise<Locator> {
  const before = await methodNodes(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  const box = (await canvas.boundingBox())!;
  await page.getByTestId(`palette-${template}`).dragTo(canvas, { targetPosition: { x: at.x - box.x, y: at.y - box.y } });
  await expect.poll(() => methodNodes(page).count()).toBe(before.length + 1);
  const after = await methodNodes(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
  return page.getByTestId(after.find((id) => !before.includes(id))!);
}

describe('a flow valid as you draw it', () => {
  it('three methods dropped in a row on an empty flow: each kept where it was dropped, it validates and runs on the first try', async () => {
    const { page } = session;
    await page.getByTestId('new-document-kind').selectOption('flow');
    await page.getByLabel('New flow name').fill('Drawn');
    await page.getByRole('button', { name: 'Create' }).click();
    const canvas = page.getByTestId('flow-canvas');
    await canvas.waitFor();
    await page.getByTestId('flow-canvas-empty').waitFor();
    expect(await page.getByTestId('canvas-problems').textContent()).toContain('a flow needs at least one method');
    await session.shot('flow-drawn-empty');

    const box = (await canvas.boundingBox())!;
    const points = [
      { x: box.x + box.width * 0.2, y: box.y + box.height * 0.3 },
      { x: box.x + box.width * 0.5, y: box.y + box.height * 0.45 },
      { x: box.x + box.width * 0.8, y: box.y + box.height * 0.3 },
    ];
    const nodes: Locator[] = [];
    for (const [i, template] of (['set_state', 'script', 'set_state'] as const).entries()) {
      // The method just added is selected: the next one listens to it.
      nodes.push(await drop(page, canvas, template, points[i]!));
      const placed = (await nodes[i]!.boundingBox())!;
      expect(contains(placed, points[i]!), `method ${i + 1} is where it was dropped: ${JSON.stringify([placed, points[i]])}`).toBe(true);
      expect(await nodes[i]!.getAttribute('data-selected')).toBe('true');
    }
    const boxes = await Promise.all(nodes.map(async (n) => (await n.boundingBox())!));
    expect(overlaps(boxes[0]!, boxes[1]!) || overlaps(boxes[1]!, boxes[2]!) || overlaps(boxes[0]!, boxes[2]!)).toBe(false);
    for (const b of boxes) expect(b.x >= box.x && b.x + b.width <= box.x + box.width && b.y + b.height <= box.y + box.height, 'inside the canvas').toBe(true);
    await page.getByTestId('save-state').and(page.locator('[data-state="saved"]')).waitFor();
    expect(await page.getByTestId('canvas-problems').count()).toBe(0);
    expect(await page.getByTestId('node-problems').count()).toBe(0);
    expect(await page.getByTestId('node-warnings').count()).toBe(0);
    const saved = JSON.parse(readFileSync(join(workspace, 'drawn.flow.json'), 'utf8')) as { methods: { name: string; trigger: unknown }[] };
    expect(saved.methods.map((m) => [m.name, m.trigger])).toEqual([
      ['set_state', { start: true }],
      ['script', { listen: 'set_state' }],
      ['set_state_2', { listen: 'script' }],
    ]);
    await session.shot('flow-drawn-three');

    // A fourth dropped onto the second: it moves below it, never on top.
    const onTop = await drop(page, canvas, 'script', { x: boxes[1]!.x + 30, y: boxes[1]!.y + 20 });
    const moved = (await onTop.boundingBox())!;
    expect(overlaps(moved, boxes[1]!)).toBe(false);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => methodNodes(page).count()).toBe(3);

    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();
    await page.locator('[data-testid="run-status"][data-status="completed"]').waitFor({ timeout: 30_000 });
    for (const node of nodes) await expect.poll(() => node.getAttribute('data-status')).toBe('done');
    await session.shot('flow-drawn-ran');
    expect(session.errors).toEqual([]);
  });

  it('a start method that reads {input} shows the problem on its node before any run', async () => {
    const { page } = session;
    const first = page.getByTestId('flow-method-set-state');
    await first.click();
    const value = page.getByTestId('inspector').getByTestId('body-set-value-0');
    await value.fill('{input}');
    await value.blur();
    const problem = first.getByTestId('node-problems');
    await problem.waitFor();
    expect(await problem.textContent()).toContain('{input} has no value in a start method');
    expect(await page.getByTestId('run-crew').isDisabled()).toBe(true);
    await session.shot('flow-drawn-input-problem');
    expect(session.errors).toEqual([]);
  });
});
