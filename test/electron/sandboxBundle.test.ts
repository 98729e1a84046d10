import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostPush } from '../../shared/host-api';
import type { RuntimeEvent } from '../../shared/events';
import { RuntimeConnection } from '../../electron/main/runtimeConnection';
import { spawnNodeRuntime, testBuildDir, type NodeRuntimeChild } from './support/nodeRuntimeChild';

// The app's runtime bundle (runtimeHost.cjs) runs QuickJS scripts on the worker thread built beside it
// (sandboxWorker.cjs, runtime/script/scriptWorker.ts): a flow's script methods run, and one that
// allocates up to its memory limit fails with a timeout while the runtime keeps answering.
let bundle = '';
const temporary: string[] = [];
let connection: RuntimeConnection | undefined;

beforeAll(async () => {
  const { buildElectron } = await import('../../scripts/buildElectron.mjs');
  const written = await buildElectron({ outdir: testBuildDir('sandboxBundle'), sourcemap: false });
  expect(written.some((file) => file.endsWith('sandboxWorker.cjs'))).toBe(true);
  bundle = written.find((file) => file.endsWith('runtimeHost.cjs')) as string;
}, 60_000);

afterAll(async () => {
  await connection?.stop();
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

describe('the Electron runtime bundle’s script sandbox', () => {
  it('runs a flow’s script methods on its worker thread, and stops an allocating one at its deadline', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'crewdeck-electron-sandbox-'));
    temporary.push(workspace);
    writeFileSync(
      join(workspace, 'scripts.flow.json'),
      JSON.stringify({
        kind: 'flow',
        version: 1,
        id: 'scripts',
        name: 'Scripts',
        methods: [
          { id: 'a', name: 'a', trigger: { start: true }, body: { type: 'script', code: "state.n = 6 * 7; return 'n=' + state.n" } },
          { id: 'b', name: 'b', trigger: { listen: 'a' }, body: { type: 'script', timeoutMs: 1000, code: "let arr = []; for (;;) arr.push('x'.repeat(1e5))" } },
        ],
      }),
    );
    const pushes: HostPush[] = [];
    const children: NodeRuntimeChild[] = [];
    connection = new RuntimeConnection({
      spawn: (dir, env) => spawnNodeRuntime(bundle, dir, env, children),
      onPush: (push) => pushes.push(push),
      onFatal: () => undefined,
      log: () => undefined,
    });
    await connection.start(workspace, {});
    const started = await connection.request('runs.start', { path: 'scripts.flow.json', inputs: {} });
    expect(started.ok).toBe(true);
    const runId = started.ok ? (started.response as { runId: string }).runId : '';
    const events = () => pushes.flatMap((p) => (p.kind === 'event' && p.event.runId === runId ? [p.event] : []));
    const startedAt = Date.now();
    let end: RuntimeEvent | undefined;
    while (!(end = events().find((e) => e.type === 'run.completed' || e.type === 'run.failed'))) {
      // The runtime answers while the allocating script runs.
      expect((await connection.request('workspace.info', {})).ok).toBe(true);
      if (Date.now() - startedAt > 20_000) throw new Error('the run did not end');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(events().find((e) => e.type === 'flow.method.completed' && e.methodId === 'a')).toMatchObject({ output: 'n=42' });
    expect(events().find((e) => e.type === 'flow.method.failed' && e.methodId === 'b')).toMatchObject({ error: expect.stringMatching(/script timed out after 1000 ms|memory/) });
    expect(end.type).toBe('run.failed');
  }, 60_000);
});
