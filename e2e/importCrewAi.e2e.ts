import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, repoRoot, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/**
 * Importing a CrewAI project from the app (browser mode has no File menu: the sidebar offers it): the
 * project's YAML becomes a crew on the canvas, and what could not be imported is listed with reasons.
 */
let app: ServedApp;
let workspace: string;
let session: Session;

beforeAll(async () => {
  workspace = tempWorkspace('import-crewai');
  cpSync(join(repoRoot, 'test/fixtures/crewai/launch_campaign'), join(workspace, 'crewai-project'), { recursive: true });
  app = await serve(workspace);
  session = await openBrowser(app.url);
});

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('import a CrewAI project', () => {
  it('imports from the sidebar, opens the crew and lists what was not imported', async () => {
    const { page } = session;
    await page.getByTestId('open-import-crewai').click();
    await page.getByTestId('import-crewai-dir').fill('crewai-project');
    await page.getByTestId('import-crewai-submit').click();
    const unmapped = page.getByTestId('import-crewai-unmapped-item');
    await expect.poll(() => unmapped.count()).toBeGreaterThan(0);
    expect((await unmapped.allTextContents()).join('\n')).toMatch(/tool/i);
    await session.shot('import-crewai-summary');
    await page.getByTestId('import-crewai-done').click();
    // The crew is a new document in the workspace, open on the canvas with its agents.
    expect(readdirSync(workspace).filter((f) => f.endsWith('.crew.json')).length).toBe(3);
    await expect.poll(() => page.locator('.react-flow__node').count()).toBeGreaterThan(2);
    await session.shot('import-crewai-canvas');
    expect(session.errors).toEqual([]);
  });
});
