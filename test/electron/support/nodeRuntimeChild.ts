import { fork } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuntimeChild } from '../../../electron/main/runtimeConnection';
import type { FromRuntime } from '../../../electron/runtime/runtimeMessages';

export const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
/** Where a test file builds the Electron bundles: inside the repository so they find node_modules. */
export function testBuildDir(name: string): string {
  return join(repoRoot, 'node_modules/.cache/crewdeck-electron-test', name);
}
const shim = join(repoRoot, 'test/electron/support/parentPortShim.cjs');

export interface NodeRuntimeChild extends RuntimeChild {
  pid: number | undefined;
  /** Kills without warning, as a crash would. */
  crash(): void;
}

/**
 * The runtime bundle (dist/electron/runtimeHost.cjs, built into `testBuildDir`) in a plain Node child
 * with a parentPort shim: what utilityProcess.fork does in the app, without the Electron binary.
 */
export function spawnNodeRuntime(bundle: string, workspace: string, env: Record<string, string>, spawned: NodeRuntimeChild[]): NodeRuntimeChild {
  const baseEnv = { ...process.env };
  for (const name of Object.keys(baseEnv)) if (name.startsWith('OPENAI_')) delete baseEnv[name];
  const child = fork(shim, [bundle, '--workspace', workspace], { env: { ...baseEnv, ...env }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const wrapped: NodeRuntimeChild = {
    pid: child.pid,
    postMessage: (message) => {
      if (child.connected) child.send(message);
    },
    onMessage: (listener) => {
      child.on('message', (message) => listener(message as FromRuntime));
    },
    onExit: (listener) => {
      child.on('exit', (code) => {
        if (code !== 0 && code !== null && stderr) process.stderr.write(stderr);
        listener(code);
      });
    },
    kill: () => {
      child.kill('SIGKILL');
    },
    crash: () => {
      child.kill('SIGKILL');
    },
  };
  spawned.push(wrapped);
  return wrapped;
}
