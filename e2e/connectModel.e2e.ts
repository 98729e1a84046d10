import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../test/support/scriptedServer';
import { openBrowser, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

/**
 * Issue 32: your own model in one step. A fresh home (no model servers of the user's, nothing trusted)
 * and a fresh workspace: *Connect a model* → any OpenAI-compatible URL → the scripted server on
 * 127.0.0.1 → it is tested, its model picked, the profile saved as the default, and a crew whose agent
 * names no model runs on it — no trust prompt anywhere. Then a workspace someone else wrote, whose
 * `crewdeck.json` names the same kind of loopback server: it stays held.
 */
let server: ScriptedServer;
const homes: string[] = [];
const workspaces: string[] = [];
const apps: ServedApp[] = [];
const sessions: Session[] = [];

const HELLO_CREW = {
  kind: 'crew',
  version: 1,
  id: 'hello',
  name: 'Hello',
  agents: [{ id: 'greeter', role: 'Greeter', goal: 'Greet the user' }],
  tasks: [{ id: 'greet', description: 'Say hello to the user', expectedOutput: 'a greeting', agentId: 'greeter' }],
};

function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'crewdeck-e2e-home-'));
  homes.push(home);
  return home;
}

beforeAll(async () => {
  server = await startScriptedServer({ models: ['local-model'] });
  server.setHandler(() => ({ content: 'Hello from the local model!' }));
});

afterAll(async () => {
  for (const s of sessions) await s.close();
  for (const a of apps) await a.stop();
  await server.close();
  for (const dir of [...workspaces, ...homes]) rmSync(dir, { recursive: true, force: true });
});

describe('Connect a model', () => {
  it('adds a local server in a fresh workspace, tests it, makes it the default and runs a crew on it, with no trust prompt', async () => {
    const workspace = tempWorkspace('connect');
    workspaces.push(workspace);
    writeFileSync(join(workspace, 'hello.crew.json'), JSON.stringify(HELLO_CREW, null, 2));
    const app = await serve(workspace, { userConfig: freshHome() });
    apps.push(app);
    const session = await openBrowser(app.url);
    sessions.push(session);
    const { page } = session;

    // First run: nothing is connected, and the sidebar says so.
    await page.getByTestId('connect-callout').waitFor();
    await session.shot('connect-first-run');
    await page.getByTestId('connect-open').click();
    const dialog = page.getByTestId('connect-model');
    await dialog.waitFor();
    // It looked for Ollama, LM Studio and vLLM on 127.0.0.1 (nothing of theirs runs here).
    await page.getByTestId('connect-none-found').waitFor();
    await session.shot('connect-local-none');

    await page.getByTestId('connect-choice-url').check();
    await page.getByTestId('connect-base-url').fill(server.baseUrl);
    await session.shot('connect-url');
    await page.getByTestId('connect-url-go').click();
    const pick = page.getByTestId('connect-model-pick');
    await pick.waitFor();
    expect(await pick.inputValue()).toBe('local-model');
    await session.shot('connect-pick-model');
    await page.getByTestId('connect-use-model').click();
    const done = page.getByTestId('connect-done');
    await done.waitFor();
    expect(await done.textContent()).toContain('is now the default');
    await session.shot('connect-done');

    const saved = JSON.parse(readFileSync(join(workspace, 'crewdeck.json'), 'utf8'));
    expect(saved.models).toEqual({ default: 'local', profiles: { local: { provider: 'openai', model: 'local-model', baseUrl: server.baseUrl } } });
    // It was tested: the server listed its models.
    expect(server.requests.some((r) => r.method === 'GET' && r.path === '/v1/models')).toBe(true);

    await page.getByTestId('connect-close').click();
    await expect.poll(() => page.getByTestId('connect-callout').count()).toBe(0);
    expect(await page.getByTestId('trust-banner').count()).toBe(0);

    // A crew whose agent names no model runs on the default profile: no trust prompt, the run completes.
    await page.locator('[data-testid="document-item"][data-path="hello.crew.json"]').click();
    await expect.poll(() => page.locator('.crew-node-model', { hasText: 'default model · local' }).count()).toBe(1);
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();
    await page.locator('[data-testid="run-status"][data-status="completed"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('trust-code').count()).toBe(0);
    expect(await page.getByTestId('trust-banner').count()).toBe(0);
    expect(app.output()).not.toContain('enter this code');
    const chats = server.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats.length).toBeGreaterThan(0);
    expect(chats.every((r) => r.body.model === 'local-model')).toBe(true);
    await session.shot('connect-run-completed');
    expect(session.errors).toEqual([]);
  });

  it('a loopback base URL the user never entered, in a cloned workspace’s crewdeck.json, is still held', async () => {
    const workspace = tempWorkspace('cloned');
    workspaces.push(workspace);
    writeFileSync(join(workspace, 'hello.crew.json'), JSON.stringify(HELLO_CREW, null, 2));
    writeFileSync(
      join(workspace, 'crewdeck.json'),
      JSON.stringify({ version: 1, models: { default: 'theirs', profiles: { theirs: { provider: 'openai', model: 'local-model', baseUrl: server.baseUrl } } } }, null, 2),
    );
    const before = server.requests.length;
    const app = await serve(workspace, { userConfig: freshHome() });
    apps.push(app);
    const session = await openBrowser(app.url, { width: 1280, height: 720 });
    sessions.push(session);
    const { page } = session;

    const banner = page.getByTestId('trust-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain(`crewdeck.json models.profiles.theirs.baseUrl: sends prompts to ${new URL(server.baseUrl).host}`);

    // Settings: saving the file again (an edit elsewhere) does not make it the user's; the test is refused.
    await page.getByTestId('open-settings').click();
    const held = page.getByTestId('settings-trust-held');
    await held.waitFor();
    await page.getByTestId('profile-temperature').fill('0.5');
    await page.getByTestId('settings-save').click();
    await expect.poll(() => page.locator('.settings-save-state').textContent()).toBe('Saved');
    await page.getByTestId('profile-test').click();
    const result = page.locator('[data-testid="connection-result"]:not([data-state="running"])');
    await result.waitFor();
    expect(await result.textContent()).toMatch(/not trusted/);
    expect(await page.getByTestId('settings-entered').count()).toBe(0);
    await held.waitFor();
    await session.shot('connect-cloned-held-settings');

    // A run is refused before it reaches the server; the Run dialog offers the same Trust… flow.
    await page.getByTestId('open-settings').click();
    await page.locator('[data-testid="document-item"][data-path="hello.crew.json"]').click();
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-trust').waitFor();
    await page.getByTestId('run-start').click();
    await page.getByTestId('run-dialog-error').waitFor();
    expect(await page.getByTestId('run-dialog-error').textContent()).toMatch(/not trusted/);
    await session.shot('connect-cloned-run-refused');
    expect(server.requests.length).toBe(before);
  });
});
