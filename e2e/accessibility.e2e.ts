import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp } from './support/app';
import { seriousViolations, type AxeViolation } from './support/axe';

// Issue 18 (D16) and issue 32: axe-core finds nothing serious or critical (WCAG AA contrast, 4.5:1, among
// them) on the main views, in both themes: the canvas with a run, trace, runs, Settings, Memory, Training, Tests.
let app: ServedApp;
let workspace: string;

beforeAll(async () => {
  workspace = tempWorkspace('accessibility');
  app = await serve(workspace);
});
afterAll(async () => {
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('accessibility of the main views', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`has no serious or critical axe violations in the ${theme} theme: canvas with a run, trace, runs, settings, memory, training, tests`, async () => {
      const session = await openBrowser(app.url, { theme });
      const { page } = session;
      try {
        const found: Record<string, AxeViolation[]> = {};
        await page.locator('[data-testid="document-item"][data-path="research-brief.crew.json"]').click();
        await page.getByTestId('crew-canvas').waitFor();
        found.canvas = await seriousViolations(page);
        if ((await page.getByTestId('trace-panel').count()) === 0) {
          await page.getByTestId('run-crew').click();
          await page.getByTestId('run-start').click();
        }
        await page.locator('[data-testid="run-status"]', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
        await page.getByTestId('trace-panel').waitFor();
        found.trace = await seriousViolations(page);
        await session.shot(`a11y-${theme}-trace`);
        await page.getByTestId('tab-runs').click();
        found.runs = await seriousViolations(page);
        await page.getByTestId('open-settings').click();
        await page.getByTestId('settings-panel').waitFor();
        found.settings = await seriousViolations(page);
        await session.shot(`a11y-${theme}-settings`);
        await page.getByText('Memory browser').click();
        await page.getByTestId('memory-panel').waitFor();
        found.memory = await seriousViolations(page);
        await session.shot(`a11y-${theme}-memory`);
        for (const view of ['Training', 'Tests'] as const) {
          await page.getByTestId(`view-${view.toLowerCase()}`).click();
          await page.getByTestId(view === 'Training' ? 'training-panel' : 'test-panel').waitFor();
          found[view.toLowerCase()] = await seriousViolations(page);
          await session.shot(`a11y-${theme}-${view.toLowerCase()}`);
        }
        expect(found).toEqual({ canvas: [], trace: [], runs: [], settings: [], memory: [], training: [], tests: [] });
      } finally {
        await session.close();
      }
    });
  }
});
