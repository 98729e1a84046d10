import type { FlowDocument } from '../../shared/model/flow';
import type { RunLifecycle } from '../run/runLifecycle';
import type { RunStore } from '../store/types';
import { progressOf, progressOps, type CheckpointOp, type FlowCheckpoint, type FlowCheckpointEntry, type FlowProgress, type ItemsRef } from './flowCheckpoint';
import type { ListenerBook } from './listeners';

type StepEntry = Omit<Extract<FlowCheckpointEntry, { kind: 'step' }>, 'progress'>;
type ItemEntry = Omit<Extract<FlowCheckpointEntry, { kind: 'item' }>, 'progress'>;

/** Writes a flow run's checkpoint to its store: whole, or as entries appended to the last one written. */
export class FlowCheckpointWriter {
  /** State operations applied since the checkpoint was last written (only while checkpointing). */
  private unsavedOps: CheckpointOp[] = [];
  /** The last output, when a method completed since the checkpoint was last written (only while checkpointing). */
  private unsavedOutput: string | ItemsRef | undefined;

  /** `written`: the progress as the stored checkpoint holds it (undefined: nothing stored yet, a new run). */
  constructor(
    private readonly req: { runId: string; doc: FlowDocument; store?: RunStore },
    private readonly cp: FlowCheckpoint,
    private readonly book: ListenerBook,
    private readonly run: Pick<RunLifecycle, 'usage'>,
    private written: FlowProgress | undefined,
  ) {}

  get checkpointing(): boolean {
    return Boolean(this.req.store && this.req.doc.persist);
  }

  /** Keeps state operations just applied for the next write (the same operations as the checkpoint is to hold them). */
  addOps(stored: readonly CheckpointOp[]): void {
    if (this.checkpointing) this.unsavedOps.push(...stored);
  }

  /** Keeps the output of a method that just completed for the next write. */
  setOutput(output: string | ItemsRef): void {
    if (this.checkpointing) this.unsavedOutput = output;
  }

  /**
   * Saves the checkpoint: after every method with `persist`, and always when the run stops or pauses.
   * A stop, a pause or a new run writes it whole; in between, a method appends what changed (its state
   * operations and the progress that moved), so a run writes in proportion to its changes, not its size.
   */
  save(always = false): void {
    const store = this.req.store;
    if (!store || (!always && !this.req.doc.persist)) return;
    if (always || !this.written) {
      this.cp.listeners = this.book.snapshot();
      this.cp.tokenUsage = this.run.usage();
      store.saveCheckpoint(this.req.runId, this.cp);
      this.written = progressOf(this.cp);
      this.unsavedOps = [];
      this.unsavedOutput = undefined;
      return;
    }
    const output = this.unsavedOutput;
    this.appendEntry({ kind: 'step', ops: this.unsavedOps, ...(output !== undefined ? { output } : {}) });
    this.unsavedOps = [];
    this.unsavedOutput = undefined;
  }

  /** Appends an entry to the stored checkpoint, with the progress that moved since the last one. */
  appendEntry(entry: StepEntry | ItemEntry): void {
    const { store } = this.req;
    if (!store || !this.written) return;
    this.cp.listeners = this.book.snapshot();
    this.cp.tokenUsage = this.run.usage();
    const now = progressOf(this.cp);
    const progress = progressOps(this.written, now);
    if (entry.kind === 'step' && entry.ops.length === 0 && entry.output === undefined && progress.length === 0) return;
    store.appendCheckpointEntry(this.req.runId, { ...entry, progress } as FlowCheckpointEntry);
    this.written = now;
    // A method's entry is committed at once, with the events before it (durable after every method, as
    // whole checkpoints were); an item's goes in its turn's commit, with the item's events.
    if (entry.kind === 'step') store.commitPending();
  }
}
