import { describe, expect, it } from 'vitest';
import { runScript } from '../../runtime/script/sandbox';

/**
 * OPEN HOLE found in the issue-13 review (not fixed here: runtime/script/sandbox.ts was still being
 * finished by its owner). A script that allocates until the 32 MB memory limit —
 * `for (;;) arr.push('x'.repeat(1e5))` — does fail with "script timed out after 1000 ms", but only after
 * ~12 s of wall time on the test machine, all of it on the host's main thread (QuickJS runs there
 * synchronously), so `serve` and the app freeze that long per call. Script code comes with a document,
 * and documents need no trust. Suggested fix: run scripts in a worker thread (or a kept child, as the
 * calculator does) and terminate it at the deadline, so wall time is bounded whatever the allocator does.
 *
 * `it.fails` keeps the suite green while the hole is open: when the fix lands this test starts failing —
 * drop `.fails` then.
 */
describe('a script that allocates up to the memory limit', () => {
  it.fails('gives the host back within 3 s of a 1 s timeout (OPEN HOLE: ~12 s today; 64 s with 1 MB strings)', async () => {
    const started = performance.now();
    await expect(runScript("let arr = []; for (;;) arr.push('x'.repeat(1e5))", {}, { timeoutMs: 1000 })).rejects.toThrow(/timed out|memory/);
    expect(performance.now() - started).toBeLessThan(3000);
  }, 60_000);
});
