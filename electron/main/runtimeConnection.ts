import type { HostChannel, HostPush, HostResult } from '../../shared/host-api';
import type { FromRuntime, ToRuntime } from '../runtime/runtimeMessages';

/** A running runtime process: Electron's UtilityProcess in the app, a Node child in tests. */
export interface RuntimeChild {
  postMessage(message: ToRuntime): void;
  onMessage(listener: (message: FromRuntime) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

export interface RuntimeConnectionOptions {
  spawn(workspace: string, env: Record<string, string>): RuntimeChild;
  /** Live events and change notices, for the windows. */
  onPush(push: HostPush): void;
  /** The runtime could not open the workspace (it stays up and answers every request with the reason). */
  onFatal(message: string): void;
  log(line: string): void;
  /** Automatic restarts allowed within `crashWindowMs` before waiting for the next request. */
  maxCrashes?: number;
  crashWindowMs?: number;
  restartDelayMs?: number;
  shutdownTimeoutMs?: number;
}

interface Current {
  child: RuntimeChild;
  workspace: string;
  /** Messages wait until the process says it is ready (or fatal). */
  started: boolean;
  queue: ToRuntime[];
  pending: Map<number, (result: HostResult<HostChannel>) => void>;
  stopping: boolean;
  exited: Promise<void>;
}

/**
 * Main's side of the runtime process: request/response matching, pushes, environment updates, restart
 * after a crash (pending requests fail with a clear error; the windows are told to refresh), and a
 * graceful stop (runs cancelled, store closed) when the workspace changes or the app quits.
 */
export class RuntimeConnection {
  private current: Current | undefined;
  private workspace: string | undefined;
  private env: Record<string, string> = {};
  private nextId = 1;
  private crashes: number[] = [];
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set while the process stops: requests wait for it instead of starting one on the old workspace. */
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: RuntimeConnectionOptions) {}

  /** Starts (or restarts) the runtime on a workspace with these environment variables. */
  async start(workspace: string, env: Record<string, string>): Promise<void> {
    await this.stop();
    this.workspace = workspace;
    this.env = { ...env };
    this.crashes = [];
    this.spawn();
  }

  get running(): boolean {
    return this.current !== undefined && !this.current.stopping;
  }

  async request(channel: HostChannel, request: unknown): Promise<HostResult<HostChannel>> {
    while (this.stopping) await this.stopping;
    const current = this.ensureRunning();
    if (!current) return Promise.resolve(failure('the runtime is not started'));
    const id = this.nextId++;
    return new Promise((resolve) => {
      current.pending.set(id, resolve);
      this.send(current, { type: 'request', id, channel, request });
    });
  }

  /** Updates variables in the running process and for every later start (`null` unsets). */
  setEnv(values: Record<string, string | null>): void {
    for (const [name, value] of Object.entries(values)) {
      if (value === null) delete this.env[name];
      else this.env[name] = value;
    }
    if (this.current && !this.current.stopping) this.send(this.current, { type: 'env', values });
  }

  /** Asks the process to cancel its runs and close its store; kills it if it takes too long. */
  async stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopping = this.stopNow().finally(() => {
      this.stopping = undefined;
    });
    return this.stopping;
  }

  private async stopNow(): Promise<void> {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const current = this.current;
    if (!current) return;
    current.stopping = true;
    this.current = undefined;
    const timeout = this.options.shutdownTimeoutMs ?? 5000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.options.log('crewdeck: the runtime did not stop in time; killing it');
        current.child.kill();
        resolve();
      }, timeout);
    });
    try {
      current.child.postMessage({ type: 'shutdown' });
    } catch {
      current.child.kill();
    }
    await Promise.race([current.exited, killed]);
    clearTimeout(timer);
  }

  private ensureRunning(): Current | undefined {
    if (this.current) return this.current;
    if (this.workspace === undefined) return undefined;
    // Crashed too often for automatic restarts: a new request is a person trying again.
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.crashes = [];
    return this.spawn();
  }

  private spawn(): Current {
    const workspace = this.workspace as string;
    const child = this.options.spawn(workspace, { ...this.env });
    let exited!: () => void;
    const current: Current = {
      child,
      workspace,
      started: false,
      queue: [],
      pending: new Map(),
      stopping: false,
      exited: new Promise<void>((resolve) => (exited = resolve)),
    };
    this.current = current;
    child.onMessage((message) => this.receive(current, message));
    child.onExit((code) => {
      exited();
      this.exitedUnexpectedly(current, code);
    });
    return current;
  }

  private send(current: Current, message: ToRuntime): void {
    if (!current.started) {
      current.queue.push(message);
      return;
    }
    current.child.postMessage(message);
  }

  private receive(current: Current, message: FromRuntime): void {
    switch (message?.type) {
      case 'ready':
      case 'fatal': {
        current.started = true;
        for (const queued of current.queue.splice(0)) current.child.postMessage(queued);
        if (message.type === 'fatal') this.options.onFatal(message.message);
        return;
      }
      case 'result': {
        const settle = current.pending.get(message.id);
        current.pending.delete(message.id);
        settle?.(message.result);
        return;
      }
      case 'push':
        if (!current.stopping) this.options.onPush(message.push);
        return;
      default:
        return;
    }
  }

  private exitedUnexpectedly(current: Current, code: number | null): void {
    const reason = current.stopping
      ? 'the runtime was stopped (the workspace changed or the app is quitting)'
      : `the runtime process stopped unexpectedly (exit code ${code ?? 'unknown'}); it is being restarted — try again`;
    for (const settle of current.pending.values()) settle(failure(reason));
    current.pending.clear();
    if (current.stopping || this.current !== current) return;
    this.current = undefined;
    this.options.log(`crewdeck: ${reason}`);

    const now = Date.now();
    const window = this.options.crashWindowMs ?? 60_000;
    this.crashes = [...this.crashes.filter((t) => now - t < window), now];
    if (this.crashes.length > (this.options.maxCrashes ?? 3)) {
      this.options.log('crewdeck: the runtime keeps crashing; it will start again on the next request');
      this.options.onPush({ kind: 'runs.changed' });
      return;
    }
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.current) return;
      this.spawn();
      // Runs that were in flight are now interrupted, and documents may have been written: refresh.
      this.options.onPush({ kind: 'runs.changed' });
      this.options.onPush({ kind: 'documents.changed' });
    }, this.options.restartDelayMs ?? 500);
  }
}

function failure(message: string): HostResult<HostChannel> {
  return { ok: false, error: { code: 'internal', message } };
}
