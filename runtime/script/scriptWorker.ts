import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EvaluationRequest } from './quickjsEvaluation';
import type { WorkerReply, WorkerRequest } from './sandboxProtocol';
import { fromFailure, ScriptError, ScriptTimeout } from './scriptErrors';

/**
 * The host's side of the script sandbox: one kept worker thread runs QuickJS (sandboxWorker.ts), so no
 * script — a busy loop, an allocation up to the memory limit, a promise that never settles — holds the
 * host's event loop. QuickJS stops a script at its deadline by itself when it can; when it cannot (an
 * allocation stalls its interrupt check for seconds), the host terminates the thread KILL_GRACE_MS after
 * the deadline and answers ScriptTimeout at once. The thread is started on the first script, reused, and
 * replaced in the background after a termination. Scripts run one at a time; the deadline of each starts
 * when the worker gets it.
 */
export const KILL_GRACE_MS = 250;

interface Thread {
  worker: Worker;
  /** Resolves when QuickJS is loaded in the worker; rejects if the worker cannot load it or stops first. */
  ready: Promise<void>;
  exited: Promise<number>;
  /** Set when the thread has stopped. */
  exitCode?: number;
}

export class ScriptWorker {
  private thread: Thread | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  /** The script's result as JSON text (undefined when JSON cannot carry it); a ScriptError otherwise. */
  run(request: EvaluationRequest): Promise<string | undefined> {
    const job = this.queue.then(() => this.runNow(request));
    this.queue = job.catch(() => undefined);
    return job;
  }

  /** Starts the worker in the background (it does not keep the host alive). */
  warmUp(): void {
    this.current();
  }

  /** Stops the worker (tests; hosts that shut down). The next script starts a new one. */
  async dispose(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.worker.terminate();
  }

  private current(): Thread {
    this.thread ??= this.spawn();
    return this.thread;
  }

  private spawn(): Thread {
    const entry = workerEntry();
    // No environment (no API keys) in the thread; scripts cannot reach it anyway.
    const worker = new Worker(entry.script, { eval: entry.eval, execArgv: [], env: {} });
    let failure = '';
    worker.on('error', (error) => (failure ||= error.message));
    const exited = new Promise<number>((done) => worker.once('exit', done));
    const ready = new Promise<void>((done, fail) => {
      const onMessage = (reply: WorkerReply) => {
        if (reply.type === 'ready') done();
        if (reply.type === 'unavailable') fail(new ScriptError(`the script sandbox could not load QuickJS: ${reply.message}`));
        if (reply.type === 'ready' || reply.type === 'unavailable') worker.off('message', onMessage);
      };
      worker.on('message', onMessage);
      void exited.then((code) => fail(new ScriptError(`the script sandbox could not start (exit ${code})${failure ? `: ${failure}` : ''}`)));
    });
    ready.catch(() => undefined);
    const thread: Thread = { worker, ready, exited };
    void ready.catch(() => this.drop(thread));
    void exited.then((code) => {
      thread.exitCode = code;
      if (this.thread === thread) this.thread = undefined;
    });
    worker.unref();
    return thread;
  }

  private async runNow(request: EvaluationRequest): Promise<string | undefined> {
    const thread = this.current();
    thread.worker.ref();
    try {
      await thread.ready;
      return await this.ask(thread, request);
    } finally {
      thread.worker.unref();
    }
  }

  private ask(thread: Thread, request: EvaluationRequest): Promise<string | undefined> {
    const id = this.nextId++;
    return new Promise<string | undefined>((done, fail) => {
      let settled = false;
      const finish = (settle: () => void): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        thread.worker.off('message', onMessage);
        thread.worker.off('exit', onExit);
        settle();
        return true;
      };
      const onMessage = (reply: WorkerReply) => {
        if (reply.type === 'result' && reply.id === id) finish(() => done(reply.json));
        if (reply.type === 'failed' && reply.id === id) finish(() => fail(fromFailure(reply.failure)));
      };
      // QuickJS did not stop at the deadline: the thread goes, with whatever it was doing.
      const timer = setTimeout(() => {
        if (finish(() => fail(new ScriptTimeout(request.timeoutMs)))) this.replace(thread);
      }, request.timeoutMs + KILL_GRACE_MS);
      // A listener rather than `exited.then`, which would keep every call's closure until the thread ends.
      const onExit = (code: number) => {
        if (finish(() => fail(new ScriptError(`script failed: the sandbox worker stopped (exit ${code})`)))) this.replace(thread);
      };
      thread.worker.on('message', onMessage);
      thread.worker.once('exit', onExit);
      if (thread.exitCode !== undefined) return onExit(thread.exitCode);
      thread.worker.postMessage({ ...request, id } satisfies WorkerRequest);
    });
  }

  /** Terminates a stuck or dead thread and, if it was the current one, starts the next in the background. */
  private replace(thread: Thread): void {
    const current = this.thread === thread;
    this.drop(thread);
    if (current) this.warmUp();
  }

  private drop(thread: Thread): void {
    if (this.thread === thread) this.thread = undefined;
    void thread.worker.terminate();
  }
}

/**
 * The worker's file, next to this module: `sandboxWorker.js` in the CLI bundle (dist/cli),
 * `sandboxWorker.cjs` in the Electron one (dist/electron), else the TypeScript source (tsx, vitest),
 * which the thread loads after registering tsx in itself (Node 20 does not pass the parent's loader
 * hooks to a worker).
 */
function workerEntry(): { script: URL | string; eval: boolean } {
  for (const file of ['./sandboxWorker.js', './sandboxWorker.cjs']) {
    const url = new URL(file, import.meta.url);
    if (existsSync(url)) return { script: url, eval: false };
  }
  const source = new URL('./sandboxWorker.ts', import.meta.url);
  if (!existsSync(source)) {
    throw new ScriptError(`the script sandbox is missing: no sandboxWorker.js, .cjs or .ts next to ${fileURLToPath(import.meta.url)}`);
  }
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  return { script: `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(fileURLToPath(source))});`, eval: true };
}
