import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, repoRoot, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

let app: ServedApp;
let workspace: string;
let session: Session;

beforeAll(async () => {
  workspace = tempWorkspace('compare');
  // Two recorded runs of the example crew (scripted demo model), made from the command line.
  for (let i = 0; i < 2; i++) {
    const r = spawnSync(process.execPath, [join(repoRoot, 'bin/crewdeck.js'), 'run', join(workspace, 'research-brief.crew.json'), '--json'], {
      cwd: workspace,
      env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  }
  app = await serve(workspace);
  session = await openBrowser(app.url);
}, 120_000);

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('comparing runs and re-running offline in the Runs tab', () => {
  it('compares two ticked runs side by side, then re-runs one offline', async () => {
    const { page } = session;
    await page.getByTestId('tab-runs').click();
    await expect.poll(() => page.getByTestId('runs-row').count()).toBe(2);
    const picks = page.getByTestId('runs-pick');
    await picks.nth(0).check();
    await picks.nth(1).check();
    await page.getByTestId('runs-compare').click();
    const dialog = page.getByTestId('run-compare');
    await dialog.getByTestId('compare-step').first().waitFor();
    // The same crew on the same script: every step equal.
    const changed = await dialog.getByTestId('compare-step').evaluateAll((els) => els.map((e) => [e.getAttribute('data-task-id'), e.getAttribute('data-changed')]));
    expect(changed).toEqual([
      ['research', 'false'],
      ['brief', 'false'],
    ]);
    expect(await dialog.getByTestId('compare-totals').textContent()).toContain('+0 tok');
    await session.shot('runs-compare');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByTestId('runs-row').first().getByTestId('runs-offline').click();
    await page.getByTestId('tab-runs').click();
    await expect.poll(() => page.getByTestId('runs-row').count(), { timeout: 30_000 }).toBe(3);
    await page.getByTestId('runs-offline-mark').first().waitFor();
    await expect.poll(() => page.getByTestId('runs-row').first().getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    await session.shot('runs-offline');
  }, 120_000);
});
