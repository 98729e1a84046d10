import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/**
 * The memory browser in a real Chromium over the real `crewdeck serve`: a crew with memory enabled
 * writes a memory from its task output (the scripted reply is not JSON, so extraction keeps the whole
 * text); the browser shows it at once, searches it with scores and reasons, edits it (the history
 * keeps the old content), deletes one, and follows it to the run and task that wrote it.
 */

const ANSWER = 'Rooftop solar panels cost about 250 euros each and last 25 years.';
const solarCrew = {
  kind: 'crew',
  version: 1,
  id: 'solar',
  name: 'Solar facts',
  memory: { enabled: true },
  agents: [{ id: 'researcher', role: 'Researcher', goal: 'Find facts about rooftop solar', llm: { provider: 'scripted', model: 'demo', script: { default: ANSWER } } }],
  tasks: [{ id: 'research', name: 'Gather the facts', description: 'Find the cost of rooftop solar panels', expectedOutput: 'Facts with numbers', agentId: 'researcher' }],
};

let app: ServedApp;
let workspace: string;
let session: Session;
let firstRun: string;
let secondRun: string;

beforeAll(async () => {
  workspace = tempWorkspace('memory-browser');
  writeFileSync(join(workspace, 'solar.crew.json'), JSON.stringify(solarCrew, null, 2));
  app = await serve(workspace);
  session = await openBrowser(app.url, { height: 960 });
});

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

async function runCrew(page: Page, previous?: string): Promise<string> {
  await page.getByTestId('run-crew').click();
  await page.getByTestId('run-start').click();
  const done = previous
    ? page.locator(`[data-testid="run-status"][data-status="completed"]:not([data-run-id="${previous}"])`)
    : page.locator('[data-testid="run-status"][data-status="completed"]');
  await done.waitFor({ timeout: 30_000 });
  return (await done.getAttribute('data-run-id'))!;
}

const rows = (page: Page) => page.getByTestId('memory-row');

describe('memory browser', () => {
  it('shows the memory a run wrote at once, and a second run skips the duplicate and recalls it', async () => {
    const { page } = session;
    await page.locator('[data-testid="document-item"][data-path="solar.crew.json"]').click();
    firstRun = await runCrew(page);
    secondRun = await runCrew(page, firstRun);
    expect(secondRun).not.toBe(firstRun);

    await page.getByTestId('open-memory').click();
    await page.getByTestId('memory-panel').waitFor();
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBe(1); // the second run's equal memory was skipped
    const row = rows(page).first();
    expect(await row.textContent()).toContain(ANSWER);
    expect(await row.textContent()).toContain('/crew/solar');
    expect(await row.getByTestId('memory-source-run').textContent()).toBe(firstRun);
    expect(await row.textContent()).toContain('research');
  });

  it('searches with the recall preview: scores, their parts and reasons', async () => {
    const { page } = session;
    await page.getByTestId('memory-search').fill('solar panel cost');
    await page.getByTestId('memory-score').first().waitFor();
    const score = await page.getByTestId('memory-score').first().textContent();
    expect(score).toMatch(/^0\.\d\d/);
    expect(score).toMatch(/sem 0\.\d\d/);
    expect(score).toMatch(/rec [01]\.\d\d/);
    expect(score).toMatch(/imp 0\.50/);
    const reasons = await page.getByTestId('memory-reasons').first().textContent();
    expect(reasons).toMatch(/similar meaning|shares words/);
    expect(await page.getByTestId('memory-count').textContent()).toBe('1 match');
    await session.shot('memory-browser-search');
  });

  it('adds a memory by hand and deletes it after confirmation', async () => {
    const { page } = session;
    await page.getByTestId('memory-search').fill('');
    await page.getByTestId('memory-add').click();
    const add = page.getByTestId('memory-add-dialog');
    await add.getByTestId('memory-field-content').fill('The office cat is called Mochi');
    await add.getByTestId('memory-field-scope').fill('/crew/solar/notes');
    await add.getByTestId('memory-add-save').click();
    await add.waitFor({ state: 'detached' });
    const cat = page.locator('[data-testid="memory-row"]', { hasText: 'The office cat is called Mochi' });
    await cat.waitFor();
    expect(await rows(page).count()).toBe(2);
    expect(await cat.textContent()).toContain('manual');

    await cat.getByTestId('memory-delete').click();
    const confirm = page.getByTestId('memory-delete-dialog');
    expect(await confirm.textContent()).toContain('The office cat is called Mochi');
    await confirm.getByTestId('memory-confirm').click();
    await cat.waitFor({ state: 'detached' });
    expect(await rows(page).count()).toBe(1);
    expect(await page.getByTestId('memory-count').textContent()).toBe('1 memory');
  });

  it('edits a memory: the content changes and the history shows the old content', async () => {
    const { page } = session;
    const row = rows(page).first();
    await row.getByTestId('memory-edit').click();
    let dialog = page.getByTestId('memory-edit-dialog');
    expect(await dialog.getByTestId('memory-history').textContent()).toContain('No earlier contents');
    await dialog.getByTestId('memory-field-content').fill('Rooftop solar panels cost about 230 euros each (2026 price).');
    await dialog.getByTestId('memory-edit-save').click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-testid="memory-row"]', { hasText: '230 euros' }).waitFor();
    expect(await rows(page).first().textContent()).not.toContain('250 euros');

    await rows(page).first().getByTestId('memory-edit').click();
    dialog = page.getByTestId('memory-edit-dialog');
    const history = dialog.getByTestId('memory-history-item');
    expect(await history.count()).toBe(1);
    expect(await history.first().textContent()).toContain(ANSWER);
    expect(await history.first().textContent()).toContain('edited by hand');
    await session.shot('memory-edit-history');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('follows a memory to its run: the trace opens with the task that wrote it selected', async () => {
    const { page } = session;
    // Another run is shown now; the link must switch to the first one.
    await page.locator(`[data-testid="recent-run"][data-run-id="${secondRun}"]`).click();
    await page.locator(`[data-testid="run-status"][data-run-id="${secondRun}"]`).waitFor();
    await rows(page).first().getByTestId('memory-source-run').click();
    await page.locator(`[data-testid="trace-panel"][data-run-id="${firstRun}"]`).waitFor();
    expect(await page.getByTestId('memory-panel').count()).toBe(0);
    const detail = page.getByTestId('span-detail');
    await detail.waitFor();
    expect(await detail.getAttribute('data-kind')).toBe('task');
    expect(await detail.locator('.span-detail-label').textContent()).toBe('Gather the facts');
    await page.locator('[data-testid="crew-node-task:research"][data-selected="true"]').waitFor();
    expect(await page.locator('[data-testid="trace-row"][aria-selected="true"]').getAttribute('data-kind')).toBe('task');
    await session.shot('memory-follow-to-run');
    // The first run's task wrote the memory: its write span says so.
    await page.locator('[data-testid="trace-row"][data-kind="memory"][data-status="done"]').click();
    expect(await detail.getAttribute('data-kind')).toBe('memory');
    expect(await detail.getByTestId('memory-decision').first().getAttribute('data-action')).toBe('insert');
    await session.shot('memory-source-run-trace');
  });

  it('shows, in the second run, the memory recalled into the task prompt and the skipped duplicate', async () => {
    const { page } = session;
    await page.locator(`[data-testid="recent-run"][data-run-id="${secondRun}"]`).click();
    await page.locator(`[data-testid="trace-panel"][data-run-id="${secondRun}"]`).waitFor();
    await page.locator('[data-testid="trace-row"][data-kind="task"]').first().click();
    const recalled = page.getByTestId('task-recalled-memories');
    await recalled.waitFor();
    expect(await recalled.getByTestId('recalled-memory').count()).toBe(1);
    expect(await recalled.textContent()).toContain(ANSWER);
    expect(await recalled.getByTestId('recalled-memory').first().textContent()).toMatch(/similar meaning|matches words/);
    await recalled.scrollIntoViewIfNeeded();
    await session.shot('memory-recalled-in-trace');

    await page.locator('[data-testid="trace-row"][data-kind="memory"]').click();
    const skipped = page.getByTestId('memory-skipped');
    await skipped.locator('summary').click();
    expect(await skipped.textContent()).toContain(ANSWER);
    await session.shot('memory-write-skipped-duplicate');

    // The light theme reads as well.
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await page.getByTestId('open-memory').click();
    await rows(page).first().waitFor();
    await page.getByTestId('memory-search').fill('solar panel cost');
    await page.getByTestId('memory-score').first().waitFor();
    await session.shot('memory-browser-light');
    expect(session.errors).toEqual([]);
  });
});
