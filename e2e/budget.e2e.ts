import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, repoRoot, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/**
 * A crew paused at its budget (from the command line, before the app started) waits in the inbox; its
 * budget dialog extends the cap and the same run finishes.
 */
let app: ServedApp;
let workspace: string;
let session: Session;
let runId: string;

beforeAll(async () => {
  workspace = tempWorkspace('budget');
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/crewdeck.js'), 'run', join(workspace, 'research-brief.crew.json'), '--json', '--max-tokens', '1'], {
    cwd: workspace,
    env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  const paused = JSON.parse(r.stdout);
  expect(paused.status).toBe('paused');
  // The research task makes several model calls: the second one has no room under a 1-token cap.
  expect(paused.pending).toMatchObject({ kind: 'budget', which: 'maxTokens', limit: 1, stepId: 'research' });
  runId = paused.runId;
  app = await serve(workspace);
  session = await openBrowser(app.url);
}, 120_000);

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('a run paused at its budget', () => {
  it('waits in the inbox; the budget dialog extends the cap and the run finishes', async () => {
    const { page } = session;
    const item = page.locator(`[data-testid="flow-inbox-item"][data-run-id="${runId}"]`);
    await item.waitFor({ timeout: 15_000 });
    expect(await item.textContent()).toContain('budget reached');
    // In the trace the task the cap stopped is paused, not failed.
    await page.getByTestId('tab-runs').click();
    await page.locator(`[data-testid="runs-row"][data-run-id="${runId}"]`).click();
    await page.getByTestId('tab-trace').click();
    await page.locator('[data-testid="trace-row"][data-kind="task"][data-status="paused"]').first().waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-testid="trace-row"][data-status="failed"]').count()).toBe(0);
    await session.shot('budget-paused-trace');
    await item.click();
    const dialog = page.getByTestId('budget-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('budget-spent').textContent()).toMatch(/tokens of the 1 tokens cap/);
    await session.shot('budget-dialog');
    const field = dialog.getByTestId('budget-extend-by');
    await field.fill('');
    expect(await dialog.getByTestId('budget-extend').isDisabled()).toBe(true);
    // A cap still under what the run spent would pause it again: not offered.
    await field.fill('1');
    expect(await dialog.getByTestId('budget-extend').isDisabled()).toBe(true);
    await dialog.getByTestId('budget-extend-invalid').waitFor();
    await field.fill('100000');
    expect(await dialog.getByTestId('budget-extend').textContent()).toContain('Extend to 100001 tokens');
    await dialog.getByTestId('budget-extend').click();
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });

    await page.getByTestId('tab-runs').click();
    const row = page.locator(`[data-testid="runs-row"][data-run-id="${runId}"]`);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    await expect.poll(() => page.getByTestId('runs-row').count()).toBe(1); // the same run continued
    expect(await page.locator('[data-testid="flow-inbox-item"]').count()).toBe(0);
  }, 120_000);
});
