import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { BOUNDED_MATH_CHILD_SOURCE } from './boundedMathChild';
import { evaluatePlainArithmetic } from './plainArithmetic';
import { ToolError } from './tool';

/**
 * mathjs expressions come from models, and one line can ask for 10^10 numbers (`zeros(100000,100000)`)
 * or loop for minutes (`range(1,1e8)`). So they are evaluated in a child process with a heap limit and
 * a deadline: a bomb kills the child, never the host, and the caller gets an observation. A child
 * process rather than a worker thread because V8 aborts the whole process when one allocation
 * overshoots a worker's `resourceLimits` (measured with `range(1,1e8)`: exit 134 despite the limit).
 * The child is started ahead (`warmUp`, when a run resolves the calculator tool) and kept: loading
 * mathjs takes seconds, a warm call well under a millisecond of IPC.
 */
export const MATH_TIMEOUT_MS = 1000;
export const MATH_MEMORY_MB = 256;
export const MATH_MAX_RESULT_CHARS = 100_000;
/** Matrix-building functions (zeros, ones, range…) refuse more elements than this. */
export const MATH_MAX_ELEMENTS = 10_000_000;
/** A result with more elements than this is refused rather than formatted. */
export const MATH_MAX_SHOWN_ELEMENTS = 10_000;

interface Reply {
  id: number;
  ok: boolean;
  text?: string;
  message?: string;
}

interface Child {
  process: ChildProcess;
  ready: Promise<void>;
  /** The end of stderr (the child prints only when it dies: V8's out-of-memory report). */
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export class BoundedMath {
  private child: Child | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  constructor(
    private readonly limits = {
      timeoutMs: MATH_TIMEOUT_MS,
      memoryMb: MATH_MEMORY_MB,
      maxResultChars: MATH_MAX_RESULT_CHARS,
      maxElements: MATH_MAX_ELEMENTS,
      maxShownElements: MATH_MAX_SHOWN_ELEMENTS,
    },
  ) {}

  /** Starts the child in the background (it does not keep the host alive). */
  warmUp(): void {
    this.current();
  }

  /** Resolves when a child has loaded mathjs (for benchmarks and tests). */
  async whenReady(): Promise<void> {
    const child = this.current();
    setIdle(child.process, false);
    try {
      await child.ready;
    } finally {
      setIdle(child.process, true);
    }
  }

  /**
   * The formatted value of `expression`; a ToolError (the agent's observation) for anything else. Calls
   * run one at a time. Plain arithmetic is answered here at once, as mathjs would (plainArithmetic.ts),
   * so it never waits for the child to start.
   */
  evaluate(expression: string, signal?: AbortSignal): Promise<string> {
    const plain = signal?.aborted ? undefined : evaluatePlainArithmetic(expression);
    if (plain !== undefined) return Promise.resolve(plain);
    const run = this.queue.then(() => this.evaluateNow(expression, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the child (tests; hosts that shut down). */
  dispose(): void {
    this.child?.process.kill('SIGKILL');
    this.child = undefined;
  }

  private current(): Child {
    this.child ??= this.spawnChild();
    return this.child;
  }

  private spawnChild(): Child {
    // mathjs's one-file build (the same version and API as its CommonJS entry): one module to read and
    // compile instead of ~1,000, which took the child's start from seconds to a few hundred ms.
    const mathjs = createRequire(import.meta.url).resolve('mathjs/lib/browser/math.js');
    const proc = spawn(process.execPath, ['--title=crewdeck-calculator', `--max-old-space-size=${this.limits.memoryMb}`, '-e', BOUNDED_MATH_CHILD_SOURCE], {
      // Only what the child needs: no API keys in its environment. ELECTRON_RUN_AS_NODE makes the
      // Electron binary (the app's execPath) behave as Node.
      env: {
        CREWDECK_MATHJS: mathjs,
        CREWDECK_MATH_MAX_CHARS: String(this.limits.maxResultChars),
        CREWDECK_MATH_MAX_ELEMENTS: String(this.limits.maxElements),
        CREWDECK_MATH_MAX_SHOWN: String(this.limits.maxShownElements),
        ELECTRON_RUN_AS_NODE: '1',
      },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      windowsHide: true,
    });
    let stderr = '';
    proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    proc.on('error', () => undefined); // a failed spawn also ends in 'exit'/'close', handled below
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => proc.on('close', (code, signal) => done({ code, signal })));
    const ready = new Promise<void>((done, fail) => {
      proc.on('message', (message: { ready?: boolean }) => message.ready && done());
      void exited.then(({ code, signal }) => fail(new ToolError(`the calculator could not start (exit ${signal ?? code}): ${stderr.split('\n').find((line) => /Error/.test(line))?.trim() ?? stderr.trim().slice(0, 200)}`)));
    });
    ready.catch(() => undefined);
    const child: Child = { process: proc, ready, stderr: () => stderr, exited };
    void exited.then(() => {
      if (this.child === child) this.child = undefined;
    });
    setIdle(proc, true);
    return child;
  }

  private async evaluateNow(expression: string, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    const child = this.current();
    setIdle(child.process, false);
    try {
      await child.ready;
      return await this.ask(child, expression, signal);
    } finally {
      setIdle(child.process, true);
    }
  }

  private ask(child: Child, expression: string, signal?: AbortSignal): Promise<string> {
    const id = this.nextId++;
    const { timeoutMs, memoryMb } = this.limits;
    return new Promise<string>((done, fail) => {
      let settled = false;
      const finish = (settle: () => void): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        child.process.off('message', onMessage);
        signal?.removeEventListener('abort', onAbort);
        settle();
        return true;
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        finish(() => (reply.ok ? done(reply.text ?? '') : fail(new ToolError(reply.message ?? 'the calculation failed'))));
      };
      const kill = (error: Error) => {
        if (finish(() => fail(error))) this.replace(child);
      };
      const onAbort = () => kill(signal!.reason instanceof Error ? signal!.reason : new ToolError('the calculation was cancelled'));
      const timer = setTimeout(() => kill(new ToolError(`calculation timed out after ${timeoutMs} ms`)), timeoutMs);
      child.process.on('message', onMessage);
      signal?.addEventListener('abort', onAbort, { once: true });
      void child.exited.then(({ code, signal: killedBy }) => {
        const outOfMemory = /heap out of memory|Allocation failed/i.test(child.stderr()) || killedBy === 'SIGABRT' || code === 134;
        const error = new ToolError(outOfMemory ? `result too large: the calculation needs more than ${memoryMb} MB` : `the calculator stopped (exit ${killedBy ?? code})`);
        if (finish(() => fail(error))) this.replace(child);
      });
      child.process.send({ id, expression });
    });
  }

  /** Drops a child that is dead or stuck and starts the next one in the background. */
  private replace(child: Child): void {
    child.process.kill('SIGKILL');
    if (this.child === child || this.child === undefined) {
      this.child = undefined;
      this.warmUp();
    }
  }
}

/** An idle child must not keep the host's event loop alive (a CLI run ends when its work does). */
function setIdle(proc: ChildProcess, idle: boolean): void {
  const handles = [proc.channel, proc.stderr] as ({ ref(): void; unref(): void } | undefined | null)[];
  if (idle) {
    proc.unref();
    for (const handle of handles) handle?.unref();
  } else {
    proc.ref();
    for (const handle of handles) handle?.ref();
  }
}
