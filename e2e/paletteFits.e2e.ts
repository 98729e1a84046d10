import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp } from './support/app';

/**
 * Issue 32's smaller items: the flow palette was cut off at both window sizes, with no sign that more
 * was there. Items that do not fit go onto a second row: every one is whole inside the canvas column
 * and takes a click, at 1440×900 and 1280×720, for a flow and for a crew.
 */
let app: ServedApp;
let workspace: string;

beforeAll(async () => {
  workspace = tempWorkspace('palette-fits');
  app = await serve(workspace);
});
afterAll(async () => {
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('the palette', () => {
  for (const [width, height] of [
    [1440, 900],
    [1280, 720],
  ] as const) {
    it(`shows every item whole, each taking a click (${width}×${height})`, async () => {
      const session = await openBrowser(app.url, { width, height });
      try {
        const { page } = session;
        for (const file of ['feedback-loop.flow.json', 'research-brief.crew.json']) {
          await page.locator(`[data-testid="document-item"][data-path="${file}"]`).click();
          const palette = page.getByTestId('palette');
          await palette.waitFor();
          const found = await palette.evaluate((strip) => {
            const column = strip.getBoundingClientRect();
            return [...strip.querySelectorAll<HTMLElement>('.palette-item')].map((item) => {
              const r = item.getBoundingClientRect();
              const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
              return {
                label: item.textContent ?? '',
                inside: r.x >= column.x && r.right <= column.right && r.y >= column.y && r.bottom <= column.bottom && r.right <= window.innerWidth,
                whole: item.scrollWidth <= item.clientWidth,
                clickable: hit !== null && (hit === item || item.contains(hit)),
              };
            });
          });
          expect(found.length).toBeGreaterThanOrEqual(2);
          expect(found.filter((f) => !f.inside || !f.whole || !f.clickable), file).toEqual([]);
          await session.shot(`palette-${file.split('.')[0]}-${width}`);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      } finally {
        await session.close();
      }
    });
  }
});
