import { utilityProcess } from 'electron';
import type { FromRuntime } from '../runtime/runtimeMessages';
import { WORKSPACE_ARG } from '../runtime/runtimeMessages';
import type { RuntimeChild } from './runtimeConnection';
import { isDirectory } from './workspaceChoice';

/**
 * Forks the runtime (dist/electron/runtimeHost.cjs) in an Electron utility process: plain Node, off
 * the main process, so a busy or crashing run never freezes the window. Its output goes to main's.
 */
export function forkRuntime(modulePath: string): (workspace: string, env: Record<string, string>) => RuntimeChild {
  return (workspace, env) => {
    const child = utilityProcess.fork(modulePath, [WORKSPACE_ARG, workspace], {
      env: { ...process.env, ...env },
      // The runtime resolves paths against the workspace itself; cwd is a safety net, when it exists.
      ...(isDirectory(workspace) ? { cwd: workspace } : {}),
      serviceName: 'Crewdeck runtime',
      stdio: 'inherit',
    });
    return {
      postMessage: (message) => child.postMessage(message),
      onMessage: (listener) => {
        child.on('message', (message: FromRuntime) => listener(message));
      },
      onExit: (listener) => {
        child.on('exit', (code: number) => listener(code));
      },
      kill: () => {
        child.kill();
      },
    };
  };
}

