import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, repoRoot, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

let app: ServedApp;
let workspace: string;
let session: Session;

/** A workspace whose default model is the scripted demo model, so a crew drawn from scratch runs offline. */
function prepareWorkspace(): string {
  const dir = tempWorkspace('build');
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  copyFileSync(join(repoRoot, 'e2e/fixtures/e2e.script.json'), join(dir, 'scripts/e2e.script.json'));
  writeFileSync(
    join(dir, 'crewdeck.json'),
    JSON.stringify({ version: 1, models: { default: 'demo', profiles: { demo: { provider: 'scripted', model: 'demo', script: 'scripts/e2e.script.json' } } } }),
  );
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

const node = (page: Page, nodeId: string) => page.getByTestId(`crew-node-${nodeId}`);

async function nodeIds(page: Page, kind: 'agent' | 'task'): Promise<string[]> {
  const ids = await page.locator(`[data-testid^="crew-node-${kind}:"]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('crew-node-', '')));
  return ids;
}

/** Drags from one handle to a node, the way a person connects them. */
async function connect(page: Page, from: Locator, to: Locator): Promise<void> {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + 40, a.y + 20, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
  await page.mouse.up();
}

async function fill(page: Page, label: string, value: string): Promise<void> {
  const field = page.getByTestId('inspector').getByLabel(label, { exact: true });
  await field.fill(value);
  await field.blur();
}

describe('building a crew on the canvas', () => {
  it('drags two agents and two tasks from the palette, connects them, fills the inspector, and finds it intact after a reload', async () => {
    const { page } = session;
    await page.getByLabel('New crew name').fill('Number brief');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('crew-canvas').waitFor();

    const canvas = page.getByTestId('crew-canvas');
    const box = (await canvas.boundingBox())!;
    await page.getByTestId('palette-agent').dragTo(canvas, { targetPosition: { x: box.width * 0.65, y: 120 } });
    await page.getByTestId('palette-agent').dragTo(canvas, { targetPosition: { x: box.width * 0.65, y: 330 } });
    await page.getByTestId('palette-task').dragTo(canvas, { targetPosition: { x: box.width * 0.2, y: 120 } });
    await page.getByTestId('palette-task').dragTo(canvas, { targetPosition: { x: box.width * 0.2, y: 330 } });
    const agents = await nodeIds(page, 'agent');
    const tasks = await nodeIds(page, 'task');
    expect(agents).toHaveLength(2);
    expect(tasks).toHaveLength(2);

    // Agents: role, goal, the researcher gets the calculator.
    await node(page, agents[0]!).click();
    await fill(page, 'Role', 'Researcher');
    await fill(page, 'Goal', 'Find the numbers');
    await page.getByTestId('inspector').getByTestId('tool-calculator').check();
    await node(page, agents[1]!).click();
    await fill(page, 'Role', 'Writer');
    await fill(page, 'Goal', 'Write the brief');

    // Tasks: description, expected output; the second needs SHIP IT (a guardrail) and a human review.
    await node(page, tasks[0]!).click();
    await fill(page, 'Description', 'Gather the numbers for the brief.');
    await fill(page, 'Expected output', 'One checked number.');
    await node(page, tasks[1]!).click();
    await fill(page, 'Description', 'Write the brief from the numbers.');
    await fill(page, 'Expected output', 'One line ending with SHIP IT.');
    await page.getByTestId('inspector').getByTestId('add-guardrail').selectOption('contains');
    await page.getByTestId('inspector').getByTestId('guardrail-text').fill('SHIP IT');
    await page.getByTestId('inspector').getByTestId('guardrail-text').blur();
    await page.getByTestId('inspector').getByTestId('field-humanInput').check();

    // Connect by dragging handles: task → agent assigns; task → later task is context.
    await connect(page, node(page, tasks[0]!).locator('.react-flow__handle-right'), node(page, agents[0]!));
    await connect(page, node(page, tasks[1]!).locator('.react-flow__handle-right'), node(page, agents[1]!));
    await connect(page, node(page, tasks[0]!).locator('.react-flow__handle-bottom'), node(page, tasks[1]!).locator('.react-flow__handle-top'));

    // The crew itself: hierarchical, with the built-in manager.
    await page.getByTestId('crew-canvas').locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await page.getByTestId('field-process').selectOption('hierarchical');
    await node(page, 'manager').waitFor();

    await page.locator('[data-testid="save-state"]', { hasText: /^Saved$/ }).waitFor();
    await session.shot('build-crew-drawn');
    // The palette's hint line shows whole hints only (at 1440 px not all fit); its tooltip has them all.
    const hints = await page.getByTestId('palette-hints').evaluate((line) => {
      const box = line.getBoundingClientRect();
      return {
        title: line.getAttribute('title') ?? '',
        spans: [...line.children].map((span) => {
          const r = span.getBoundingClientRect();
          const shown = r.top < box.bottom && r.bottom > box.top;
          return { shown, clipped: shown && (r.left < box.left - 0.5 || r.right > box.right + 0.5 || span.scrollWidth > span.clientWidth + 1) };
        }),
      };
    });
    expect(hints.spans.filter((s) => s.shown).length).toBeGreaterThanOrEqual(2);
    expect(hints.spans.filter((s) => s.clipped)).toEqual([]);
    expect(hints.title).toContain('copy and paste');
    const saved = JSON.parse(readFileSync(join(workspace, 'number-brief.crew.json'), 'utf8'));
    const [researcherId, writerId] = agents.map((a) => a.replace('agent:', ''));
    const [gatherId, writeId] = tasks.map((t) => t.replace('task:', ''));
    expect(saved.process).toBe('hierarchical');
    expect(saved.agents.map((a: { role: string }) => a.role)).toEqual(['Researcher', 'Writer']);
    expect(saved.agents[0].tools).toEqual([{ tool: 'calculator' }]);
    expect(saved.tasks.map((t: { agentId: string }) => t.agentId)).toEqual([researcherId, writerId]);
    expect(saved.tasks[1]).toMatchObject({ context: [gatherId], humanInput: true, guardrails: [{ type: 'contains', text: 'SHIP IT' }] });
    expect(saved.tasks[0].id).toBe(gatherId);
    expect(writeId).toBeTruthy();

    await page.reload();
    await page.locator('[data-testid="document-item"][data-path="number-brief.crew.json"]').click();
    await node(page, 'manager').waitFor();
    expect(await nodeIds(page, 'agent')).toEqual(agents);
    expect(await nodeIds(page, 'task')).toEqual(tasks);
    await node(page, agents[0]!).click();
    expect(await page.getByTestId('inspector').getByLabel('Role', { exact: true }).inputValue()).toBe('Researcher');
    expect(await page.locator('.react-flow__edge').count()).toBeGreaterThanOrEqual(3);
    expect(session.errors).toEqual([]);
  });

  it('runs the drawn crew: nodes turn done, the review dialog is answered, the trace shows the delegation, a tool call and a guardrail retry', async () => {
    const { page } = session;
    const tasks = await nodeIds(page, 'task');
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();

    // Task 2 asks for a review: the canvas is mid-run (task 1 done, task 2 waiting for a person).
    // (Live events reach the canvas in batches: poll rather than read once.)
    await page.getByTestId('human-dialog').waitFor();
    await expect.poll(() => node(page, tasks[0]!).getByTestId('node-status').getAttribute('data-status')).toBe('done');
    await expect.poll(() => node(page, tasks[1]!).getByTestId('node-status').getAttribute('data-status')).toBe('waiting');
    expect(await page.getByTestId('human-output').textContent()).toContain('42');
    await session.shot('run-mid-run-review-dialog');
    // "Later" tucks the review behind the toolbar's pill; the run keeps waiting.
    await page.getByTestId('human-dialog').getByRole('button', { name: 'Later', exact: true }).click();
    await page.getByTestId('human-pending').waitFor();
    expect(await page.getByTestId('human-dialog').count()).toBe(0);
    expect(await page.getByTestId('human-pending').textContent()).toContain('1 waiting for you');
    await session.shot('run-mid-run-canvas');
    await answerReviewsUntilDone(page);

    for (const id of [...tasks, ...(await nodeIds(page, 'agent')), 'manager']) {
      expect(await node(page, id).getByTestId('node-status').getAttribute('data-status'), id).toBe('done');
    }
    // Task 1 made two tool calls: the manager's delegate_work and the researcher's calculator.
    expect(await node(page, tasks[0]!).getByTestId('node-tool-calls').textContent()).toContain('2');
    expect(await node(page, tasks[1]!).getByTestId('node-retries').textContent()).toContain('1');

    // Selecting a node filters the trace to it: task 1 shows its delegation and the calculator call.
    await page.getByTestId('tab-trace').click();
    await node(page, tasks[0]!).click();
    await page.getByTestId('trace-filter').waitFor();
    const rows = page.getByTestId('trace-row');
    await rows.and(page.locator('[data-kind="delegation"]')).first().click();
    expect(await page.getByTestId('delegation-task').textContent()).toContain('six times seven');
    await rows.and(page.locator('[data-kind="tool"]')).last().click();
    expect(await page.getByTestId('tool-args').textContent()).toContain('6 * 7');
    expect(await page.getByTestId('tool-result').textContent()).toContain('42');

    // Task 2: the first answer failed its guardrail and was retried.
    await node(page, tasks[1]!).click();
    await rows.and(page.locator('[data-kind="guardrail"][data-status="failed"]')).first().click();
    expect(await page.getByTestId('guardrail-reason').textContent()).toContain('SHIP IT');
    expect(await rows.and(page.locator('[data-kind="retry"]')).count()).toBe(1);
    await node(page, tasks[0]!).click();
    await rows.and(page.locator('[data-kind="delegation"]')).first().click();
    await session.shot('run-trace-delegation-detail');
    expect(session.errors).toEqual([]);
  });

  it('replays from task 2: task 1 keeps its stored output and only task 2 runs again', async () => {
    const { page } = session;
    const tasks = await nodeIds(page, 'task');
    const secondTask = tasks[1]!.replace('task:', '');
    await page.getByTestId('tab-runs').click();
    const original = await page.getByTestId('runs-row').first().getAttribute('data-run-id');
    await page.getByTestId('runs-row').first().getByTestId('runs-replay').click();
    await page.locator(`[data-testid="replay-task"][data-task-id="${secondTask}"]`).click();
    await answerReviewsUntilDone(page, original);
    await page.getByTestId('tab-trace').click();
    const shown = await page.getByTestId('trace-panel').getAttribute('data-run-id');
    expect(shown).not.toBe(original);
    // Task 1 was restored from the earlier run (no delegation, no model call); task 2 ran again.
    await node(page, tasks[0]!).click();
    await page.locator('[data-testid="trace-row"][data-kind="task"]').first().waitFor();
    expect(await page.locator('[data-testid="trace-row"][data-kind="delegation"]').count()).toBe(0);
    expect(await page.locator('[data-testid="trace-row"][data-kind="llm"]').count()).toBe(0);
    await node(page, tasks[1]!).click();
    await page.locator('[data-testid="trace-row"][data-kind="delegation"]').first().waitFor();
    expect(await page.locator('[data-testid="trace-row"][data-kind="delegation"]').count()).toBeGreaterThanOrEqual(1);
    await page.getByTestId('tab-runs').click();
    expect(await page.getByTestId('runs-row').count()).toBe(2);
    await session.shot('replay-from-task-2');
  });

  it('undoes and redoes an edit', async () => {
    const { page } = session;
    const [researcher] = await nodeIds(page, 'agent');
    await node(page, researcher!).click();
    await fill(page, 'Role', 'Analyst');
    await expect.poll(() => node(page, researcher!).textContent()).toContain('Analyst');
    await page.getByTestId('crew-canvas').locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await page.keyboard.press('Control+z');
    await expect.poll(() => node(page, researcher!).textContent()).toContain('Researcher');
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => node(page, researcher!).textContent()).toContain('Analyst');
    await page.locator('[data-testid="save-state"]', { hasText: /^Saved$/ }).waitFor();
    const saved = JSON.parse(readFileSync(join(workspace, 'number-brief.crew.json'), 'utf8'));
    expect(saved.agents[0].role).toBe('Analyst');
  });
});

describe('documents that need attention', () => {
  it('opens an invalid document and shows each error on the node at fault', async () => {
    const { page } = session;
    writeFileSync(
      join(workspace, 'broken.crew.json'),
      JSON.stringify({
        kind: 'crew',
        version: 1,
        id: 'broken',
        name: 'Broken',
        agents: [{ id: 'writer', role: 'Writer', goal: '' }],
        tasks: [
          { id: 'draft', description: 'Draft it', expectedOutput: 'A draft', agentId: 'writer' },
          { id: 'polish', description: 'Polish it', expectedOutput: 'Polished', agentId: 'ghost' },
        ],
      }),
    );
    await page.reload();
    await page.locator('[data-testid="document-item"][data-path="broken.crew.json"]').click();
    await node(page, 'task:polish').waitFor();
    expect(await node(page, 'task:polish').getByTestId('node-problems').textContent()).toContain('no agent with id "ghost"');
    expect(await node(page, 'agent:writer').getByTestId('node-problems').count()).toBe(1);
    expect(await node(page, 'task:draft').getByTestId('node-problems').count()).toBe(0);
    expect(await page.getByTestId('run-crew').isDisabled()).toBe(true);
    await node(page, 'task:polish').click();
    expect(await page.getByTestId('inspector').getByTestId('field-problem').first().textContent()).toContain('ghost');
    await session.shot('invalid-document');
  });

  it('asks before a tool marked requiresApproval runs, and "always allow" lets the run finish', async () => {
    const { page } = session;
    writeFileSync(
      join(workspace, 'approval.crew.json'),
      JSON.stringify({
        kind: 'crew',
        version: 1,
        id: 'approval',
        name: 'Approval',
        agents: [{ id: 'researcher', role: 'Researcher', goal: 'Compute', tools: [{ tool: 'calculator', requiresApproval: true }] }],
        tasks: [{ id: 'compute', description: 'Compute six times seven.', expectedOutput: 'A number', agentId: 'researcher' }],
      }),
    );
    await page.reload();
    await page.locator('[data-testid="document-item"][data-path="approval.crew.json"]').click();
    await node(page, 'task:compute').waitFor();
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();
    await page.getByTestId('approval-dialog').waitFor();
    expect(await page.getByTestId('approval-args').textContent()).toContain('6 * 7');
    await session.shot('tool-approval-dialog');
    await page.getByTestId('approval-always').click();
    await page.locator('[data-testid="run-status"]', { hasText: 'completed' }).waitFor();
    await page.getByTestId('tab-trace').click();
    await page.locator('[data-testid="trace-row"][data-kind="tool"][data-status="done"]').first().waitFor();
    expect(session.errors).toEqual([]);
  });
});

describe('renaming and deleting the open crew', () => {
  it('renames it in place (it stays open and undoable, edits go to the new file), then moves it to the trash for good', async () => {
    const { page } = session;
    const undo = page.getByRole('button', { name: 'Undo', exact: true });
    await page.getByLabel('New crew name').fill('Scratch pad');
    await page.getByRole('button', { name: 'Create' }).click();
    // The crew of the test before is still on the canvas until the new one is open.
    await page.locator('[data-testid="document-item"][data-path="scratch-pad.crew.json"][aria-current="true"]').waitFor();
    await page.getByTestId('crew-canvas').waitFor();
    await page.getByTestId('palette-agent').click();
    await page.locator('[data-testid="save-state"]', { hasText: /^Saved\b/ }).waitFor();
    expect(await undo.isEnabled()).toBe(true);

    await page.locator('[data-testid="document-item"][data-path="scratch-pad.crew.json"]').dblclick();
    await page.getByTestId('rename-input').fill('scratch-renamed.crew.json');
    await page.getByTestId('rename-input').press('Enter');
    const renamed = page.locator('[data-testid="document-item"][data-path="scratch-renamed.crew.json"]');
    await renamed.waitFor();
    expect(await renamed.getAttribute('aria-current')).toBe('true');
    expect(await page.locator('[data-testid="document-item"][data-path="scratch-pad.crew.json"]').count()).toBe(0);
    expect(await nodeIds(page, 'agent')).toHaveLength(1);
    expect(await undo.isEnabled()).toBe(true);

    // Undo after the rename: saved to the new file; the old name does not come back.
    await undo.click();
    await expect.poll(() => nodeIds(page, 'agent')).toHaveLength(0);
    await page.locator('[data-testid="save-state"]', { hasText: /^Saved\b/ }).waitFor();
    expect(JSON.parse(readFileSync(join(workspace, 'scratch-renamed.crew.json'), 'utf8')).agents).toEqual([]);
    expect(existsSync(join(workspace, 'scratch-pad.crew.json'))).toBe(false);

    // Delete asks first (in the app, not a browser prompt), then closes the crew.
    await renamed.hover();
    await page.getByRole('button', { name: 'Delete scratch-renamed.crew.json' }).click();
    await page.getByTestId('delete-dialog').waitFor();
    await page.getByTestId('confirm-delete').click();
    await page.getByRole('heading', { name: 'Open a crew' }).waitFor();
    expect(await page.getByTestId('inspector').textContent()).toContain('Open a crew to inspect it.');
    expect(await undo.isDisabled()).toBe(true);
    expect(await renamed.count()).toBe(0);
    // Not a wait for the autosave's delay: a reload sends whatever save is still scheduled at once (the
    // document store flushes on beforeunload), and the reloaded app lists the workspace only after that.
    await page.reload();
    await page.getByRole('heading', { name: 'Open a crew' }).waitFor();
    await page.locator('[data-testid="document-item"]').first().waitFor();
    expect(await renamed.count()).toBe(0);
    expect(existsSync(join(workspace, 'scratch-renamed.crew.json'))).toBe(false);
    expect(session.errors).toEqual([]);
  });
});

describe('losing crewdeck serve', () => {
  it('says so in a banner while it tries to reconnect', async () => {
    const { page } = session;
    expect(await page.getByTestId('connection-banner').count()).toBe(0);
    await app.stop();
    const banner = page.getByTestId('connection-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Lost the connection to crewdeck serve — reconnecting…');
    await session.shot('connection-lost-banner');
  });
});

/** Accepts every review the run asks for until it completes (a run other than `previousRun`). */
async function answerReviewsUntilDone(page: Page, previousRun?: string | null): Promise<void> {
  const deadline = Date.now() + 30_000;
  const done = previousRun
    ? page.locator(`[data-testid="run-status"][data-status="completed"]:not([data-run-id="${previousRun}"])`)
    : page.locator('[data-testid="run-status"][data-status="completed"]');
  for (;;) {
    if ((await done.count()) > 0) return;
    if (await page.getByTestId('human-accept').isVisible()) await page.getByTestId('human-accept').click();
    else if (await page.getByTestId('human-pending').isVisible()) await page.getByTestId('human-pending').click();
    if (Date.now() > deadline) throw new Error('the run did not complete');
    await page.waitForTimeout(100);
  }
}
