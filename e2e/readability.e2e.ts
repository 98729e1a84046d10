import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, repoRoot, serve, tempWorkspace, type ServedApp, type Session } from './support/app';
import { contrastViolations } from './support/axe';

// Issue 18, the readability and detail items: flow labels at Fit (D13), one editor per field (D17), the
// problems banner off the canvas (D7), budget pauses marked on the node, span details popped out, and the
// trust banner clear of dialogs. Chromium at 1440×900.
let app: ServedApp;
let workspace: string;
let session: Session;

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Runs a document from the command line under a 1-token cap: it pauses at its budget before the app starts. */
function pauseAtBudget(file: string): { runId: string; stepId: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/crewdeck.js'), 'run', join(workspace, file), '--json', '--max-tokens', '1'], {
    cwd: workspace,
    env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out).toMatchObject({ status: 'paused', pending: { kind: 'budget' } });
  return { runId: out.runId, stepId: out.pending.stepId };
}

let crewPause: { runId: string; stepId: string };
let flowPause: { runId: string; stepId: string };

beforeAll(async () => {
  workspace = tempWorkspace('readability');
  crewPause = pauseAtBudget('research-brief.crew.json');
  flowPause = pauseAtBudget('feedback-loop.flow.json');
  // A crew with a problem of its own (no name) and nodes from the top-left corner; and an empty crew.
  writeFileSync(
    join(workspace, 'nameless.crew.json'),
    JSON.stringify({
      version: 1,
      kind: 'crew',
      id: 'nameless',
      name: '',
      process: 'sequential',
      agents: [{ id: 'writer', role: 'Writer', goal: 'Write', tools: [] }],
      tasks: [
        { id: 'one', name: 'First step', description: 'Do it.', expectedOutput: 'A line.', agentId: 'writer' },
        { id: 'two', name: 'Second step', description: 'Do it.', expectedOutput: 'A line.', agentId: 'writer' },
      ],
    }),
  );
  writeFileSync(join(workspace, 'empty.crew.json'), JSON.stringify({ version: 1, kind: 'crew', id: 'empty', name: 'Empty', process: 'sequential', agents: [], tasks: [] }));
  app = await serve(workspace);
  session = await openBrowser(app.url);
}, 120_000);

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

const openDocument = (page: Page, path: string) => page.locator(`[data-testid="document-item"][data-path="${path}"]`).click();

describe('readable at 1440×900', () => {
  it('D13: at Fit, every flow method name is whole and at least 9 px on screen; the budget pause is marked on its method', async () => {
    const { page } = session;
    await openDocument(page, 'feedback-loop.flow.json');
    await page.getByTestId('flow-canvas').waitFor();
    await page.getByTestId('canvas-fit-view').click();
    await page.waitForTimeout(600);
    const labels = await page.evaluate(() => {
      const viewport = document.querySelector('.flow-canvas .react-flow__viewport') as HTMLElement;
      const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
      return {
        zoom,
        names: [...document.querySelectorAll<HTMLElement>('[data-testid^="flow-method-"] .crew-node-title')].map((title) => ({
          text: title.textContent,
          full: title.getAttribute('title'),
          px: parseFloat(getComputedStyle(title).fontSize) * zoom,
          height: title.getBoundingClientRect().height,
          cut: title.scrollWidth > title.clientWidth + 1,
        })),
      };
    });
    // The whole flow fits only zoomed far out: the label layer is what keeps the names readable.
    expect(labels.zoom).toBeLessThan(0.5);
    expect(labels.names.map((n) => n.text).sort()).toEqual(['count_words', 'draft', 'expand', 'length_check', 'publish', 'review', 'revise']);
    for (const name of labels.names) {
      expect(name.text, 'the whole name').toBe(name.full);
      expect(name.cut, `${name.text} not truncated`).toBe(false);
      expect(name.px, `${name.text} font on screen`).toBeGreaterThanOrEqual(9);
      expect(name.height, `${name.text} height on screen`).toBeGreaterThanOrEqual(9);
    }
    // The flow paused at its budget (from the command line) opens as its latest run: the method that waits is marked.
    expect(flowPause.stepId).toBe('expand');
    const marker = page.getByTestId('paused-marker-expand');
    await marker.waitFor();
    const extend = page.getByTestId('paused-answer-expand');
    await expect.poll(() => extend.isDisabled()).toBe(false);
    expect(await extend.textContent()).toBe('Extend…');
    expect(await extend.getAttribute('title')).toMatch(/budget is reached/);
    // Readable at this zoom, and it hides no other method's name.
    const markerBox = (await marker.boundingBox())!;
    expect((await extend.boundingBox())!.height).toBeGreaterThanOrEqual(18);
    expect(markerBox.width).toBeLessThanOrEqual((await page.getByTestId('flow-method-expand').boundingBox())!.width + 2);
    for (const title of await page.locator('[data-testid^="flow-method-"]:not([data-testid="flow-method-expand"]) .crew-node-title').all()) {
      expect(overlaps(markerBox, (await title.boundingBox())!), `marker over ${await title.textContent()}`).toBe(false);
    }
    expect(await contrastViolations(page), 'contrast of the labels and the marker').toEqual([]);
    await session.shot('readability-flow-fit-labels');
    await extend.click();
    const dialog = page.getByTestId('budget-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('budget-later').click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('D17: a router’s “Listens to” is one editor (chips with or/and), not a read-out and a JSON box', async () => {
    const { page } = session;
    await page.getByTestId('flow-method-review').click();
    const inspector = page.getByTestId('inspector');
    const editor = inspector.getByTestId('method-condition');
    await editor.waitFor();
    expect(await inspector.getByTestId('field-method-listen').count()).toBe(0);
    expect(await inspector.locator('.flow-condition').count()).toBe(0);
    expect(await editor.getByTestId('listen-chip').allTextContents()).toEqual(['routelong_enough×', 'expand×', 'revise×']);
    expect(await editor.getByTestId('listen-op-or').getAttribute('aria-pressed')).toBe('true');
    await editor.getByTestId('listen-add').selectOption('m:draft');
    await expect.poll(() => editor.getAttribute('data-condition')).toBe('route long_enough or expand or revise or draft');
    expect(await contrastViolations(page), 'contrast of the chips').toEqual([]);
    await session.shot('readability-listens-to-editor');
    await editor.getByTestId('listen-remove-draft').click();
    await expect.poll(() => editor.getAttribute('data-condition')).toBe('route long_enough or expand or revise');
  });

  it('budget pauses on crews: the task that waits is marked, and Extend… opens the budget dialog', async () => {
    const { page } = session;
    await openDocument(page, 'research-brief.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    await page.locator(`[data-testid="trace-panel"][data-run-id="${crewPause.runId}"]`).waitFor();
    const marker = page.getByTestId(`paused-marker-${crewPause.stepId}`);
    await marker.waitFor();
    expect(await marker.textContent()).toContain('budget');
    // It is on the task's node.
    expect(await page.getByTestId(`crew-node-task:${crewPause.stepId}`).getByTestId(`paused-marker-${crewPause.stepId}`).count()).toBe(1);
    const extend = page.getByTestId(`paused-answer-${crewPause.stepId}`);
    await expect.poll(() => extend.isDisabled()).toBe(false);
    expect(await extend.textContent()).toBe('Extend…');
    expect(await contrastViolations(page), 'contrast of the task marker').toEqual([]);
    await session.shot('readability-crew-budget-marker');
    await extend.click();
    const dialog = page.getByTestId('budget-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('budget-spent').textContent()).toContain(`“${crewPause.stepId}”`);
    await dialog.getByTestId('budget-later').click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('D7: the problems banner docks above the canvas: it covers no node, and the empty-state hint stays clear of it', async () => {
    const { page } = session;
    await openDocument(page, 'nameless.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    const banner = page.getByTestId('canvas-problems');
    await banner.waitFor();
    await page.getByTestId('canvas-fit-view').click();
    await page.waitForTimeout(400);
    const bannerBox = (await banner.boundingBox())!;
    const canvas = (await page.getByTestId('crew-canvas').boundingBox())!;
    expect(bannerBox.y + bannerBox.height).toBeLessThanOrEqual(canvas.y + 0.5);
    const nodes = page.locator('.react-flow__node');
    expect(await nodes.count()).toBe(3);
    for (const node of await nodes.all()) {
      const box = (await node.boundingBox())!;
      expect(overlaps(box, bannerBox)).toBe(false);
      expect(box.y).toBeGreaterThanOrEqual(canvas.y);
    }
    await session.shot('readability-problems-banner');

    await openDocument(page, 'empty.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    const hint = page.locator('.crew-canvas-empty');
    await hint.waitFor();
    await banner.waitFor();
    expect(overlaps((await hint.boundingBox())!, (await banner.boundingBox())!)).toBe(false);
    await session.shot('readability-empty-crew-banner');
  });

  it('span details pop out into a full-height side panel by keyboard, the choice is remembered, Escape docks them', async () => {
    const { page } = session;
    await openDocument(page, 'product-launch.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();
    await page.locator('[data-testid="run-status"]', { hasText: /completed/ }).waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="trace-row"][data-kind="llm"]').first().click();
    const detail = page.getByTestId('span-detail');
    await detail.waitFor();
    expect(await detail.getAttribute('data-mode')).toBe('docked');
    const docked = (await detail.boundingBox())!;

    await page.getByTestId('span-detail-side-toggle').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="span-detail-side"] [data-testid="span-detail"]').waitFor();
    expect(await detail.getAttribute('data-mode')).toBe('side');
    // Focus follows the details; the inspector gives its column up while they are out.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('span-detail-side-toggle');
    expect(await page.getByTestId('inspector').count()).toBe(0);
    const side = (await detail.boundingBox())!;
    expect(side.height).toBeGreaterThan(800);
    expect(side.height).toBeGreaterThan(docked.height * 2.5);
    expect(side.x + side.width).toBeLessThanOrEqual(1440);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    expect(await contrastViolations(page), 'contrast of the side panel').toEqual([]);
    await session.shot('readability-span-detail-side');

    await page.reload();
    await openDocument(page, 'product-launch.crew.json');
    await page.locator('[data-testid="trace-row"][data-kind="llm"]').first().click();
    await page.locator('[data-testid="span-detail-side"] [data-testid="span-detail"]').waitFor();

    await page.getByTestId('span-detail-maximise').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => detail.getAttribute('data-mode')).toBe('maximised');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('span-detail-maximise');
    await page.keyboard.press('Escape');
    await expect.poll(() => detail.getAttribute('data-mode')).toBe('docked');
    await page.getByTestId('inspector').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('crewdeck.spanDetail'))).toBe('docked');
    expect(session.errors).toEqual([]);
  });
});

describe('in the light theme', () => {
  it('the flow labels, the budget marker and the Listens-to chips keep AA contrast', async () => {
    const light = await openBrowser(app.url, { theme: 'light' });
    try {
      const { page } = light;
      await openDocument(page, 'feedback-loop.flow.json');
      await page.getByTestId('flow-canvas').waitFor();
      await page.getByTestId('canvas-fit-view').click();
      await page.getByTestId('paused-marker-expand').waitFor();
      await page.waitForTimeout(400);
      await page.getByTestId('flow-method-review').click();
      await page.getByTestId('method-condition').waitFor();
      expect(await contrastViolations(page)).toEqual([]);
      await light.shot('readability-flow-light');
      expect(light.errors).toEqual([]);
    } finally {
      await light.close();
    }
  });
});

describe('the trust banner and dialogs', () => {
  it('the Run dialog dims the docked trust banner with the rest and carries the same Trust… flow itself (issue 32)', async () => {
    const trustWorkspace = tempWorkspace('readability-trust');
    // A stdio MCP server: the workspace needs trust before anything of it runs (nothing is started here).
    writeFileSync(
      join(trustWorkspace, 'crewdeck.json'),
      JSON.stringify({ version: 1, mcp: { servers: { marker: { transport: 'stdio', command: process.execPath, args: [join(repoRoot, 'test/fixtures/mcp/markerServer.mjs'), join(trustWorkspace, 'marker.txt')] } } } }),
    );
    const trustApp = await serve(trustWorkspace);
    const trustSession = await openBrowser(trustApp.url);
    try {
      const { page } = trustSession;
      const banner = page.getByTestId('trust-banner');
      await banner.waitFor();
      await openDocument(page, 'research-brief.crew.json');
      await page.getByTestId('crew-canvas').waitFor();
      await page.getByTestId('run-crew').click();
      const dialog = page.getByTestId('run-dialog');
      await dialog.waitFor();
      await trustSession.shot('readability-trust-banner-run-dialog');
      const d = (await dialog.boundingBox())!;
      expect(d.y + d.height).toBeLessThanOrEqual(900);
      // The banner is under the modal's backdrop (dimmed, not clickable); the dialog lists the parts and offers Trust….
      const under = await banner.evaluate((el) => document.elementFromPoint(el.getBoundingClientRect().x + 8, el.getBoundingClientRect().y + 8)?.className ?? '');
      expect(under).toContain('modal-backdrop');
      expect(await dialog.getByTestId('run-trust').textContent()).toContain('crewdeck.json mcp.servers.marker');
      expect(await dialog.getByTestId('trust-grant').isEnabled()).toBe(true);
      expect(trustSession.errors).toEqual([]);
    } finally {
      await trustSession.close();
      await trustApp.stop();
      rmSync(trustWorkspace, { recursive: true, force: true });
    }
  });
});
