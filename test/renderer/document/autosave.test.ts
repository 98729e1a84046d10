import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTOSAVE_DELAY_MS, Autosave, SAVE_RETRY_DELAYS_MS, type WriteOutcome } from '../../../renderer/stores/autosave';

/** An Autosave whose writes answer with the outcomes queued (then 'saved'), recording when each started. */
function autosaveWith(outcomes: WriteOutcome[] = []) {
  const started: number[] = [];
  let nothingToWrite = false;
  const autosave = new Autosave(() => {
    if (nothingToWrite) return undefined;
    started.push(Date.now());
    return async () => outcomes.shift() ?? 'saved';
  });
  return { autosave, started, nothing: () => (nothingToWrite = true) };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => vi.useRealTimers());

describe('autosave', () => {
  it('writes once, the delay after the last of several quick edits', async () => {
    const { autosave, started } = autosaveWith();
    autosave.schedule();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100);
    autosave.schedule();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100);
    expect(started).toEqual([]);
    expect(autosave.pending).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toEqual([2 * AUTOSAVE_DELAY_MS - 100]);
    expect(autosave.pending).toBe(false);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 10);
    expect(started).toHaveLength(1);
  });

  it('after a failed write tries again by itself with a growing delay, and stops once it works', async () => {
    const { autosave, started } = autosaveWith(['failed', 'failed', 'failed', 'failed', 'failed']);
    autosave.schedule();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 1 + SAVE_RETRY_DELAYS_MS.reduce((a, b) => a + b) + SAVE_RETRY_DELAYS_MS.at(-1)! + 60_000);
    const gaps = started.slice(1).map((t, i) => t - started[i]!);
    expect(gaps).toEqual([...SAVE_RETRY_DELAYS_MS, SAVE_RETRY_DELAYS_MS.at(-1)]);
  });

  it('a newer edit counts as the retry; a write for another document neither retries nor resets', async () => {
    const { autosave, started } = autosaveWith(['failed', 'stale']);
    autosave.schedule();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    autosave.schedule();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(started).toEqual([AUTOSAVE_DELAY_MS, 2 * AUTOSAVE_DELAY_MS]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(started).toHaveLength(2);
  });

  it('flush writes at once what is scheduled (or unsaved), and otherwise only waits', async () => {
    const { autosave, started, nothing } = autosaveWith();
    autosave.schedule();
    await autosave.flush(false);
    expect(started).toEqual([0]);
    await autosave.flush(false);
    expect(started).toHaveLength(1);
    await autosave.flush(true);
    expect(started).toHaveLength(2);
    nothing();
    await autosave.flush(true);
    expect(started).toHaveLength(2);
  });

  it('holds writes while the file moves, then writes where it is by then; reset drops the scheduled write', async () => {
    const { autosave, started } = autosaveWith();
    let finish!: (path: string) => void;
    let movedTo: string | undefined;
    const moving = autosave.hold(
      () => new Promise<string>((r) => (finish = r)),
      (path) => (movedTo = path),
    );
    autosave.schedule();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 4);
    expect(started).toEqual([]);
    finish('renamed.crew.json');
    await moving;
    await vi.advanceTimersByTimeAsync(0);
    expect(movedTo).toBe('renamed.crew.json');
    expect(started).toHaveLength(1);

    autosave.schedule();
    autosave.reset();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 4);
    expect(started).toHaveLength(1);
  });
});
