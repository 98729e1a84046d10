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
  cpSync(join(repoRoot, 'test/fixtures/crewai/flows/self_evaluation_loop'), join(workspace, 'crewai-flow'), { recursive: true });
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
    await expect.poll(() => unmapped.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const listed = (await unmapped.allTextContents()).join('\n');
    expect(listed).toMatch(/step_callback.*a Python callback cannot run/);
    // Its tools are not lost: ScrapeWebsiteTool is the built-in scrape_website, the project's own
    // CompetitorLookupTool a tool of its Python tool server.
    expect(listed).not.toMatch(/ScrapeWebsiteTool|CompetitorLookupTool/);
    await session.shot('import-crewai-summary');
    await page.getByTestId('import-crewai-done').click();
    // The crew is a new document in the workspace, open on the canvas with its agents.
    expect(readdirSync(workspace).filter((f) => f.endsWith('.crew.json')).length).toBe(3);
    await expect.poll(() => page.locator('.react-flow__node').count()).toBeGreaterThan(2);
    await session.shot('import-crewai-canvas');
    expect(session.errors).toEqual([]);
  });

  it('imports a Flow project: the flow opens on the canvas (its methods, the retry route back to the start), its crews beside it', async () => {
    const { page } = session;
    await page.getByTestId('open-import-crewai').click();
    await page.getByTestId('import-crewai-dir').fill('crewai-flow');
    await page.getByTestId('import-crewai-submit').click();
    await expect.poll(() => page.getByTestId('import-crewai-done').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId('import-crewai-dialog').textContent()).toContain('self_evaluation_loop.flow.json, post_crew.crew.json, review_crew.crew.json');
    expect(await page.getByTestId('import-crewai-dialog').textContent()).toContain('The flow is open on the canvas');
    await session.shot('import-crewai-flow-summary');
    await page.getByTestId('import-crewai-done').click();
    // Seven methods (generate_post_crew … max_retry_exit) are on the canvas.
    await expect.poll(() => page.locator('.react-flow__node').filter({ hasText: 'generate_post_crew' }).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.locator('.react-flow__node').filter({ hasText: /max_retry_exit|save_result|decide/ }).count()).toBeGreaterThanOrEqual(3);
    await session.shot('import-crewai-flow-canvas');
    expect(session.errors).toEqual([]);
  });
});
