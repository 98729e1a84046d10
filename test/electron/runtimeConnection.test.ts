import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HostPush } from '../../shared/host-api';
import type { RuntimeEvent } from '../../shared/events';
import { RuntimeConnection } from '../../electron/main/runtimeConnection';
import { repoRoot, spawnNodeRuntime, testBuildDir, type NodeRuntimeChild } from './support/nodeRuntimeChild';

// The real runtime bundle, relayed by the real RuntimeConnection: only Electron's utilityProcess is
// replaced (by a Node child with a parentPort shim).
let bundle = '';
const temporary: string[] = [];

beforeAll(async () => {
  const { buildElectron } = await import('../../scripts/buildElectron.mjs');
  const written = await buildElectron({ outdir: testBuildDir('runtimeConnection'), sourcemap: false });
  bundle = written.find((file) => file.endsWith('runtimeHost.cjs')) as string;
}, 60_000);

afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function workspaceWithExamples(): string {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-electron-'));
  temporary.push(dir);
  cpSync(join(repoRoot, 'examples'), dir, { recursive: true, filter: (source) => !/[\\/](out|\.crewdeck)$/.test(source) });
  return dir;
}

interface Harness {
  connection: RuntimeConnection;
  children: NodeRuntimeChild[];
  pushes: HostPush[];
  fatal: string[];
  logs: string[];
}

const open: Harness[] = [];
function harness(options: { maxCrashes?: number } = {}): Harness {
  const h: Harness = { children: [], pushes: [], fatal: [], logs: [], connection: undefined as unknown as RuntimeConnection };
  h.connection = new RuntimeConnection({
    spawn: (workspace, env) => spawnNodeRuntime(bundle, workspace, env, h.children),
    onPush: (push) => h.pushes.push(push),
    onFatal: (message) => h.fatal.push(message),
    log: (line) => h.logs.push(line),
    restartDelayMs: 50,
    maxCrashes: options.maxCrashes,
  });
  open.push(h);
  return h;
}

afterEach(async () => {
  for (const h of open.splice(0)) await h.connection.stop();
});

async function until<T>(check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('RuntimeConnection with the runtime bundle in a child process', () => {
  it('answers requests from the HostService of the workspace it was started on', async () => {
    const workspace = workspaceWithExamples();
    const { connection } = harness();
    await connection.start(workspace, {});
    const info = await connection.request('workspace.info', {});
    expect(info).toMatchObject({ ok: true, response: { path: workspace, transport: 'electron' } });
    const listed = await connection.request('documents.list', {});
    expect(listed.ok && (listed.response as { documents: Array<{ path: string }> }).documents.map((d) => d.path).sort()).toEqual([
      'feedback-loop.flow.json',
      'product-launch.crew.json',
      'research-brief.crew.json',
    ]);
  });

  it('the runtime validates requests again, whatever main sends', async () => {
    const { connection } = harness();
    await connection.start(workspaceWithExamples(), {});
    const result = await connection.request('documents.read', { path: '../etc/passwd.crew.json' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('invalid_request');
  });

  it('relays a run’s live events as pushes, ending with run.completed', async () => {
    const { connection, pushes } = harness();
    await connection.start(workspaceWithExamples(), {});
    const started = await connection.request('runs.start', { path: 'research-brief.crew.json', inputs: {} });
    expect(started.ok).toBe(true);
    const runId = started.ok ? (started.response as { runId: string }).runId : '';
    const events = () => pushes.flatMap((p) => (p.kind === 'event' && p.event.runId === runId ? [p.event] : []));
    const end = await until(() => events().find((e: RuntimeEvent) => e.type === 'run.completed' || e.type === 'run.failed'), 15_000);
    expect(end.type).toBe('run.completed');
    expect(events()[0]!.type).toBe('run.started');
    expect(events().map((e) => e.seq)).toEqual(events().map((_, i) => i + 1));
  });

  it('applies environment updates in the running process and on restarts', async () => {
    const { connection } = harness();
    await connection.start(workspaceWithExamples(), {});
    const present = async () => {
      const listed = await connection.request('secrets.list', {});
      if (!listed.ok) throw new Error(listed.error.message);
      return (listed.response as { names: Array<{ name: string; present: boolean }> }).names.find((n) => n.name === 'OPENAI_API_KEY')?.present;
    };
    expect(await present()).toBe(false);
    connection.setEnv({ OPENAI_API_KEY: 'sk-test-123' });
    expect(await present()).toBe(true);
    connection.setEnv({ OPENAI_API_KEY: null });
    expect(await present()).toBe(false);
    connection.setEnv({ OPENAI_API_KEY: 'sk-test-456' });
    await connection.start(workspaceWithExamples(), { OTHER: 'x' });
    // start() replaces the environment: the key set before is gone.
    expect(await present()).toBe(false);
  });

  it('a crash fails the pending requests with a clear error, restarts, and tells the windows to refresh', async () => {
    const workspace = workspaceWithExamples();
    const h = harness();
    await h.connection.start(workspace, {});
    expect((await h.connection.request('workspace.info', {})).ok).toBe(true);
    const first = h.children[0];

    const pending = h.connection.request('documents.list', {});
    first!.crash();
    const failed = await pending;
    expect(failed.ok).toBe(false);
    expect(!failed.ok && failed.error.message).toMatch(/runtime process stopped unexpectedly .*restarted/);

    await until(() => h.children.length === 2);
    await until(() => h.pushes.some((p) => p.kind === 'runs.changed') && h.pushes.some((p) => p.kind === 'documents.changed'));
    const again = await h.connection.request('workspace.info', {});
    expect(again).toMatchObject({ ok: true, response: { path: workspace } });
    expect(h.children[1]!.pid).not.toBe(first!.pid);
  });

  it('stops restarting after repeated crashes, and starts again on the next request', async () => {
    const h = harness({ maxCrashes: 1 });
    await h.connection.start(workspaceWithExamples(), {});
    await h.connection.request('workspace.info', {});
    h.children[0]!.crash();
    await until(() => h.children.length === 2);
    await h.connection.request('workspace.info', {});
    // The restart is a timer (restartDelayMs): with the clock faked, every timer the crash set can be run
    // at once, so a restart that should not happen would happen here, not after some wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      h.children[1]!.crash();
      await vi.waitFor(() => expect(h.logs.some((l) => l.includes('keeps crashing'))).toBe(true), { timeout: 10_000, interval: 20 });
      vi.runAllTimers();
    } finally {
      vi.useRealTimers();
    }
    expect(h.children).toHaveLength(2);
    expect(h.connection.running).toBe(false);
    expect((await h.connection.request('workspace.info', {})).ok).toBe(true);
    expect(h.children).toHaveLength(3);
  });

  it('a workspace that cannot be opened is reported once, and every request answers with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crewdeck-electron-'));
    temporary.push(dir);
    const notAFolder = join(dir, 'file.txt');
    writeFileSync(notAFolder, 'not a workspace');
    const h = harness();
    await h.connection.start(notAFolder, {});
    const result = await h.connection.request('documents.list', {});
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toContain(notAFolder);
    expect(h.fatal).toHaveLength(1);
    expect(h.fatal[0]).toContain('could not open the workspace');
  });

  it('stop() shuts the runtime down gracefully: the process exits by itself (code 0), without being killed', async () => {
    const workspace = workspaceWithExamples();
    const h = harness();
    await h.connection.start(workspace, {});
    await h.connection.request('runs.list', {});
    const exits: Array<number | null> = [];
    h.children[0]!.onExit((code) => exits.push(code));
    await h.connection.stop();
    expect(exits).toEqual([0]);
    expect(h.logs.filter((l) => l.includes('killing'))).toEqual([]);
    expect(existsSync(join(workspace, '.crewdeck'))).toBe(true);
  });
});
