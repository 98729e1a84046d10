import type { RuntimeEvent } from '../../shared/events';
import type { HostPush } from '../../shared/host-api';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { RunCancelled } from '../errors';
import { createRuntime, type Runtime, type RuntimeOptions } from '../runtime';
import type { RunStore } from '../store/types';
import type { HostHuman } from './hostHuman';

/** What the host's runs, trainings and tests are run with (HostRuns, HostTraining). */
export interface HostRunOptions {
  workspace: string;
  store: RunStore;
  human: HostHuman;
  env: NodeJS.ProcessEnv;
  push: (push: HostPush) => void;
  now: () => number;
  /** The host's memory store, shared with the memory browser (opened on first use). */
  memory?: () => Promise<RuntimeOptions['memory']>;
}

/** The host's memory store for a run. A store that cannot open is left to the run: one with memory enabled reports it, the others run. */
export async function runMemory(options: HostRunOptions): Promise<RuntimeOptions['memory']> {
  return options.memory?.().catch(() => undefined);
}

/** A runtime for one hosted run or session: the workspace's settings as they are now. */
export function hostRuntime(options: HostRunOptions, memory: RuntimeOptions['memory'], run: Pick<RuntimeOptions, 'human' | 'forceProfile' | 'offline' | 'suggestions'>): Runtime {
  const { workspace, store, env, now } = options;
  return createRuntime({ workspace, store, settings: loadWorkspaceSettings(workspace), env, now, memory, ...run });
}

/** A run's event as the subscribers get it, with the memory browser told when the run wrote memories. */
export function pushEvent(push: (push: HostPush) => void, event: RuntimeEvent): void {
  push({ kind: 'event', event });
  if (event.type === 'memory.write.committed') push({ kind: 'memory.changed' });
}

/** How a background run goes: `open` it once it has opened (true the first time); `signal` is its cancel. */
export type BackgroundBody<T> = (signal: AbortSignal, open: (value: T) => boolean) => Promise<unknown>;

/** Runs (or sessions of runs) going on in the background under an id, each until it ends or is cancelled. */
export class BackgroundRuns {
  private readonly active = new Map<string, { controller: AbortController; done: Promise<unknown> }>();

  has(id: string): boolean {
    return this.active.has(id);
  }

  /**
   * Starts `body` in the background. Resolves with what it was opened with; rejects with what kept it
   * from opening (or `notOpened`, when it ended without). `ended` is told once it has ended, and whether it had opened.
   */
  start<T>(id: string, body: BackgroundBody<T>, notOpened: string, ended?: (opened: boolean) => void): Promise<T> {
    const controller = new AbortController();
    return new Promise<T>((resolve, reject) => {
      let opened = false;
      const open = (value: T) => {
        if (opened) return false;
        opened = true;
        resolve(value);
        return true;
      };
      const done = body(controller.signal, open).then(
        () => {
          if (!opened) reject(new Error(notOpened));
        },
        (error) => {
          if (!opened) reject(error);
        },
      );
      const settled = done.finally(() => {
        this.active.delete(id);
        ended?.(opened);
      });
      this.active.set(id, { controller, done: settled });
    });
  }

  /** Cancels a live one; false when none runs under that id. */
  cancel(id: string): boolean {
    const run = this.active.get(id);
    if (!run) return false;
    run.controller.abort(new RunCancelled('cancelled from the app'));
    return true;
  }

  /** Cancels every one and waits until each has recorded its end. */
  async closeAll(): Promise<void> {
    const runs = [...this.active.values()];
    for (const run of runs) run.controller.abort(new RunCancelled('the app is closing'));
    await Promise.allSettled(runs.map((r) => r.done));
  }
}
