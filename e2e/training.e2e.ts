import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';
import { seriousViolations, type AxeViolation } from './support/axe';

/**
 * Training and testing in a real Chromium over the real `crewdeck serve` (issue 6): a one-agent crew
 * on a scripted model is trained through the review dialogs (feedback, then accept), the evaluator's
 * JSON becomes suggestion version 1; a second training merges into version 2. In the training panel
 * the versions are diffed and a suggestion is edited; the next ordinary run's trace names version 2
 * on the agent span and its prompt carries the edited suggestion. A crew test shows a score table and
 * a chart.
 */

const EVALUATOR = 'You evaluate how an AI agent did during training';
const evaluation = (suggestions: string[], quality: number, summary: string) => JSON.stringify({ suggestions, quality, summary });
const FIRST = evaluation(['Start with a one-line summary.', 'Name the launch date.'], 6, 'The writer added the date and a summary after feedback.');
const SECOND = evaluation(['Start with a one-line summary.', 'Name the launch date and the city.', 'Keep it under 80 words.'], 8, 'Shorter notes with the city, as the reviewer asked.');
const EDITED = 'Name the launch date, the city and the venue.';

const writerCrew = {
  kind: 'crew',
  version: 1,
  id: 'launch-notes',
  name: 'Launch notes',
  agents: [
    {
      id: 'writer',
      role: 'Writer',
      goal: 'Write launch notes',
      backstory: 'A careful writer.',
      llm: {
        provider: 'scripted',
        model: 'writer-demo',
        script: {
          rules: [
            // The second training's evaluator sees version 1 and merges it.
            { when: { system: EVALUATOR, any: 'already follows these instructions' }, reply: SECOND },
            { when: { system: EVALUATOR }, reply: FIRST },
            // The crew test's evaluator: a score for the task.
            { when: { system: 'You score how well an answer' }, reply: JSON.stringify({ score: 7, reason: 'Clear and dated.' }) },
            { when: { last: 'A human reviewed your final answer' }, reply: 'Launch on 3 May in Lisbon: the new app ships.' },
          ],
          default: 'The new app ships soon.',
        },
      },
    },
  ],
  tasks: [
    {
      id: 'note',
      name: 'Write the note',
      description: 'Write a short note about the app launch',
      expectedOutput: 'A short dated note',
      agentId: 'writer',
      // Deterministic checks for the crew test: "app" passes, "Lisbon" does not (check score 5).
      tests: { checks: [{ type: 'contains', text: 'app' }, { type: 'contains', text: 'Lisbon' }] },
    },
  ],
};

let app: ServedApp;
let workspace: string;
let session: Session;

beforeAll(async () => {
  workspace = tempWorkspace('training');
  writeFileSync(join(workspace, 'launch.crew.json'), JSON.stringify(writerCrew, null, 2));
  app = await serve(workspace);
  session = await openBrowser(app.url, { height: 960 });
});

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

/** Answers one review: feedback first (the agent revises), then accepts the revised answer. */
async function reviewWithFeedback(page: Page, feedback: string, expectContext: string): Promise<void> {
  const dialog = page.getByTestId('human-dialog');
  await dialog.waitFor({ timeout: 30_000 });
  expect(await dialog.textContent()).toContain(expectContext);
  expect(await dialog.getByTestId('human-output').textContent()).toContain('The new app ships soon.');
  await dialog.getByTestId('human-feedback').fill(feedback);
  if (expectContext === 'Training iteration 1 of 2') await session.shot('training-review-dialog');
  await dialog.getByTestId('human-send').click();
  // The revised answer comes back for review.
  await page.locator('[data-testid="human-dialog"]', { hasText: 'Launch on 3 May in Lisbon' }).waitFor({ timeout: 30_000 });
  await page.getByTestId('human-accept').click();
  await page.locator('[data-testid="human-dialog"]', { hasText: 'Launch on 3 May in Lisbon' }).waitFor({ state: 'detached', timeout: 30_000 });
}

async function train(page: Page, iterations: number, feedback: string[]): Promise<void> {
  await page.getByTestId('train-crew').click();
  const dialog = page.getByTestId('train-dialog');
  await dialog.getByTestId('train-iterations').fill(String(iterations));
  await dialog.getByTestId('train-start').click();
  await dialog.waitFor({ state: 'detached' });
  for (let i = 0; i < iterations; i++) await reviewWithFeedback(page, feedback[i]!, `Training iteration ${i + 1} of ${iterations}`);
}

describe('training', () => {
  it('trains the crew through the review dialogs: version 1 holds the evaluator’s suggestions', async () => {
    const { page } = session;
    await page.locator('[data-testid="document-item"][data-path="launch.crew.json"]').click();
    await page.getByTestId('train-crew').waitFor();
    await train(page, 2, ['Name the launch date.', 'Start with a one-line summary.']);

    await page.getByTestId('training-panel').waitFor();
    await page.locator('[data-testid="training-session"][data-status="completed"]').waitFor({ timeout: 30_000 });
    const v1 = page.locator('[data-testid="training-version"][data-version="1"]');
    await v1.waitFor();
    expect(await v1.getAttribute('data-status')).toBe('active');
    const detail = page.getByTestId('training-version-detail');
    const inputs = detail.getByTestId('suggestion-input');
    expect(await inputs.count()).toBe(2);
    expect(await inputs.nth(1).inputValue()).toBe('Name the launch date.');
    // The feedback behind it: one record per iteration, each linked to its run.
    const records = detail.getByTestId('feedback-record');
    await records.nth(1).waitFor();
    expect(await records.count()).toBe(2);
    expect(await records.first().textContent()).toContain('Name the launch date.');
    const runId = await records.first().getAttribute('data-run-id');
    await records.first().getByTestId('feedback-record-run').click();
    await page.locator(`[data-testid="trace-panel"][data-run-id="${runId}"]`).waitFor();
    expect(session.errors).toEqual([]);
  });

  it('a second training adds version 2; the diff shows what changed; a suggestion is edited', async () => {
    const { page } = session;
    await train(page, 1, ['Mention the city, and keep it short.']);
    await page.locator('[data-testid="training-version"][data-version="2"][data-status="active"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="training-version"][data-version="1"]').getAttribute('data-status')).toBe('disabled');

    await page.locator('[data-testid="training-version"][data-version="2"]').click();
    const detail = page.locator('[data-testid="training-version-detail"][data-version="2"]');
    await detail.getByTestId('training-compare').selectOption('1');
    const diff = detail.getByTestId('version-diff');
    await diff.waitFor();
    expect(await diff.getByTestId('diff-added').count()).toBe(1);
    expect(await diff.getByTestId('diff-added').textContent()).toContain('Keep it under 80 words.');
    expect(await diff.getByTestId('diff-changed').textContent()).toContain('Name the launch date and the city.');

    const second = detail.getByTestId('suggestion-input').nth(1);
    await second.fill(EDITED);
    await detail.getByTestId('suggestions-save').click();
    await page.locator('[data-testid="training-version"][data-version="2"] [data-testid="training-edited"]').waitFor();
    expect(await detail.getByTestId('suggestion-input').nth(1).inputValue()).toBe(EDITED);
    // The diff follows the edit.
    await diff.getByTestId('diff-changed').filter({ hasText: EDITED }).waitFor();
    await session.shot('training-panel-versions-diff');
    expect(session.errors).toEqual([]);
  });

  it('the next ordinary run uses the edited suggestion: the trace names version 2 and the prompt has it', async () => {
    const { page } = session;
    await page.getByTestId('view-canvas').click();
    const badge = page.getByTestId('run-status');
    const previous = (await badge.count()) > 0 ? await badge.getAttribute('data-run-id') : null;
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();
    // The badge may still show an earlier (training) run: wait for this run's completion.
    const done = page.locator(`[data-testid="run-status"][data-status="completed"]${previous ? `:not([data-run-id="${previous}"])` : ''}`);
    await done.waitFor({ timeout: 30_000 });
    await page.getByTestId('tab-trace').click();
    await page.locator('[data-testid="trace-row"][data-kind="agent"]').first().click();
    const detail = page.getByTestId('span-detail');
    expect(await detail.getByTestId('agent-suggestions').textContent()).toContain('version 2');
    expect(await page.locator('[data-testid="trace-row"][data-kind="agent"]').first().textContent()).toContain('suggestions v2');
    await page.locator('[data-testid="trace-row"][data-kind="llm"]').first().click();
    const messages = page.getByTestId('span-detail').getByTestId('llm-messages');
    await messages.waitFor();
    const prompt = await messages.textContent();
    expect(prompt).toContain(EDITED);
    expect(prompt).toContain('Keep it under 80 words.');
    expect(prompt).not.toContain('Name the launch date and the city.');
    expect(session.errors).toEqual([]);
  });

  it('tests the crew: a score table and a chart per task across the iterations', async () => {
    const { page } = session;
    await page.getByTestId('test-crew').click();
    const dialog = page.getByTestId('test-dialog');
    await dialog.getByTestId('test-iterations').fill('3');
    await dialog.getByTestId('test-start').click();
    await page.getByTestId('test-panel').waitFor();
    await page.locator('[data-testid="test-status"][data-status="completed"]').waitFor({ timeout: 60_000 });
    const row = page.locator('[data-testid="test-score-row"][data-task-id="note"]');
    await row.waitFor();
    expect(await row.getByTestId('test-score-cell').count()).toBe(3);
    expect(await row.getByTestId('test-average').textContent()).toBe('7');
    expect(await row.getByTestId('test-check-average').textContent()).toBe('5');
    const chart = page.locator('[data-testid="test-chart"][data-task-id="note"] canvas');
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toContain('evaluator scores');
    expect(await page.getByTestId('test-list-item').count()).toBe(1);
    await session.shot('test-panel-chart');
    // axe finds nothing serious or critical on the filled Tests and Training views, in both themes.
    const found: Record<string, AxeViolation[]> = { 'tests dark': await seriousViolations(page) };
    await page.getByTestId('view-training').click();
    await page.getByTestId('training-version-detail').waitFor();
    found['training dark'] = await seriousViolations(page);

    // Both themes: the chart's colours follow the theme.
    await page.getByTestId('view-tests').click();
    await chart.waitFor();
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await session.shot('test-panel-chart-light');
    found['tests light'] = await seriousViolations(page);
    await page.getByTestId('view-training').click();
    await page.getByTestId('training-version-detail').waitFor();
    await session.shot('training-panel-light');
    found['training light'] = await seriousViolations(page);
    expect(found).toEqual({ 'tests dark': [], 'training dark': [], 'tests light': [], 'training light': [] });
    expect(session.errors).toEqual([]);
  });
});
