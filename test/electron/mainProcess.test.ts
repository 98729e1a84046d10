import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MenuItemConstructorOptions } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostPush } from '../../shared/host-api';
import { createFakeElectron } from './support/fakeElectron';
import { testBuildDir } from './support/nodeRuntimeChild';

// dist/electron/main.cjs, the real bundle, run in Node with Electron's API recorded by a stand-in
// (the binary cannot be installed here) and the real runtime bundle in a child process.
const require = createRequire(import.meta.url);
const root = mkdtempSync(join(tmpdir(), 'crewdeck-main-'));
const userData = join(root, 'userData');
const documents = join(root, 'Documents');
const fake = createFakeElectron({ userData, documents });
let appUrl = '';
let outdir = '';

async function until<T>(check: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function menuItem(label: string): MenuItemConstructorOptions {
  const walk = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions | undefined => {
    for (const item of items) {
      if (item.label === label) return item;
      const inner = Array.isArray(item.submenu) ? walk(item.submenu) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  const item = walk(fake.state.menu);
  if (!item) throw new Error(`no menu item ${label}`);
  return item;
}

beforeAll(async () => {
  mkdirSync(documents, { recursive: true });
  // main snapshots its environment; keys from the shell running the tests would change what is "present".
  for (const name of Object.keys(process.env)) if (name.startsWith('OPENAI_')) delete process.env[name];
  const { buildElectron } = await import('../../scripts/buildElectron.mjs');
  outdir = testBuildDir('mainProcess');
  await buildElectron({ outdir, sourcemap: false });
  appUrl = pathToFileURL(join(outdir, '..', 'renderer', 'index.html')).href;

  const electronPath = require.resolve('electron');
  const stub = new Module(electronPath);
  stub.filename = electronPath;
  stub.loaded = true;
  stub.exports = fake.electron;
  require.cache[electronPath] = stub;
  require(join(outdir, 'main.cjs'));
  await until(() => fake.hasHandler() && fake.windows.length === 1);
}, 60_000);

afterAll(async () => {
  for (const child of fake.children) child.kill();
  await Promise.all(fake.children.map((c) => c.exited));
  rmSync(root, { recursive: true, force: true });
});

describe('main process (dist/electron/main.cjs)', () => {
  it('opens one sandboxed, context-isolated window on the renderer build, with the preload', () => {
    const [window] = fake.windows;
    expect(window!.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, preload: join(outdir, 'preload.cjs') });
    expect(window!.loaded).toBe(join(outdir, '..', 'renderer', 'index.html'));
    expect(window!.title).toBe('Crewdeck — Crewdeck');
    expect(typeof fake.state.headersListener).toBe('function');
  });

  it('first start: creates the default workspace with the examples and runs the runtime on it', async () => {
    const workspace = join(documents, 'Crewdeck');
    expect(existsSync(join(workspace, 'research-brief.crew.json'))).toBe(true);
    expect(fake.state.forks[0]).toEqual({ modulePath: join(outdir, 'runtimeHost.cjs'), args: ['--workspace', workspace] });
    const info = await fake.invoke(appUrl, 'workspace.info', {});
    expect(info).toMatchObject({ ok: true, response: { path: workspace, transport: 'electron' } });
    expect(JSON.parse(readFileSync(join(userData, 'workspace.json'), 'utf8'))).toEqual({ lastWorkspace: workspace });
  });

  it('refuses requests from other pages, unknown channels and invalid requests', async () => {
    expect(await fake.invoke('https://evil.example/', 'workspace.info', {})).toMatchObject({ ok: false, error: { message: expect.stringContaining('refused') } });
    expect(await fake.invoke(appUrl, 'child_process.exec', {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(await fake.invoke(appUrl, 'documents.read', { path: '../../etc/passwd.crew.json' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('stores API keys encrypted and gives them to the runtime, never back', async () => {
    const secret = 'sk-test-abcdef0123456789';
    const before = await fake.invoke(appUrl, 'secrets.list', {});
    expect(before).toMatchObject({ ok: true, response: { writable: true, names: [{ name: 'OPENAI_API_KEY', present: false, stored: false }] } });
    expect(await fake.invoke(appUrl, 'secrets.set', { name: 'OPENAI_API_KEY', value: secret })).toEqual({ ok: true, response: {} });
    expect(readFileSync(join(userData, 'secrets.json'), 'utf8')).not.toContain(secret);
    const after = await fake.invoke(appUrl, 'secrets.list', {});
    expect(after).toMatchObject({ ok: true, response: { names: [{ name: 'OPENAI_API_KEY', present: true, stored: true }] } });
    expect(JSON.stringify(after)).not.toContain(secret);
    // The runtime sees the key: a connection test now fails at the server, not for a missing key.
    const settings = await fake.invoke(appUrl, 'settings.get', {});
    expect(settings).toMatchObject({ ok: true, response: { keys: [{ name: 'OPENAI_API_KEY', present: true }] } });
    expect(await fake.invoke(appUrl, 'secrets.delete', { name: 'OPENAI_API_KEY' })).toEqual({ ok: true, response: {} });
    expect(await fake.invoke(appUrl, 'settings.get', {})).toMatchObject({ ok: true, response: { keys: [{ name: 'OPENAI_API_KEY', present: false }] } });
  });

  it('relays a run’s live events to the window', async () => {
    const [window] = fake.windows;
    const started = await fake.invoke(appUrl, 'runs.start', { path: 'research-brief.crew.json', inputs: {} });
    expect(started.ok).toBe(true);
    const runId = (started.response as { runId: string }).runId;
    const pushes = () => window!.sent.filter(([channel]) => channel === 'crewdeck:push').map(([, push]) => push as HostPush);
    const done = await until(() => pushes().find((p) => p.kind === 'event' && p.event.runId === runId && p.event.type === 'run.completed'));
    expect(done).toBeTruthy();
  });

  it('menu commands go to the renderer; Open Workspace restarts the runtime on the new folder', async () => {
    const [window] = fake.windows;
    (menuItem('Save').click as () => void)();
    (menuItem('Undo').click as () => void)();
    expect(window!.sent.filter(([channel]) => channel === 'crewdeck:menu')).toEqual([
      ['crewdeck:menu', 'save'],
      ['crewdeck:menu', 'undo'],
    ]);

    const other = join(root, 'other-workspace');
    mkdirSync(other);
    fake.state.openDialogResult = [other];
    (menuItem('Open Workspace…').click as () => void)();
    await until(() => window!.reloads === 1);
    expect(fake.state.forks).toHaveLength(2);
    expect(window!.title).toBe('other-workspace — Crewdeck');
    expect(await fake.invoke(appUrl, 'workspace.info', {})).toMatchObject({ ok: true, response: { path: other } });
    expect(JSON.parse(readFileSync(join(userData, 'workspace.json'), 'utf8'))).toEqual({ lastWorkspace: other });
  });

  it('saves the window bounds when the window closes', () => {
    fake.windows[0]!.emit('close');
    expect(JSON.parse(readFileSync(join(userData, 'window-state.json'), 'utf8'))).toEqual({ x: 10, y: 20, width: 1300, height: 850, maximized: false });
  });

  it('quitting stops the runtime gracefully first', async () => {
    let prevented = false;
    fake.emitApp('before-quit', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    await until(() => fake.state.quitCalls === 1);
    // Both runtimes (the first workspace's and the second's) exited by themselves, not killed.
    expect(await Promise.all(fake.children.map((c) => c.exited))).toEqual([0, 0]);
  });
});
