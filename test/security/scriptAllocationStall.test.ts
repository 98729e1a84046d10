import { describe, expect, it } from 'vitest';
import { runScript, ScriptError, ScriptTimeout, stopScriptSandbox } from '../../runtime/script/sandbox';

/**
 * QuickJS runs on a worker thread that the host terminates at the deadline (runtime/script/scriptWorker.ts),
 * so no script holds the host's event loop. Found in the issue-13 review: a script that allocates until
 * QuickJS's memory limit — `for (;;) arr.push('x'.repeat(1e5))` — kept QuickJS from checking its deadline
 * for 3 s on an idle machine and ~12 s under load, and while it ran on the main thread no timer or I/O
 * of the host ran. Here a 50 ms interval timer of the host measures how late it fires during the script.
 */
function watchEventLoop(intervalMs = 50): () => { maxLateMs: number; ticks: number } {
  let last = performance.now();
  let maxLateMs = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxLateMs = Math.max(maxLateMs, now - last - intervalMs);
    last = now;
    ticks++;
  }, intervalMs);
  return () => {
    clearInterval(timer);
    maxLateMs = Math.max(maxLateMs, performance.now() - last - intervalMs);
    return { maxLateMs, ticks };
  };
}

async function stopped(code: string, timeoutMs: number): Promise<{ error: Error; ms: number; maxLateMs: number; ticks: number }> {
  const stop = watchEventLoop();
  const started = performance.now();
  let error: Error | undefined;
  try {
    await runScript(code, {}, { timeoutMs });
  } catch (caught) {
    error = caught as Error;
  }
  const ms = performance.now() - started;
  const loop = stop();
  if (!error) throw new Error(`expected ${code} to fail`);
  return { error, ms, ...loop };
}

describe('a script never holds the host’s event loop', () => {
  const DEADLINE_MS = 1000;
  /** A late timer of the host, at most (the script held it for the whole second, 3-12 s, before; a loaded 2-core machine can delay one by a few hundred ms). */
  const MAX_LATE_MS = 900;
  /** How long after its deadline a script is stopped, at most (3-12 s before, for the allocation). */
  const STOP_WITHIN_MS = 1500;

  it('while a script allocates up to its memory limit, host timers keep firing, and it is stopped soon after its deadline', async () => {
    expect(await runScript('return 1', {})).toBe(1); // the worker is started and warm
    const { error, ms, maxLateMs, ticks } = await stopped("let arr = []; for (;;) arr.push('x'.repeat(1e5))", DEADLINE_MS);
    expect(error.message).toMatch(/timed out|memory/);
    expect(maxLateMs).toBeLessThan(MAX_LATE_MS);
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(ms / 50 / 4));
    expect(ms).toBeLessThan(DEADLINE_MS + STOP_WITHIN_MS);
    // The next script gets a working sandbox (a new worker, if the old one had to be terminated).
    expect(await runScript('return [1, 2].map((n) => n * 3)', {})).toEqual([3, 6]);
  }, 30_000);

  it('while a script loops forever (in try/catch too), host timers keep firing, and it times out at its deadline', async () => {
    for (const code of ['for (;;) {}', 'for (;;) { try { for (;;) {} } catch (e) {} }']) {
      const { error, ms, maxLateMs } = await stopped(code, DEADLINE_MS);
      expect(error.message, code).toBe(`script timed out after ${DEADLINE_MS} ms`);
      expect(maxLateMs, code).toBeLessThan(MAX_LATE_MS);
      expect(ms, code).toBeGreaterThanOrEqual(DEADLINE_MS);
      expect(ms, code).toBeLessThan(DEADLINE_MS + STOP_WITHIN_MS);
    }
  }, 30_000);

  it('scripts sent together each get their own answer, after one that had to be stopped', async () => {
    const stuck = runScript("let arr = []; for (;;) arr.push('x'.repeat(1e5))", {}, { timeoutMs: 300 });
    const answers = Promise.all(Array.from({ length: 5 }, (_, n) => runScript('return n * n', { n })));
    await expect(stuck).rejects.toThrow(/timed out|memory/);
    expect(await answers).toEqual([0, 1, 4, 9, 16]);
  }, 30_000);

  it('a worker that stops under a script fails it with a ScriptError, and the next script gets a new one', async () => {
    const running = runScript('for (;;) {}', {}, { timeoutMs: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await stopScriptSandbox();
    const error = await running.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScriptError);
    expect(error).not.toBeInstanceOf(ScriptTimeout);
    expect((error as Error).message).toMatch(/^script failed: the sandbox worker stopped \(exit \d+\)$/);
    expect(await runScript('return "again"', {})).toBe('again');
  }, 30_000);
});
