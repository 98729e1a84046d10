import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    await node(page, agents[0]).click();
    await fill(page, 'Role', 'Researcher');
    await fill(page, 'Goal', 'Find the numbers');
    await page.getByTestId('inspector').getByTestId('tool-calculator').check();
    await node(page, agents[1]).click();
    await fill(page, 'Role', 'Writer');
    await fill(page, 'Goal', 'Write the brief');

    // Tasks: description, expected output; the second needs SHIP IT (a guardrail) and a human review.
    await node(page, tasks[0]).click();
    await fill(page, 'Description', 'Gather the numbers for the brief.');
    await fill(page, 'Expected output', 'One checked number.');
    await node(page, tasks[1]).click();
    await fill(page, 'Description', 'Write the brief from the numbers.');
    await fill(page, 'Expected output', 'One line ending with SHIP IT.');
    await page.getByTestId('inspector').getByTestId('add-guardrail').selectOption('contains');
    await page.getByTestId('inspector').getByTestId('guardrail-text').fill('SHIP IT');
    await page.getByTestId('inspector').getByTestId('guardrail-text').blur();
    await page.getByTestId('inspector').getByTestId('field-humanInput').check();

    // Connect by dragging handles: task → agent assigns; task → later task is context.
    await connect(page, node(page, tasks[0]).locator('.react-flow__handle-right'), node(page, agents[0]));
    await connect(page, node(page, tasks[1]).locator('.react-flow__handle-right'), node(page, agents[1]));
    await connect(page, node(page, tasks[0]).locator('.react-flow__handle-bottom'), node(page, tasks[1]).locator('.react-flow__handle-top'));

    // The crew itself: hierarchical, with the built-in manager.
    await page.getByTestId('crew-canvas').locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await page.getByTestId('field-process').selectOption('hierarchical');
    await node(page, 'manager').waitFor();

    await page.locator('[data-testid="save-state"]', { hasText: /^Saved$/ }).waitFor();
    await session.shot('build-crew-drawn');
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
    await node(page, agents[0]).click();
    expect(await page.getByTestId('inspector').getByLabel('Role', { exact: true }).inputValue()).toBe('Researcher');
    expect(await page.locator('.react-flow__edge').count()).toBeGreaterThanOrEqual(3);
    expect(session.errors).toEqual([]);
  });
});
