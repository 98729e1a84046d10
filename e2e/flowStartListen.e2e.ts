import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, repoRoot, serve, tempWorkspace, type ServedApp, type Session } from './support/app';
import { contrastViolations } from './support/axe';

// Issue 16: an imported CrewAI `@start("retry")` is a start method that also listens; the inspector shows
// and edits that condition ("Also runs when"), and unchecking start keeps it. Chromium at 1440×900.
let app: ServedApp;
let workspace: string;
let session: Session;

beforeAll(async () => {
  workspace = tempWorkspace('start-listen');
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/crewdeck.js'), 'import', join(repoRoot, 'test/fixtures/crewai/flows/self_evaluation_router'), '-o', 'tagline', '--json'], {
    cwd: workspace,
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  app = await serve(workspace);
  session = await openBrowser(app.url);
}, 120_000);

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('a start method that also listens, in the flow inspector', () => {
  it('shows "Also runs when: route retry" on the imported @start("retry"), adds a reference and saves it', async () => {
    const { page } = session;
    await page.locator('[data-testid="document-item"][data-path="tagline/self_evaluation_router.flow.json"]').click();
    await page.getByTestId('flow-canvas').waitFor();
    await page.getByTestId('flow-method-draft_tagline_crew').click();
    const inspector = page.getByTestId('inspector');
    const editor = inspector.getByTestId('method-condition');
    await editor.waitFor();
    expect(await inspector.getByTestId('field-method-start').isChecked()).toBe(true);
    expect(await inspector.getByText('Also runs when').count()).toBe(1);
    expect(await editor.getByTestId('listen-chip').allTextContents()).toEqual(['routeretry×']);
    await editor.getByTestId('listen-add').selectOption('r:max_retry_exceeded');
    // The new or-gate is selected now (as when connecting on the canvas): back to the method.
    await page.getByTestId('flow-method-draft_tagline_crew').click();
    await expect.poll(() => inspector.getByTestId('method-condition').getAttribute('data-condition')).toBe('route retry or route max_retry_exceeded');
    expect(await contrastViolations(page), 'contrast of the trigger editor').toEqual([]);
    // The flow's long name shortens in the toolbar: the page stays inside the window, Settings and the inspector with it.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    const settings = await page.getByRole('button', { name: 'Settings' }).boundingBox();
    expect(settings && settings.x + settings.width).toBeLessThanOrEqual(1440);
    await session.shot('flow-start-also-listens');
    await expect
      .poll(() => JSON.parse(readFileSync(join(workspace, 'tagline/self_evaluation_router.flow.json'), 'utf8')).methods[0].trigger, { timeout: 10_000 })
      .toEqual({ start: true, listen: { or: [{ route: 'retry' }, { route: 'max_retry_exceeded' }] } });
    expect(session.errors).toEqual([]);
  });
});
