import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configDir, openBrowser, repoRoot, serve, tempWorkspace, type ServedApp, type Session } from './support/app';

const MARKER_SERVER = join(repoRoot, 'test/fixtures/mcp/markerServer.mjs');
let app: ServedApp;
let session: Session;
let workspace: string;
let marker: string;

beforeAll(async () => {
  workspace = tempWorkspace('trust');
  marker = join(workspace, 'marker.txt');
  // Trust is recorded in the served app's config folder (a temporary one, never the real home).
  rmSync(join(configDir, 'trusted-workspaces.json'), { force: true });
  writeFileSync(
    join(workspace, 'crewdeck.json'),
    JSON.stringify({ version: 1, mcp: { servers: { marker: { transport: 'stdio', command: process.execPath, args: [MARKER_SERVER, marker] } } } }, null, 2),
  );
  writeFileSync(
    join(workspace, 'echo.crew.json'),
    JSON.stringify({
      kind: 'crew',
      version: 1,
      id: 'echo',
      name: 'Echo',
      agents: [
        {
          id: 'a',
          role: 'Echoer',
          goal: 'Echo',
          llm: {
            provider: 'scripted',
            model: 'echo',
            script: {
              rules: [
                { when: { lastRole: 'user' }, reply: { toolCalls: [{ name: 'mcp:marker/echo', arguments: { text: 'hi' } }] } },
                { when: { lastRole: 'tool' }, reply: 'echoed' },
              ],
            },
          },
          tools: [{ tool: 'mcp:marker/echo' }],
        },
      ],
      tasks: [{ id: 't', description: 'Echo hi', expectedOutput: 'the echo', agentId: 'a' }],
    }),
  );
  app = await serve(workspace);
  session = await openBrowser(app.url);
});

afterAll(async () => {
  await session?.close();
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(join(configDir, 'trusted-workspaces.json'), { force: true });
});

describe('workspace trust in the app', () => {
  it('shows the trust banner with what would run; runs are refused until Trust is pressed', async () => {
    const { page } = session;
    const banner = page.getByTestId('trust-banner');
    await banner.waitFor();
    const text = (await banner.textContent()) ?? '';
    expect(text).toContain('crewdeck.json mcp.servers.marker');
    expect(text).toContain(`runs: ${process.execPath} ${MARKER_SERVER} ${marker}`);
    await page.locator('[data-testid="document-item"][data-path="echo.crew.json"]').waitFor();
    await session.shot('trust-banner');

    await page.locator('[data-testid="document-item"][data-path="echo.crew.json"]').click();
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();
    await page.getByText(/this workspace is not trusted/).first().waitFor({ timeout: 15_000 });
    await session.shot('trust-run-refused');
    expect(existsSync(marker)).toBe(false);

    // The Run dialog shows the same Trust… flow as the banner (which the dialog dims), so the refused run
    // is trusted from where it was refused. The page alone cannot trust: the grant asks for the code
    // `crewdeck serve` printed on its terminal.
    const inDialog = page.getByTestId('run-trust');
    expect(await inDialog.textContent()).toContain(`runs: ${process.execPath} ${MARKER_SERVER} ${marker}`);
    await inDialog.getByTestId('trust-grant').click();
    await inDialog.getByTestId('trust-code').waitFor();
    expect(existsSync(join(configDir, 'trusted-workspaces.json'))).toBe(false);
    const code = /enter this code in the browser: (\d{3}) (\d{3})/.exec(app.output());
    expect(code, app.output()).not.toBeNull();
    expect(app.output()).toContain(`runs: ${process.execPath} ${MARKER_SERVER} ${marker}`);
    await inDialog.getByTestId('trust-code').fill(`${code![1]}${code![2]}`);
    await session.shot('trust-code');
    await inDialog.getByTestId('trust-confirm').click();
    await inDialog.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await banner.waitFor({ state: 'detached' });
    expect(existsSync(join(configDir, 'trusted-workspaces.json'))).toBe(true);
    expect(session.errors.filter((e) => !/not trusted/.test(e))).toEqual([]);
  });
});
