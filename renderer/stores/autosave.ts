export const AUTOSAVE_DELAY_MS = 500;
/** Delays before saving again after the 1st, 2nd, 3rd… failed save in a row (the last one repeats). */
export const SAVE_RETRY_DELAYS_MS = [1000, 2000, 5000, 10000];

/** How one write of the document ended; `stale` when another document was open by the time it answered. */
export type WriteOutcome = 'saved' | 'failed' | 'stale';
/**
 * Starts a write of the document as it is now (the caller reads it and marks it saving) and returns
 * the write; undefined when there is nothing to write.
 */
export type StartWrite = () => (() => Promise<WriteOutcome>) | undefined;

/**
 * When the open document is written: shortly after the last edit, again after a failure with a
 * growing delay (a newer edit's save counts as the retry), and never while the file is being moved
 * (renamed or deleted): those saves wait and then go to wherever it is by then. Writes go one after
 * another. The document store owns one and tells it what to write.
 */
export class Autosave {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();
  private failures = 0;
  private moving: Promise<void> | undefined;

  constructor(private readonly startWrite: StartWrite) {}

  /** True while a save is scheduled and not sent yet. */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  /** Saves `delay` ms from now, replacing a save already scheduled (the debounce). */
  schedule(delay = AUTOSAVE_DELAY_MS): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.save();
    }, delay);
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Forgets the document's pending save and its failures (another document is opened, or none). */
  reset(): void {
    this.cancel();
    this.failures = 0;
  }

  /**
   * Saves now if a save is scheduled or `unsaved` (the last one failed); resolves when every save
   * sent so far has answered.
   */
  flush(unsaved: boolean): Promise<void> {
    const pending = this.pending || unsaved;
    this.cancel();
    return pending ? this.save() : (this.moving ?? this.chain).then(() => this.chain);
  }

  /** Runs a move of the file on disk; saves wait until `then` has applied its outcome. */
  async hold<T>(task: () => Promise<T>, then: (result: T) => void): Promise<void> {
    let release!: () => void;
    this.moving = new Promise<void>((resolve) => (release = resolve));
    try {
      then(await task());
    } finally {
      this.moving = undefined;
      release();
    }
  }

  private save(): Promise<void> {
    if (this.moving) return this.moving.then(() => this.save());
    const write = this.startWrite();
    if (!write) return this.chain;
    this.chain = this.chain.then(async () => {
      const outcome = await write();
      if (outcome === 'saved') this.failures = 0;
      else if (outcome === 'failed') {
        this.failures += 1;
        // Try again by itself (the disk may come back); a newer edit's autosave counts as the retry.
        if (this.timer === undefined) this.schedule(SAVE_RETRY_DELAYS_MS[Math.min(this.failures, SAVE_RETRY_DELAYS_MS.length) - 1]);
      }
    });
    return this.chain;
  }
}
