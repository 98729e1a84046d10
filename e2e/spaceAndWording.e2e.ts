import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';
import { contrastViolations } from './support/axe';

// Issue 18, the items layout.e2e.ts and readability.e2e.ts do not drive: a long filter chip, the run panel
// on Memory/Training/Tests, flow palette adds, flow wording, placeholders, one Fit and one Train…/Test…,
// paste, the Run dialog without profiles, Test connection on a server without GET /models.
let app: ServedApp;
let workspace: string;
let session: Session;
let llm: Server;
let llmRequests: string[] = [];

const LONG = 'Senior principal research analyst for renewable energy policy and markets';

beforeAll(async () => {
  workspace = tempWorkspace('space');
  // Four agents with long roles, one task each: select all names them all in the trace filter chip.
  const agents = Array.from({ length: 4 }, (_, i) => ({ id: `a${i + 1}`, role: `${LONG} ${i + 1}`, goal: 'Find facts', tools: [], llm: { provider: 'scripted', model: 'demo', script: { rules: [{ when: {}, reply: 'A line.' }] } } }));
  const tasks = agents.map((a, i) => ({ id: `t${i + 1}`, name: `Write part ${i + 1} of a long report`, description: 'Write one line.', expectedOutput: 'A line.', agentId: a.id }));
  writeFileSync(join(workspace, 'long-names.crew.json'), JSON.stringify({ version: 1, kind: 'crew', id: 'long-names', name: 'Long names', process: 'sequential', agents, tasks }));
  // An OpenAI-compatible server without GET /models: chat completions only (loopback).
  llm = createServer((req, res) => {
    llmRequests.push(`${req.method} ${req.url}`);
    if (req.method === 'POST' && req.url?.endsWith('/chat/completions')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'tiny', choices: [{ index: 0, message: { role: 'assistant', content: 'p' }, finish_reason: 'length' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end();
  });
  await new Promise<void>((done) => llm.listen(0, '127.0.0.1', done));
  app = await serve(workspace);
  session = await openBrowser(app.url);
});

afterAll(async () => {
  await session?.close();
  await app?.stop();
  await new Promise((done) => llm?.close(done));
  rmSync(workspace, { recursive: true, force: true });
});

// A failed step leaves no dialog open over the next one.
afterEach(async () => {
  await session?.page.keyboard.press('Escape');
});

const openDocument = (page: Page, path: string) => page.locator(`[data-testid="document-item"][data-path="${path}"]`).click();
const box = async (page: Page, testId: string) => (await page.getByTestId(testId).boundingBox())!;
const inside = (inner: { x: number; y: number; width: number; height: number }, outer: { x: number; y: number; width: number; height: number }) =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;

describe('issue 18 at 1440×900: space and wording', () => {
  it('D19: with no model profiles the Run dialog says how to get a model choice', async () => {
    const { page } = session;
    await openDocument(page, 'long-names.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    await page.getByTestId('run-crew').click();
    const hint = page.getByTestId('run-model-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toMatch(/To pick another model here, connect a model/);
    expect(await page.getByTestId('run-model').count()).toBe(0);
    await session.shot('space-run-dialog-no-profiles');
    await page.getByTestId('run-start').click();
    await page.locator('[data-testid="run-status"]', { hasText: /completed/ }).waitFor({ timeout: 30_000 });
  });

  it('D1: select all on long agent roles truncates the trace filter chip (whole text in its tooltip); nothing leaves the window', async () => {
    const { page } = session;
    await page.getByTestId('crew-canvas').locator('.react-flow__pane').click({ position: { x: 30, y: 200 } });
    await page.keyboard.press('Control+a');
    const chip = page.getByTestId('trace-filter');
    await chip.waitFor();
    const title = (await chip.getAttribute('title'))!;
    expect(title).toContain(`${LONG} 4`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    const chipBox = await box(page, 'trace-filter');
    expect(chipBox.x + chipBox.width).toBeLessThanOrEqual(1440);
    const inspector = await box(page, 'inspector');
    expect(inspector.x + inspector.width).toBeLessThanOrEqual(1440);
    // The run's name stays whole beside the chip: the run id and the cost note give way first.
    const name = await page.locator('.trace-run-name').evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return { text: el.textContent, clipped: range.getBoundingClientRect().width > el.getBoundingClientRect().width + 0.01 };
    });
    expect(name).toEqual({ text: 'Long names', clipped: false });
    await session.shot('space-long-filter-chip');
    await page.keyboard.press('Escape');
  });

  it('D12: one Fit control on the canvas (D3/D4: after Fit nothing is under the controls; no minimap on a small crew), one Train… and one Test… on the Training and Tests views; D2: no run panel under Memory, Training or Tests', async () => {
    const { page } = session;
    const fits = await page.getByTestId('crew-canvas').getByRole('button', { name: /^Fit/ }).count();
    expect(fits).toBe(1);
    // D3: after Fit no node or run badge is under the floating controls or the zoom buttons.
    await page.getByTestId('canvas-fit-view').click();
    await page.waitForTimeout(500);
    const covered = await page.evaluate(() => {
      const boxes = [...document.querySelectorAll('.canvas-actions, .react-flow__controls, .react-flow__minimap')].map((e) => e.getBoundingClientRect());
      const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const nodes = [...document.querySelectorAll('.react-flow__node, [data-testid="node-status"]')];
      return {
        controls: boxes.length,
        nodes: nodes.length,
        under: nodes.filter((n) => boxes.some((b) => overlaps(n.getBoundingClientRect(), b))).map((n) => n.getAttribute('data-id') ?? n.textContent),
      };
    });
    expect(covered.controls).toBe(2);
    expect(covered.nodes).toBe(16);
    expect(covered.under).toEqual([]);
    expect(await page.locator('.react-flow__minimap').count()).toBe(0);
    for (const view of ['training', 'tests'] as const) {
      await page.getByTestId(`view-${view}`).click();
      await page.getByTestId(view === 'training' ? 'training-panel' : 'test-panel').waitFor();
      expect(await page.getByRole('button', { name: 'Train…' }).count(), view).toBe(1);
      expect(await page.getByRole('button', { name: 'Test…' }).count(), view).toBe(1);
      expect(await page.getByTestId('run-panel').count(), view).toBe(0);
      // No tests yet: the report side says what a test is and offers to start one (it was blank).
      if (view === 'tests') expect(await page.getByTestId('test-intro').getByRole('button', { name: 'Test this crew…' }).isEnabled()).toBe(true);
      await session.shot(`space-${view}-view`);
    }
    await page.getByTestId('view-canvas').click();
    await page.getByTestId('open-memory').click();
    await page.getByTestId('memory-panel').waitFor();
    expect(await page.getByTestId('run-panel').count()).toBe(0);
    await session.shot('space-memory-view');
    await page.getByTestId('open-memory').click();
  });

  it('D8: a flow’s Run dialog speaks of the flow, not a crew', async () => {
    const { page } = session;
    await openDocument(page, 'feedback-loop.flow.json');
    await page.getByTestId('flow-canvas').waitFor();
    await page.getByTestId('run-crew').click();
    const dialog = page.locator('.modal, [role="dialog"]').first();
    await dialog.waitFor();
    // While the saved file is read, and once it is (the wording was only right after reading).
    expect((await dialog.textContent())!).not.toMatch(/crew/i);
    await dialog.getByText('Reading the document…').waitFor({ state: 'detached' });
    expect((await dialog.textContent())!).not.toMatch(/crew/i);
    await session.shot('space-flow-run-dialog');
    await page.keyboard.press('Escape');
  });

  it('D5: five methods added from the flow palette in a row each land fully inside the visible canvas', async () => {
    const { page } = session;
    await page.getByTestId('new-document-kind').selectOption('flow');
    await page.getByLabel(/New (flow|crew|document) name/).fill('Flow in view');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('flow-canvas').waitFor();
    // The new flow replaces the one shown before (its 7 methods).
    await expect.poll(() => page.getByTestId('flow-canvas').locator('.react-flow__node').count()).toBeLessThan(3);
    const items = page.getByTestId('palette').locator('[data-testid^="palette-"]:not([data-testid="palette-hints"])');
    const templates = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
    // The node added is the one selected (nodes far out of view may not be rendered, so count nothing).
    const selectedKey = () => page.locator('.react-flow__node.selected [data-testid^="flow-method-"]').first().getAttribute('data-testid', { timeout: 2000 }).catch(() => null);
    const added: string[] = [];
    for (let i = 0; i < 5; i++) {
      const template = templates[i % templates.length];
      await page.getByTestId(template!).click();
      await expect.poll(selectedKey).not.toBe(added[added.length - 1] ?? null);
      const key = (await selectedKey())!;
      added.push(key);
      // The canvas pans to the new method over a few frames: poll until it has.
      const inView = async () => inside((await page.getByTestId(key).boundingBox())!, await box(page, 'flow-canvas'));
      await expect.poll(inView, { message: `method ${i + 1} (${template}) in view` }).toBe(true);
    }
    expect(new Set(added).size).toBe(5);
    await session.shot('space-flow-palette-in-view');
  });

  it('D11: a new agent and task show placeholders, not values; D15: a pasted task lands off its original under a fresh name', async () => {
    const { page } = session;
    await page.getByTestId('new-document-kind').selectOption('crew');
    await page.getByLabel(/New (flow|crew|document) name/).fill('Placeholders');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('crew-canvas').waitFor();
    await page.getByTestId('palette-agent').click();
    await page.getByTestId('field-goal').waitFor();
    expect(await page.getByTestId('field-goal').inputValue()).toBe('');
    expect(await page.getByTestId('field-goal').getAttribute('placeholder')).toBeTruthy();
    await page.getByTestId('palette-task').click();
    await page.getByTestId('field-description').waitFor();
    expect(await page.getByTestId('field-description').inputValue()).toBe('');
    expect(await page.getByTestId('field-description').getAttribute('placeholder')).toBeTruthy();
    expect(await page.getByTestId('field-expectedOutput').inputValue()).toBe('');
    await page.getByTestId('field-name').fill('Draft the plan');
    await session.shot('space-new-task-placeholders');

    const original = page.locator('.react-flow__node.selected');
    const from = (await original.boundingBox())!;
    await page.getByTestId('crew-canvas').locator('.react-flow__node.selected').click();
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    await expect.poll(() => page.locator('[data-testid^="crew-node-task:"]').count()).toBe(2);
    await page.waitForTimeout(400);
    const pasted = page.locator('.react-flow__node.selected');
    const to = (await pasted.boundingBox())!;
    expect(Math.abs(to.x - from.x) + Math.abs(to.y - from.y)).toBeGreaterThan(20);
    const name = await page.getByTestId('field-name').inputValue();
    expect(name).not.toBe('Draft the plan');
    expect(name).toMatch(/Draft the plan/);
    await session.shot('space-paste-offset');
  });

  it('D18: Test connection succeeds on a server without GET /models, and says it used a one-token chat request', async () => {
    const { page } = session;
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-panel').waitFor();
    await page.getByTestId('profile-add').click();
    await page.getByTestId('profile-name').fill('nomodels');
    await page.getByTestId('profile-model').fill('tiny');
    await page.getByTestId('profile-baseUrl').fill(`http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`);
    llmRequests = [];
    await page.getByTestId('profile-test').click();
    const result = page.locator('[data-testid="connection-result"]:not([data-state="running"])');
    await result.waitFor({ timeout: 20_000 });
    expect(await result.getAttribute('data-state')).toBe('ok');
    expect(await result.textContent()).toMatch(/one-token chat request/);
    expect(llmRequests).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
    // Settings: the profile form is not covered (no run panel under it).
    expect(await page.getByTestId('run-panel').count()).toBe(0);
    const editor = await box(page, 'profile-editor');
    expect(editor.x + editor.width).toBeLessThanOrEqual(1440);
    await session.shot('space-test-connection-no-models');
  });

  it('D9: reopening a flow shows its latest run in the trace without a click, and the paused marker on the method that waits', async () => {
    const { page } = session;
    await page.getByTestId('open-settings').click();
    await openDocument(page, 'feedback-loop.flow.json');
    await page.getByTestId('flow-canvas').waitFor();
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();
    const dialog = page.getByTestId('flow-feedback-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    await dialog.getByTestId('flow-feedback-later').click();
    const runId = (await page.getByTestId('trace-panel').getAttribute('data-run-id'))!;
    expect(runId).toMatch(/^run_/);
    await openDocument(page, 'long-names.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    await page.locator(`[data-testid="trace-panel"]:not([data-run-id="${runId}"])`).waitFor();
    await openDocument(page, 'feedback-loop.flow.json');
    await page.getByTestId('flow-canvas').waitFor();
    await page.locator(`[data-testid="trace-panel"][data-run-id="${runId}"]`).waitFor();
    const marker = page.locator('[data-testid^="paused-marker-"]');
    await marker.waitFor();
    expect(await marker.count()).toBe(1);
    await session.shot('space-flow-latest-run-reopened');
  });

  it('D16: no contrast violations on a paused flow with its trace, Settings, and Training and Tests in both themes', async () => {
    const { page } = session;
    expect(await contrastViolations(page), 'paused flow').toEqual([]);
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-panel').waitFor();
    expect(await contrastViolations(page), 'settings').toEqual([]);
    await page.getByTestId('open-settings').click();
    await openDocument(page, 'long-names.crew.json');
    await page.getByTestId('crew-canvas').waitFor();
    for (const theme of ['dark', 'light'] as const) {
      if (theme === 'light') {
        await page.getByRole('button', { name: 'Toggle theme' }).click();
        await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      }
      for (const view of ['training', 'tests'] as const) {
        await page.getByTestId(`view-${view}`).click();
        await page.getByTestId(view === 'training' ? 'training-panel' : 'test-panel').waitFor();
        expect(await contrastViolations(page), `${view} (${theme})`).toEqual([]);
      }
    }
    await session.shot('space-tests-view-light');
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await page.getByTestId('view-canvas').click();
    expect(session.errors).toEqual([]);
  });
});
