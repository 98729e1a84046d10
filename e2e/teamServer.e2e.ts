import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedServices, teamTestEnv, type TeamTestEnv } from '../test/support/teamServices';
import { createKey, startTeamProcesses } from '../test/team/teamProcesses';
import { openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';
import { TeamClient } from '../runtime/team/teamClient';
import type { TeamRunView } from '../runtime/team/teamRuns';

/**
 * The app against a team server the test starts (PostgreSQL, Redis, `crewdeck server`, one
 * `crewdeck worker`): Settings → Team server shows it; *Run on team server* starts the open crew there and
 * its trace streams in live; the Runs tab lists the run, marked "team". *Publish…* deploys the open crew;
 * a team run waiting for a person is answered from the app (its dialog, or the inbox), through the API.
 */
let env: TeamTestEnv;
let team: Awaited<ReturnType<typeof startTeamProcesses>>;
let app: ServedApp;
let session: Session;
let workspace: string;
let client: TeamClient;

const TASKS = 4;

beforeAll(async () => {
  env = await teamTestEnv();
  team = await startTeamProcesses(env, 1, 5);
  const key = await createKey(env, 'deploy');
  client = new TeamClient(team.url, key, 15_000);
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
  // A writer whose answer a person reviews: a long draft, then (after feedback asking for it) a short one.
  const writer = { provider: 'scripted', model: 'writer', script: { rules: [{ when: { last: '/shorter/' }, reply: 'Tides follow the moon.' }], default: 'A long draft about how tides follow the moon, with far too many words in it.' } };
  writeFileSync(
    join(workspace, 'team-review.crew.json'),
    JSON.stringify({
      kind: 'crew',
      version: 1,
      id: 'team-review',
      name: 'Team review',
      process: 'sequential',
      agents: [{ id: 'w', role: 'Writer', goal: 'Write', backstory: 'Brief.', llm: writer }],
      tasks: [{ id: 'write', name: 'Write', description: 'Write about the tides', expectedOutput: 'A short text', agentId: 'w', humanInput: true }],
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

  it('Publish… deploys the open crew; its team run waits for a review, answered from the app (dialog, then inbox)', async () => {
    const { page } = session;
    await page.locator('[data-testid="document-item"]', { hasText: 'Team review' }).click();
    await page.getByTestId('publish-team').click();
    const dialog = page.getByTestId('publish-dialog');
    await dialog.waitFor();
    await session.shot('team-publish-dialog');
    await dialog.getByTestId('publish-confirm').click();
    await expect.poll(() => dialog.getByTestId('publish-result').textContent(), { timeout: 20_000 }).toContain('Published team-review version 1');
    await session.shot('team-published');
    await dialog.getByTestId('publish-close').click();
    const deployment = await client.request<{ id: string; latestVersion: number; kind: string }>('GET', '/v1/deployments/team-review');
    expect(deployment).toMatchObject({ id: 'team-review', latestVersion: 1, kind: 'crew' });

    // Run on team server: the writer's answer waits for a review on the server; the dialog pops up here.
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start-team').click();
    const review = page.getByTestId('human-dialog');
    await review.waitFor({ timeout: 30_000 });
    await expect.poll(() => review.getByTestId('human-output').textContent()).toContain('far too many words');
    const runId = (await page.getByTestId('run-status').getAttribute('data-run-id'))!;
    expect((await client.request<TeamRunView>('GET', `/v1/runs/${runId}`)).status).toBe('waiting');
    await session.shot('team-review-dialog');
    await review.getByTestId('human-feedback').fill('Make it shorter, please.');
    await review.getByTestId('human-send').click();
    // The agent goes on with the feedback on the server; its second answer is reviewed here too.
    await expect.poll(() => page.getByTestId('human-output').textContent(), { timeout: 30_000 }).toBe('Tides follow the moon.');
    await page.getByTestId('human-accept').click();
    await expect.poll(() => client.request<TeamRunView>('GET', `/v1/runs/${runId}`).then((r) => r.status), { timeout: 30_000 }).toBe('completed');
    expect((await client.request<TeamRunView>('GET', `/v1/runs/${runId}`)).output).toBe('Tides follow the moon.');
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 20_000 }).toBe('completed');

    // A run started elsewhere (the API) and waiting already: the app finds it in the run list, in the inbox.
    const { runId: other } = await client.request<{ runId: string }>('POST', '/v1/deployments/team-review/runs', {});
    await expect.poll(() => client.request<TeamRunView>('GET', `/v1/runs/${other}`).then((r) => r.status), { timeout: 30_000 }).toBe('waiting');
    await page.reload();
    const item = page.locator(`[data-testid="flow-inbox-item"][data-run-id="${other}"]`);
    await item.waitFor({ timeout: 20_000 });
    expect(await item.textContent()).toContain('review · Writer · task write');
    await session.shot('team-inbox');
    await item.click();
    await page.getByTestId('human-dialog').waitFor();
    await page.getByTestId('human-accept').click();
    await expect.poll(() => client.request<TeamRunView>('GET', `/v1/runs/${other}`).then((r) => r.status), { timeout: 30_000 }).toBe('completed');
    await expect.poll(() => item.count(), { timeout: 20_000 }).toBe(0);
    expect(session.errors).toEqual([]);
  }, 240_000);
});
