import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configDir, openBrowser, serve, tempWorkspace, type ServedApp } from './support/app';

/**
 * Issue 32: the trust banner covered the palette and the canvas toolbar, and stayed bright above a
 * dimmed dialog. Docked in the layout it pushes them down: at both window sizes nothing it shows
 * overlaps the toolbar, the palette or the canvas's own toolbar (by their boxes), each of them takes a
 * click, and a modal's backdrop covers the banner like the rest.
 */
let app: ServedApp;
let workspace: string;

beforeAll(async () => {
  workspace = tempWorkspace('banner-layout');
  rmSync(join(configDir, 'trusted-workspaces.json'), { force: true });
  // A stdio MCP server: held until trusted (never started here).
  writeFileSync(join(workspace, 'crewdeck.json'), JSON.stringify({ version: 1, mcp: { servers: { files: { transport: 'stdio', command: 'npx', args: ['-y', 'some-mcp-server', './data'] } } } }, null, 2));
  app = await serve(workspace);
});

afterAll(async () => {
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(page: Page, testId: string): Promise<Box> {
  const found = await page.getByTestId(testId).boundingBox();
  if (!found) throw new Error(`${testId} has no box`);
  return found;
}

/** Whether a click at the middle of the element would reach it (nothing drawn over it there). */
async function takesClickAt(page: Page, testId: string): Promise<boolean> {
  return page.getByTestId(testId).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}

describe('the trust banner docks in the layout', () => {
  for (const [width, height] of [
    [1440, 900],
    [1280, 720],
  ] as const) {
    it(`pushes the palette and the toolbars down instead of covering them, and dims under a modal (${width}×${height})`, async () => {
      const session = await openBrowser(app.url, { width, height });
      try {
        const { page } = session;
        await page.getByTestId('trust-banner').waitFor();
        await page.locator('[data-testid="document-item"][data-path="research-brief.crew.json"]').click();
        await page.getByTestId('palette').waitFor();
        await page.getByTestId('canvas-fit-view').waitFor();

        const banner = await box(page, 'trust-banner');
        for (const id of ['run-crew', 'open-settings', 'palette', 'palette-agent', 'canvas-fit-view', 'canvas-auto-layout']) {
          expect(overlaps(banner, await box(page, id)), `${id} overlaps the banner`).toBe(false);
          expect(await takesClickAt(page, id), `${id} takes a click`).toBe(true);
        }
        // Nothing of the app is under the banner: it ends where the sidebar and the canvas begin.
        const sidebar = await page.locator('aside.sidebar').boundingBox();
        expect(sidebar!.y).toBeGreaterThanOrEqual(banner.y + banner.height - 1);
        await session.shot(`trust-banner-docked-${width}`);

        // Under a modal the banner is dimmed with the rest: the backdrop is what a click at it reaches.
        await page.getByTestId('run-crew').click();
        await page.getByTestId('run-dialog').waitFor();
        const under = await page.getByTestId('trust-banner').evaluate((el) => {
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.x + 8, r.y + r.height / 2);
          return hit?.className ?? '';
        });
        expect(under).toContain('modal-backdrop');
        await session.shot(`trust-banner-under-modal-${width}`);
        await page.keyboard.press('Escape');
        await page.getByTestId('run-dialog').waitFor({ state: 'detached' });
        // The palette and the canvas toolbar work: Fit, then an agent added from the palette.
        await page.getByTestId('canvas-fit-view').click();
        const agents = await page.locator('.crew-node--agent').count();
        await page.getByTestId('palette-agent').click();
        await expect.poll(() => page.locator('.crew-node--agent').count()).toBe(agents + 1);

        expect(session.errors).toEqual([]);
      } finally {
        await session.close();
      }
    });
  }
});
