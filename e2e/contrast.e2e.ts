import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp } from './support/app';
import { contrastViolations, type ContrastViolation } from './support/axeContrast';

// Issue 18 (D16): text keeps WCAG AA contrast (4.5:1, axe-core's color-contrast rule) on the main views, in both themes.
let app: ServedApp;
let workspace: string;

beforeAll(async () => {
  workspace = tempWorkspace('contrast');
  app = await serve(workspace);
});
afterAll(async () => {
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('contrast on the main views', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`has no contrast violations in the ${theme} theme: canvas with a run, trace, runs, settings, memory`, async () => {
      const session = await openBrowser(app.url, { theme });
      const { page } = session;
      try {
        const found: Record<string, ContrastViolation[]> = {};
        await page.locator('[data-testid="document-item"][data-path="research-brief.crew.json"]').click();
        await page.getByTestId('crew-canvas').waitFor();
        found.canvas = await contrastViolations(page);
        if ((await page.getByTestId('trace-panel').count()) === 0) {
          await page.getByTestId('run-crew').click();
          await page.getByTestId('run-start').click();
        }
        await page.locator('[data-testid="run-status"]', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
        await page.getByTestId('trace-panel').waitFor();
        found.trace = await contrastViolations(page);
        await session.shot(`contrast-${theme}-trace`);
        await page.getByTestId('tab-runs').click();
        found.runs = await contrastViolations(page);
        await page.getByTestId('open-settings').click();
        await page.getByTestId('settings-panel').waitFor();
        found.settings = await contrastViolations(page);
        await session.shot(`contrast-${theme}-settings`);
        await page.getByText('Memory browser').click();
        await page.waitForTimeout(500);
        found.memory = await contrastViolations(page);
        await session.shot(`contrast-${theme}-memory`);
        expect(found).toEqual({ canvas: [], trace: [], runs: [], settings: [], memory: [] });
      } finally {
        await session.close();
      }
    });
  }
});
