import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedServices, teamTestEnv, type TeamTestEnv } from '../test/support/teamServices';
import { createKey, startTeamProcesses } from '../test/team/teamProcesses';
import { openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/**
 * The app against a team server the test starts (PostgreSQL, Redis, `crewdeck server`, one
 * `crewdeck worker`): Settings → Team server shows it; *Run on team server* starts the open crew there and
 * its trace streams in live; the Runs tab lists the run, marked "team".
 */
let env: TeamTestEnv;
let team: Awaited<ReturnType<typeof startTeamProcesses>>;
let app: ServedApp;
let session: Session;
let workspace: string;

const TASKS = 4;

beforeAll(async () => {
  env = await teamTestEnv();
  team = await startTeamProcesses(env, 1, 5);
  const key = await createKey(env, 'deploy');
  workspace = tempWorkspace('team');
  writeFileSync(join(workspace, 'crewdeck.json'), `${JSON.stringify({ version: 1, models: { profiles: {} }, team: { server: team.url } }, null, 2)}\n`);
  writeFileSync(
    join(workspace, 'team-report.crew.json'),
    JSON.stringify({
      kind: 'crew',
      version: 1,
      id: 'team-report',
      name: 'Team report',
      process: 'sequential',
      agents: [{ id: 'w', role: 'Analyst', goal: 'Report', backstory: 'Careful.', llm: { provider: 'scripted', model: 'demo', script: { default: { content: 'Section written.', delayMs: 600 } } } }],
      tasks: Array.from({ length: TASKS }, (_, i) => ({ id: `part${i + 1}`, name: `Part ${i + 1}`, description: `Write part ${i + 1}`, expectedOutput: 'A section', agentId: 'w' })),
    }),
  );
  app = await serve(workspace, { env: { CREWDECK_API_KEY: key } });
  session = await openBrowser(app.url);
}, 120_000);

afterAll(async () => {
  await session?.close();
  await app?.stop();
  await team?.stop();
  await env?.dispose();
  await (await sharedServices()).stop();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
}, 60_000);

describe('the app with a team server', () => {
  it('Settings → Team server; Run on team server streams the trace live; the run is listed as a team run', async () => {
    const { page } = session;
    await page.getByTestId('open-settings').click();
    const section = page.getByTestId('settings-team');
    await section.waitFor();
    await expect.poll(() => section.getByTestId('team-server-url').inputValue()).toBe(team.url);
    await expect.poll(() => section.getByTestId('team-server-status').textContent(), { timeout: 10_000 }).toContain(`Runs on ${team.url} are listed in the Runs tab`);
    await session.shot('team-settings');
    await page.getByTestId('open-settings').click();

    await page.locator('[data-testid="document-item"]', { hasText: 'Team report' }).click();
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start-team').click();
    const badge = page.getByTestId('run-status');
    await badge.waitFor({ timeout: 20_000 });
    const runId = (await badge.getAttribute('data-run-id'))!;
    await page.getByTestId('tab-trace').click();
    // Live: a task shows as running (a finished run's trace never does), its events arriving as they are committed.
    await page.locator('[data-testid="trace-row"][data-kind="task"][data-status="running"]').first().waitFor({ timeout: 30_000 });
    await session.shot('team-run-live');
    await expect.poll(() => badge.textContent(), { timeout: 60_000 }).toBe('completed');
    await expect.poll(() => page.locator('[data-testid="trace-row"][data-kind="task"][data-status="done"]').count(), { timeout: 10_000 }).toBe(TASKS);
    await session.shot('team-run-trace');

    await page.getByTestId('tab-runs').click();
    const row = page.locator(`[data-testid="runs-row"][data-run-id="${runId}"]`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getByTestId('runs-team-mark').count()).toBe(1);
    await session.shot('team-runs-tab');
    expect(session.errors).toEqual([]);
  }, 180_000);
});
