import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, repoRoot, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/**
 * Flow runs in the app: a flow with a human-feedback router, built on the canvas, run on the
 * scripted model, answered in the feedback dialog, the chosen branch lit on the canvas; and a
 * flow paused across a restart of `crewdeck serve`, answered from the inbox.
 */

let app: ServedApp | undefined;
let workspace: string;
let session: Session | undefined;

const FLOW = 'review.flow.json';

/** draft (model call) → review (human feedback router: approve | revise) → publish on approve. The canvas adds rewrite on revise. */
const reviewFlow = {
  kind: 'flow',
  version: 1,
  id: 'review-flow',
  name: 'Review flow',
  state: { initial: { topic: 'numbers', status: 'draft' } },
  methods: [
    { id: 'draft', name: 'draft', trigger: { start: true }, body: { type: 'llm', prompt: 'Write a one-line draft about {state.topic}.' } },
    {
      id: 'review',
      name: 'review',
      trigger: { listen: 'draft' },
      routes: ['approve', 'revise'],
      body: { type: 'human_feedback', message: 'Is this draft ready to publish?', defaultOutcome: 'approve' },
    },
    { id: 'publish', name: 'publish', trigger: { listen: { route: 'approve' } }, body: { type: 'set_state', set: { status: 'published' } } },
  ],
  layout: { 'method:draft': { x: 0, y: 80 }, 'method:review': { x: 320, y: 80 }, 'method:publish': { x: 680, y: 0 } },
};

/** Two start methods joined by an `and` gate: the gate lights once both have run. */
const JOIN_FLOW = 'join.flow.json';
const joinFlow = {
  kind: 'flow',
  version: 1,
  id: 'join-flow',
  name: 'Join flow',
  methods: [
    { id: 'left', name: 'left', trigger: { start: true }, body: { type: 'set_state', set: { left: 'done' } } },
    { id: 'right', name: 'right', trigger: { start: true }, body: { type: 'set_state', set: { right: 'done' } } },
    { id: 'both', name: 'both', trigger: { listen: { and: ['left', 'right'] } }, body: { type: 'set_state', set: { joined: 'yes' } } },
  ],
  layout: { 'method:left': { x: 0, y: 0 }, 'method:right': { x: 0, y: 200 }, 'method:both': { x: 560, y: 100 } },
};

function prepareWorkspace(): string {
  const dir = tempWorkspace('flowrun');
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  copyFileSync(join(repoRoot, 'e2e/fixtures/flow.script.json'), join(dir, 'scripts/flow.script.json'));
  writeFileSync(
    join(dir, 'crewdeck.json'),
    JSON.stringify({ version: 1, models: { default: 'demo', profiles: { demo: { provider: 'scripted', model: 'demo', script: 'scripts/flow.script.json' } } } }),
  );
  writeFileSync(join(dir, FLOW), `${JSON.stringify(reviewFlow, null, 2)}\n`);
  writeFileSync(join(dir, JOIN_FLOW), `${JSON.stringify(joinFlow, null, 2)}\n`);
  return dir;
}

beforeAll(async () => {
  workspace = prepareWorkspace();
  app = await serve(workspace);
  session = await openBrowser(app.url);
});

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

const method = (page: Page, key: string) => page.getByTestId(`flow-method-${key}`);

/** Drags from a handle to a node, the way a person connects them. */
async function connect(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + 40, a.y + 20, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
  await page.mouse.up();
}

async function methodKeys(page: Page): Promise<string[]> {
  return page.locator('[data-testid^="flow-method-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('flow-method-', '')));
}

/** The node's run status pill (`node-status`), or null when the run did not touch it. */
async function nodeStatus(page: Page, key: string): Promise<string | null> {
  return method(page, key).locator('[data-testid="node-status"]').getAttribute('data-status', { timeout: 500 }).catch(() => null);
}

async function waitForNodeStatus(page: Page, key: string, status: string): Promise<void> {
  await method(page, key).locator(`[data-testid="node-status"][data-status="${status}"]`).waitFor({ timeout: 15_000 });
}

async function runRow(page: Page, runId: string): Promise<Locator> {
  await page.getByTestId('tab-runs').click();
  const row = page.locator(`[data-testid="runs-row"][data-run-id="${runId}"]`);
  await row.waitFor();
  return row;
}

async function startRun(page: Page): Promise<string> {
  const badge = page.getByTestId('run-status');
  // The badge may still show the previous run: wait for the new run's id, not just any id.
  const previous = (await badge.count()) > 0 ? await badge.getAttribute('data-run-id') : null;
  await page.getByTestId('run-crew').click();
  await page.getByTestId('run-start').click();
  await badge.waitFor();
  await page.waitForFunction((before) => {
    const id = document.querySelector('[data-testid="run-status"]')?.getAttribute('data-run-id');
    return id && id !== before;
  }, previous);
  return (await badge.getAttribute('data-run-id'))!;
}

describe('flow runs in the app', () => {
  it('builds a router branch on the canvas, runs the flow, answers the feedback dialog and lights the chosen branch', async () => {
    const { page, shot } = session!;
    await page.locator(`[data-testid="document-item"][data-path="${FLOW}"]`).click();
    await page.getByTestId('flow-canvas').waitFor();
    await method(page, 'review').waitFor();

    // On the canvas: a Set state method for the revise branch, named rewrite, listening to the route.
    const before = await methodKeys(page);
    const canvas = page.getByTestId('flow-canvas');
    const box = (await canvas.boundingBox())!;
    await page.getByTestId('palette-set_state').dragTo(canvas, { targetPosition: { x: box.width * 0.72, y: box.height * 0.62 } });
    await expect.poll(() => methodKeys(page)).toHaveLength(before.length + 1);
    const added = (await methodKeys(page)).find((k) => !before.includes(k))!;
    await method(page, added).click();
    const name = page.getByTestId('inspector').getByLabel('Name', { exact: true });
    await name.fill('rewrite');
    await name.blur();
    await connect(page, page.getByTestId('route-handle-review-revise'), method(page, added));
    await page.getByTestId('save-state').and(page.locator('[data-state="saved"]')).waitFor();
    await shot('flow-run-built');

    const saved = JSON.parse(readFileSync(join(workspace, FLOW), 'utf8')) as typeof reviewFlow;
    const rewrite = saved.methods.find((m) => m.name === 'rewrite')!;
    expect(rewrite.trigger).toEqual({ listen: { route: 'revise' } });

    // Run: the model drafts, the review pauses the flow and asks.
    const runId = await startRun(page);
    const dialog = page.getByTestId('flow-feedback-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('run-status').textContent()).toBe('paused');
    expect(await dialog.getByTestId('flow-feedback-message').textContent()).toBe('Is this draft ready to publish?');
    expect(await dialog.getByTestId('flow-feedback-output').textContent()).toBe('Draft: six times seven is 42, checked twice.');
    expect(await dialog.getByTestId('flow-feedback-outcome').evaluateAll((els) => els.map((e) => e.getAttribute('data-outcome')))).toEqual(['approve', 'revise']);
    expect(await dialog.getByTestId('flow-feedback-hint').textContent()).toContain('default outcome “approve”');
    expect(await nodeStatus(page, 'draft')).toBe('done');
    expect(await nodeStatus(page, 'review')).toBe('waiting');
    await shot('flow-run-feedback-dialog');

    // The runs list says paused meanwhile (behind the dialog: Later, look, then answer from the inbox).
    await dialog.getByTestId('flow-feedback-later').click();
    expect(await (await runRow(page, runId)).getAttribute('data-status')).toBe('paused');
    await page.getByTestId('flow-inbox').waitFor();
    expect(await page.getByTestId('flow-inbox-count').textContent()).toBe('1');
    await shot('flow-run-paused-inbox');
    await page.locator(`[data-testid="flow-inbox-item"][data-run-id="${runId}"]`).click();
    await dialog.locator('[data-testid="flow-feedback-outcome"][data-outcome="approve"]').click();
    await dialog.waitFor({ state: 'detached' });

    // The approve branch runs; rewrite never does.
    await waitForNodeStatus(page, 'publish', 'done');
    expect(await nodeStatus(page, 'review')).toBe('done');
    expect(await nodeStatus(page, added)).toBeNull();
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 15_000 }).toBe('completed');
    // The router shows the route it took, and the taken conditions are lit: draft → review → publish.
    expect(await page.getByTestId('route-review-approve').getAttribute('data-taken')).toBe('true');
    expect(await page.getByTestId('route-review-revise').getAttribute('data-taken')).toBeNull();
    expect(await page.locator('.flow-canvas path.flow-edge.is-run-taken').count()).toBe(2);
    await shot('flow-run-branch-lit');
    await expect.poll(async () => (await runRow(page, runId)).getAttribute('data-status'), { timeout: 10_000 }).toBe('completed');
    expect(await page.getByTestId('flow-inbox').count()).toBe(0);

    // The trace, narrowed to the review by selecting its node: the route decision and the state change.
    await page.getByTestId('tab-trace').click();
    await method(page, 'review').click();
    await page.getByTestId('trace-filter').waitFor();
    const rows = page.locator('[data-testid="trace-row"][data-kind="method"]');
    expect(await rows.count()).toBe(1);
    await rows.first().click();
    const detail = page.getByTestId('span-detail');
    await detail.getByTestId('method-route').waitFor();
    expect(await detail.getByTestId('method-route').textContent()).toContain('approve');
    expect(await detail.getByTestId('method-state-diff').textContent()).toContain('review_feedback');
    await shot('flow-run-completed-trace');
    await detail.getByTestId('method-state-diff').scrollIntoViewIfNeeded();
    await shot('flow-run-state-diff');
    await page.getByTestId('tab-output').click();
    await page.getByTestId('flow-state').waitFor();
    expect(await page.getByTestId('flow-state').textContent()).toContain('"status": "published"');
    await shot('flow-run-output');
    expect(session!.errors).toEqual([]);
  });

  it('keeps a paused flow across a restart of crewdeck serve and answers it from the inbox', async () => {
    let { page } = session!;
    const runId = await startRun(page);
    await page.getByTestId('flow-feedback-dialog').waitFor({ timeout: 20_000 });
    await session!.close();
    await app!.stop();

    app = await serve(workspace);
    session = await openBrowser(app.url);
    page = session.page;
    const item = page.locator(`[data-testid="flow-inbox-item"][data-run-id="${runId}"]`);
    await item.waitFor({ timeout: 15_000 });
    // Found after the restart: it waits in the inbox rather than popping up.
    expect(await page.getByTestId('flow-feedback-dialog').count()).toBe(0);
    expect(await (await runRow(page, runId)).getAttribute('data-status')).toBe('paused');
    await session.shot('flow-run-inbox-after-restart');

    // In the light theme this time.
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await item.click();
    const dialog = page.getByTestId('flow-feedback-dialog');
    await dialog.waitFor();
    await session.shot('flow-run-dialog-after-restart-light');
    expect(await dialog.getByTestId('flow-feedback-output').textContent()).toBe('Draft: six times seven is 42, checked twice.');
    await dialog.locator('[data-testid="flow-feedback-outcome"][data-outcome="revise"]').click();
    await dialog.waitFor({ state: 'detached' });

    // Answering opens the flow with the run: the revise branch is lit, publish did not run.
    await method(page, 'review').waitFor();
    const rewriteKey = (await methodKeys(page)).find((k) => !['draft', 'review', 'publish'].includes(k))!;
    await waitForNodeStatus(page, rewriteKey, 'done');
    expect(await nodeStatus(page, 'publish')).toBeNull();
    expect(await page.getByTestId('route-review-revise').getAttribute('data-taken')).toBe('true');
    await expect.poll(async () => (await runRow(page, runId)).getAttribute('data-status'), { timeout: 15_000 }).toBe('completed');
    await session.shot('flow-run-resumed-after-restart');
    expect(session.errors).toEqual([]);
  });

  it('lights an and gate once all its members have run', async () => {
    const { page, shot } = session!;
    await page.locator(`[data-testid="document-item"][data-path="${JOIN_FLOW}"]`).click();
    await method(page, 'both').waitFor();
    const gate = page.getByTestId('flow-gate-both');
    expect(await gate.getAttribute('data-run')).toBeNull();
    await startRun(page);
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 15_000 }).toBe('completed');
    await waitForNodeStatus(page, 'both', 'done');
    expect(await gate.getAttribute('data-run')).toBe('taken');
    // left → gate, right → gate and gate → both.
    expect(await page.locator('.flow-canvas path.flow-edge.is-run-taken').count()).toBe(3);
    await shot('flow-run-gate-lit');
    expect(session!.errors).toEqual([]);
  });
});
