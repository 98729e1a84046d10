import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const screenshotDir = join(repoRoot, 'e2e', 'screenshots');

export interface ServedApp {
  workspace: string;
  url: string;
  port: number;
  /** Everything the server printed so far (stdout and stderr), e.g. the trust code of browser mode. */
  output(): string;
  /** Stops the server (SIGTERM: running runs are cancelled and keep their events). */
  stop(): Promise<void>;
}

// The served app's user config (last workspace, trust records) stays out of the real home.
export const configDir = process.env.CREWDECK_CONFIG_DIR ?? mkdtempSync(join(tmpdir(), 'crewdeck-e2e-config-'));

/**
 * Starts the real `crewdeck serve` on a free port over `workspace` and waits for its URL. `userConfig`:
 * another user's config folder (a fresh home with no model servers of its own, say) instead of the suite's;
 * `env`: variables added to its environment (a team server's key, say).
 */
export async function serve(workspace: string, options: { userConfig?: string; env?: Record<string, string> } = {}): Promise<ServedApp> {
  const child: ChildProcess = spawn(process.execPath, [join(repoRoot, 'bin/crewdeck.js'), 'serve', '--port', '0', '--workspace', workspace], {
    env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: '', CREWDECK_CONFIG_DIR: options.userConfig ?? configDir, ...(options.env ?? {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`crewdeck serve did not start:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`crewdeck serve exited with ${code}:\n${output}`)));
  });
  return {
    workspace,
    url,
    port: Number(new URL(url).port),
    output: () => output,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** A temporary workspace holding copies of the examples (and whatever `extra` adds). */
export function tempWorkspace(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `crewdeck-e2e-${name}-`));
  cpSync(join(repoRoot, 'examples'), dir, { recursive: true });
  rmSync(join(dir, '.crewdeck'), { recursive: true, force: true });
  return dir;
}

export interface Session {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far (tests assert there are none). */
  errors: string[];
  shot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function openBrowser(url: string, options: { width?: number; height?: number; theme?: 'dark' | 'light' } = {}): Promise<Session> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    colorScheme: options.theme ?? 'dark',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await page.goto(url);
  mkdirSync(screenshotDir, { recursive: true });
  return {
    browser,
    context,
    page,
    errors,
    async shot(name) {
      const file = join(screenshotDir, `${name}.png`);
      // Let entrance animations (dialogs fade in) finish, so the picture shows what a person sees.
      await page.evaluate(() =>
        Promise.race([
          Promise.all(
            document
              .getAnimations()
              .filter((a) => a.effect?.getTiming().iterations !== Infinity)
              .map((a) => a.finished.catch(() => undefined)),
          ),
          new Promise((resolve) => setTimeout(resolve, 1000)),
        ]),
      );
      await page.screenshot({ path: file });
      return file;
    },
    close: () => browser.close(),
  };
}
