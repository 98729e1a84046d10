import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, repoRoot, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/** *Run for each row…*: rows pasted from a spreadsheet, one run per row, each run's trace one click away. */
let app: ServedApp;
let workspace: string;
let session: Session;
const CREW = 'city-guide.crew.json';

beforeAll(async () => {
  workspace = tempWorkspace('batch');
  mkdirSync(join(workspace, 'scripts'), { recursive: true });
  copyFileSync(join(repoRoot, 'e2e/fixtures/batch.script.json'), join(workspace, 'scripts/batch.script.json'));
  writeFileSync(
    join(workspace, CREW),
    JSON.stringify({
      kind: 'crew',
      version: 1,
      id: 'city-guide',
      name: 'City guide',
      inputs: [{ name: 'city', description: 'The city to describe' }, { name: 'tone', default: 'warm' }],
      agents: [{ id: 'guide', role: 'City guide', goal: 'Describe cities in one line', backstory: 'You have been everywhere.', llm: { provider: 'scripted', model: 'demo', script: 'scripts/batch.script.json' } }],
      tasks: [{ id: 'describe', name: 'Describe the city', description: 'Describe {city} in a {tone} tone.', expectedOutput: 'One line', agentId: 'guide' }],
    }),
  );
  app = await serve(workspace);
  session = await openBrowser(app.url, { width: 1440, height: 900 });
  await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
}, 120_000);

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('Run for each row…', () => {
  it('pastes 3 rows from a spreadsheet, runs them, sees 3 completed and opens one run in the trace', async () => {
    const { page } = session;
    // A loaded machine (two cores, several test suites) can take a while to list the workspace.
    await page.locator(`[data-testid="document-item"][data-path="${CREW}"]`).click({ timeout: 60_000 });
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-for-each-row').click();
    const dialog = page.getByTestId('batch-dialog');
    await dialog.getByTestId('batch-table').waitFor();
    expect(await dialog.locator('thead th').allTextContents()).toEqual(['#', 'cityrequired', 'tonedefault: warm', '']);

    // What a spreadsheet puts on the clipboard: tab-separated, header first; an empty cell takes the default.
    await page.evaluate((text) => navigator.clipboard.writeText(text), 'city\ttone\nGhent\twarm\nOslo\tdry\nLima\t\n');
    await dialog.getByTestId('batch-paste').focus();
    await page.keyboard.press('Control+V');
    await expect.poll(() => dialog.getByTestId('batch-row').count(), { timeout: 10_000 }).toBe(3);
    expect(await dialog.getByTestId('batch-cell-1-tone').inputValue()).toBe('dry');
    expect(await dialog.getByTestId('batch-cell-2-tone').inputValue()).toBe('');
    await dialog.getByTestId('batch-concurrency').fill('2');
    await session.shot('batch-run-table');

    await dialog.getByTestId('batch-run').click();
    const results = dialog.getByTestId('batch-result');
    // runs.startBatch answers once the first row's run has opened.
    await expect.poll(() => results.count(), { timeout: 20_000 }).toBe(3);
    const statuses = () => results.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    await expect.poll(statuses, { timeout: 30_000 }).toEqual(['completed', 'completed', 'completed']);
    expect(await results.nth(1).textContent()).toContain('city=Oslo · tone=dry');
    expect(await results.nth(2).textContent()).toContain('city=Lima');
    expect(await dialog.getByTestId('batch-summary').textContent()).toContain('3 completed');
    await session.shot('batch-run');

    // Three runs of their own, in the Runs tab too.
    const runIds = await results.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run-id')!));
    expect(new Set(runIds).size).toBe(3);
    await results.nth(1).getByTestId('batch-open-run').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('run-status').getAttribute('data-run-id'), { timeout: 10_000 }).toBe(runIds[1]);
    expect(await page.getByTestId('run-status').textContent()).toBe('completed');
    await page.getByTestId('tab-trace').click();
    await expect.poll(() => page.getByTestId('trace-row').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByTestId('tab-output').click();
    await expect.poll(() => page.locator('main').textContent(), { timeout: 10_000 }).toContain('Oslo: fjord, opera roof, saunas.');
    await page.getByTestId('tab-trace').click();
    await session.shot('batch-run-trace');

    // Reopened, the dialog shows the batch it ran.
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-for-each-row').click();
    await expect.poll(() => dialog.getByTestId('batch-results').getAttribute('data-status'), { timeout: 10_000 }).toBe('completed');
    expect(session.errors).toEqual([]);
  }, 120_000);
});
