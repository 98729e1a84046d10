import { describe, expect, it } from 'vitest';
import { runScript } from '../../runtime/script/sandbox';

/**
 * A known gap (docs/SECURITY.md), found in the issue-13 review: a script that allocates until QuickJS's
 * memory limit — `for (;;) arr.push('x'.repeat(1e5))` — fails with "timed out" or "memory", but QuickJS
 * runs on the host's main thread, so the host gets the thread back only when the allocator gives up:
 * 3 s on an idle machine, ~12 s under load, past the 1 s deadline. The fix is a terminable worker. This
 * pins what holds today (the script is stopped, and within a bound that catches the 64 s it took with
 * 1 MB strings before the limit); it was an `it.fails` on 3 s, which an idle CI machine met.
 */
describe('a script that allocates up to the memory limit', () => {
  it('is stopped with "timed out" or "memory", and the host gets its thread back within 30 s', async () => {
    const started = performance.now();
    await expect(runScript("let arr = []; for (;;) arr.push('x'.repeat(1e5))", {}, { timeoutMs: 1000 })).rejects.toThrow(/timed out|memory/);
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
