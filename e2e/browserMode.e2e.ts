import { createServer, type Server } from 'node:http';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, serve, tempWorkspace, type ServedApp } from './support/app';

let app: ServedApp;
let workspace: string;

beforeAll(async () => {
  workspace = tempWorkspace('browser-mode');
  app = await serve(workspace);
});

afterAll(async () => {
  await app?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('browser mode in a real Chromium', () => {
  it('refuses the page without the token, and requests from another origin even with it', async () => {
    const other: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>elsewhere</title>');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const otherPort = (other.address() as { port: number }).port;
    const session = await openBrowser(`http://127.0.0.1:${app.port}/`);
    try {
      expect(await session.page.textContent('body')).toContain('Forbidden');
      await session.shot('browser-mode-no-token');

      // A page served from another origin knows the token and still gets nothing.
      await session.page.goto(`http://127.0.0.1:${otherPort}/`);
      const token = new URL(app.url).searchParams.get('token')!;
      // (A cross-origin fetch is unreadable to the page whatever the server answers, so the HTTP
      // Origin refusal is asserted in test/host/browserServer.test.ts; a WebSocket is not subject to
      // CORS, so this is where the Origin check is what stands between the page and the workspace.)
      const opened = (origin: string) =>
        session.page.evaluate(
          ({ port, token }) =>
            new Promise<string>((resolve) => {
              const socket = new WebSocket(`ws://127.0.0.1:${port}/api?token=${token}`);
              socket.onopen = () => resolve('open');
              socket.onerror = () => resolve('refused');
            }),
          { port: app.port, token },
        ).then((outcome) => `${origin}: ${outcome}`);
      expect(await opened('other origin')).toBe('other origin: refused');
      // The same code from the app's own origin connects: the refusal above is the Origin check.
      await session.page.goto(app.url);
      expect(await opened('own origin')).toBe('own origin: open');
    } finally {
      await session.close();
      other.close();
    }
  });

  it('shows the same crews and the whole run history after the app is closed and reopened', async () => {
    let session = await openBrowser(app.url);
    const { page } = session;
    await page.getByLabel('New crew name').fill('Reopen check');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('[data-testid="document-item"][data-path="reopen-check.crew.json"]').waitFor();

    await page.locator('[data-testid="document-item"][data-path="research-brief.crew.json"]').click();
    await page.getByTestId('run-crew').click();
    await page.getByTestId('run-start').click();
    await page.locator('[data-testid="run-status"]', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="recent-run"][data-status="completed"]').waitFor();
    const runsBefore = await page.locator('[data-testid="recent-run"]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-run-id')} ${e.getAttribute('data-status')}`));
    expect(runsBefore).toHaveLength(1);
    expect(runsBefore[0]).toMatch(/ completed$/);
    expect(session.errors).toEqual([]);
    await session.close();

    await app.stop();
    app = await serve(workspace);
    session = await openBrowser(app.url);
    try {
      await session.page.locator('[data-testid="document-item"]').first().waitFor();
      const documents = await session.page.locator('[data-testid="document-item"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
      expect(documents).toEqual(['feedback-loop.flow.json', 'product-launch.crew.json', 'reopen-check.crew.json', 'research-brief.crew.json']);
      await session.page.locator('[data-testid="recent-run"]').first().waitFor();
      const runsAfter = await session.page.locator('[data-testid="recent-run"]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-run-id')} ${e.getAttribute('data-status')}`));
      expect(runsAfter).toEqual(runsBefore);

      // The old run's trace is all there.
      await session.page.locator('[data-testid="recent-run"]').first().click();
      await session.page.getByTestId('tab-trace').click();
      await session.page.locator('[data-testid="trace-row"][data-kind="tool"]').first().waitFor();
      await session.shot('browser-mode-reopened-history');
      expect(session.errors).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
