import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, repoRoot, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/** A flow run recorded from the command line, forked in the app from its second method with a state field edited. */
let app: ServedApp;
let workspace: string;
let session: Session;
let runId: string;

const scripted = (reply: string) => ({ provider: 'scripted', model: 'demo', script: { default: reply } });

beforeAll(async () => {
  workspace = tempWorkspace('flowfork');
  writeFileSync(
    join(workspace, 'three-steps.flow.json'),
    JSON.stringify({
      kind: 'flow',
      version: 1,
      id: 'three-steps',
      name: 'Three steps',
      state: { initial: { topic: 'owls', audience: 'kids' } },
      methods: [
        { id: 'research', name: 'research', trigger: { start: true }, body: { type: 'llm', prompt: 'One fact about {state.topic}.', llm: scripted('Owls hunt at night.') } },
        { id: 'draft', name: 'draft', trigger: { listen: 'research' }, body: { type: 'llm', prompt: 'Draft for {state.audience}: {input}', llm: scripted('A short draft.') } },
        { id: 'polish', name: 'polish', trigger: { listen: 'draft' }, body: { type: 'llm', prompt: 'Polish: {input}', llm: scripted('Polished draft.') } },
      ],
    }),
  );
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/crewdeck.js'), 'run', join(workspace, 'three-steps.flow.json'), '--json'], {
    cwd: workspace,
    env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stdout + r.stderr).toBe(0);
  runId = JSON.parse(r.stdout).runId;
  app = await serve(workspace);
  session = await openBrowser(app.url);
}, 120_000);

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('forking a flow run in the Replay dialog', () => {
  it('edits a state field at the second method and runs the fork', async () => {
    const { page } = session;
    await page.getByTestId('tab-runs').click();
    const row = page.locator(`[data-testid="runs-row"][data-run-id="${runId}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.getByTestId('runs-replay').click();
    const dialog = page.getByTestId('replay-dialog');
    await dialog.waitFor();
    const items = dialog.getByTestId('replay-item');
    await expect.poll(() => items.count()).toBe(3);
    expect(await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-method-id')))).toEqual(['research', 'draft', 'polish']);
    await dialog.locator('[data-testid="replay-edit"][data-method-id="draft"]').click();
    const audience = dialog.locator('[data-testid="replay-state-value"][data-key="audience"]');
    expect(await audience.inputValue()).toBe('kids');
    await audience.fill('grown-ups');
    await session.shot('flow-fork-dialog');
    // No flow is open on the canvas yet: the Runs tab was used from an empty canvas.
    expect(await page.locator('[data-testid^="flow-method-"]').count()).toBe(0);
    await dialog.locator('[data-testid="replay-task"][data-method-id="draft"]').click();
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });

    // The fork is shown on its flow, live, as a run started from the canvas: the flow's three methods,
    // each marked by the fork's run (research restored from the recording, draft and polish run again).
    await expect.poll(() => page.locator('[data-testid^="flow-method-"]').count(), { timeout: 15_000 }).toBe(3);
    expect(await page.locator('.toolbar-doc-name').textContent()).toBe('Three steps');
    for (const key of ['research', 'draft', 'polish']) {
      await expect.poll(() => page.getByTestId(`flow-method-${key}`).getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    }
    expect(await page.getByTestId('tab-trace').getAttribute('aria-selected')).toBe('true');
    await session.shot('flow-fork-canvas');

    await page.getByTestId('tab-runs').click();
    await expect.poll(() => page.getByTestId('runs-row').count(), { timeout: 30_000 }).toBe(2);
    const fork = page.locator('[data-testid="runs-row"]').filter({ hasText: '↻ from draft' });
    await expect.poll(() => fork.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
    await session.shot('flow-fork-runs');
    expect(session.errors).toEqual([]);
  }, 120_000);
});
