import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScript, ScriptError, ScriptTimeout, stopScriptSandbox } from '../../runtime/script/sandbox';

/**
 * QuickJS runs on a worker thread that the host terminates at the deadline (runtime/script/scriptWorker.ts),
 * so no script holds the host's event loop. Found in the issue-13 review: a script that allocates until
 * QuickJS's memory limit — `for (;;) arr.push('x'.repeat(1e5))` — kept QuickJS from checking its deadline
 * for 3 s on an idle machine and ~12 s under load, and while it ran on the main thread no timer or I/O
 * of the host ran. No test here times anything: a script that cannot end by itself runs while the host
 * completes a timer and a file read (on the main thread they would never come), then it is stopped.
 */
const STILL_RUNNING = 'still running';

/** Starts `code` with a deadline no test waits for, lets the host do a timer and I/O, and says whether the script was still running. */
async function hostRunsBeside(code: string): Promise<{ during: unknown; after: unknown }> {
  const outcome = runScript(code, {}, { timeoutMs: 600_000 }).then(
    () => 'ended',
    (error: unknown) => error,
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  await readFile(fileURLToPath(import.meta.url));
  const during = await Promise.race([outcome, STILL_RUNNING]);
  await stopScriptSandbox();
  return { during, after: await outcome };
}

describe('a script never holds the host’s event loop', () => {
  const DEADLINE_MS = 1000;

  it('while a script allocates, host timers and I/O keep running; at its deadline or memory limit it is stopped', async () => {
    expect(await runScript('return 1', {})).toBe(1); // the worker is started and warm
    // Allocates for as long as it is let (the array is emptied, so never up to the memory limit).
    const { during, after } = await hostRunsBeside("let arr = []; for (;;) { arr.push('x'.repeat(1e5)); if (arr.length > 100) arr = []; }");
    expect(during).toBe(STILL_RUNNING);
    expect(after).toBeInstanceOf(ScriptError);
    // Allocating up to the memory limit, with a deadline: stopped by one or the other.
    const error = await runScript("let arr = []; for (;;) arr.push('x'.repeat(1e5))", {}, { timeoutMs: DEADLINE_MS }).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(ScriptError);
    expect((error as Error).message).toMatch(/timed out|memory/);
    // The next script gets a working sandbox (a new worker, if the old one had to be terminated).
    expect(await runScript('return [1, 2].map((n) => n * 3)', {})).toEqual([3, 6]);
  }, 30_000);

  it('while a script loops forever (in try/catch too), host timers and I/O keep running, and it times out at its deadline', async () => {
    for (const code of ['for (;;) {}', 'for (;;) { try { for (;;) {} } catch (e) {} }']) {
      const { during, after } = await hostRunsBeside(code);
      expect(during, code).toBe(STILL_RUNNING);
      expect(after, code).toBeInstanceOf(ScriptError);
      const error = await runScript(code, {}, { timeoutMs: DEADLINE_MS }).catch((caught: unknown) => caught as Error);
      expect(error, code).toBeInstanceOf(ScriptTimeout);
      expect((error as Error).message, code).toBe(`script timed out after ${DEADLINE_MS} ms`);
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
