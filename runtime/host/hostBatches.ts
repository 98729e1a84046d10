import type { RuntimeEvent } from '../../shared/events';
import type { BatchRowStatus, HostBatch, HostPush, HostRequestParsed } from '../../shared/host-api';
import { addUsage, emptyUsage } from '../../shared/usage';
import { loadWorkspaceDocument } from '../document/workspaceDocument';
import { checkRowInputs, runEachRow } from '../crew/eachRow';
import { isBadInput } from '../badInput';
import { errorMessage, RunCancelled } from '../errors';
import { newRunId } from '../runId';
import { batchOutcome, newBatchId, suggestionsOnce } from '../batch/storedBatch';
import type { BatchRecord, RunStore } from '../store/types';
import { workspaceSuggestions } from '../training/suggestionSource';
import { HostBadInput, HostNotFound } from './hostErrors';
import type { HostRuns } from './hostRuns';

type Row = HostBatch['rows'][number];
interface Batch {
  batchId: string;
  path: string;
  concurrency: number;
  rows: Row[];
  controller: AbortController;
  /** Rows handed to HostRuns (their run may not have opened yet). */
  launched: Set<number>;
  /** Its end is recorded in the store. */
  ended?: boolean;
}

/** Batches kept for `runs.batch` (their runs stay in the store either way). */
const KEPT = 50;

/**
 * The app's *Run for each row…*: a crew once per row of inputs through HostRuns, checked and
 * scheduled as the CLI's --inputs-file does (crew/eachRow.ts). Each row has its run id from the start;
 * its status follows its run's pushed events (so a row paused at its budget and resumed later from the
 * inbox ends up completed here too). Every change pushes `batch.changed`.
 */
export class HostBatches {
  private readonly batches = new Map<string, Batch>();
  /** Run id → its batch and row. */
  private readonly rowsByRun = new Map<string, { batch: Batch; row: Row }>();

  constructor(
    private readonly options: {
      workspace: string;
      runs: HostRuns;
      /** Where batches are recorded: a batch outlives the app (`runs.batch` after a restart, `crewdeck batches`). */
      store: RunStore;
      push: (push: HostPush) => void;
      now: () => number;
    },
  ) {}

  /**
   * Checks every row, then starts the batch; answers once the first row's run has opened. When that
   * run cannot open for a reason every row shares (bad input: an unknown model profile, an untrusted
   * workspace), the batch is stopped and that error is the answer.
   */
  async start({ path, rows, concurrency, model }: HostRequestParsed<'runs.startBatch'>): Promise<HostBatch> {
    const { workspace, runs, now } = this.options;
    const loaded = loadWorkspaceDocument(workspace, path);
    if (loaded.kind !== 'crew') throw new HostBadInput(`${path} is a flow: a flow runs once per item of a list with a for_each method, not once per row`);
    // Every row checked before any runs; the problems name each bad row and its missing input.
    const inputs = checkRowInputs(loaded.doc, rows, path);
    const batch: Batch = {
      batchId: newBatchId(now()),
      path,
      concurrency,
      controller: new AbortController(),
      launched: new Set(),
      rows: rows.map((row, index) => ({ index, runId: newRunId(now()), inputs: row, status: 'queued', opened: false, tokenUsage: emptyUsage() })),
    };
    this.keep(batch);
    this.options.store.createBatch({
      id: batch.batchId,
      documentId: loaded.doc.id,
      name: loaded.doc.name,
      documentPath: path,
      concurrency,
      ...(model ? { model } : {}),
      rows: batch.rows.map((r) => ({ inputs: r.inputs, runId: r.runId })),
      createdAt: now(),
    });
    // Trained suggestions are read once for the batch, not once per row's run.
    const suggestions = suggestionsOnce(workspaceSuggestions(workspace));
    let firstOpened: Promise<string> | undefined;
    void runEachRow(batch.rows.length, concurrency, batch.controller.signal, async (index) => {
      // One row per input, and runEachRow gives each index below the row count once.
      const row = batch.rows[index];
      const rowInputs = inputs[index];
      if (row === undefined || rowInputs === undefined) return;
      batch.launched.add(index);
      const run = runs.runCrewRow(loaded.doc, loaded.file, rowInputs, model, row.runId, suggestions);
      if (index === 0) firstOpened = run.opened;
      try {
        const result = await run.ended;
        // The events said it already, unless the run ended without them (then the result is the word).
        if (row.status === 'queued' || row.status === 'running') this.update(batch, row, { status: result.status, tokenUsage: result.tokenUsage, error: result.error?.message });
      } catch (error) {
        this.update(batch, row, { status: 'failed', error: errorMessage(error) });
      }
    });
    // runEachRow hands row 0 over at once, so its run is set by now.
    try {
      await firstOpened;
    } catch (error) {
      if (isBadInput(error)) {
        this.cancel(batch.batchId);
        throw error;
      }
    }
    return snapshot(batch);
  }

  /** A batch of this session, or one stored by an earlier one (the app restarted, or the CLI ran it). */
  get(batchId: string): HostBatch {
    const live = this.batches.get(batchId);
    if (live) return snapshot(live);
    const stored = this.options.store.getBatch(batchId);
    if (!stored) throw new HostNotFound(`no batch with id "${batchId}" in this workspace`);
    return fromStore(stored, this.options.store);
  }

  /**
   * Stops a batch: rows not started yet end cancelled, live and paused runs are cancelled (a row whose
   * run is still opening is cancelled as it opens). Answers how many rows it stopped.
   */
  cancel(batchId: string): number {
    const batch = this.find(batchId);
    batch.controller.abort(new RunCancelled('the batch was stopped from the app'));
    let stopped = 0;
    for (const row of batch.rows) {
      if (row.status === 'queued' && !batch.launched.has(row.index)) {
        this.update(batch, row, { status: 'cancelled', error: 'stopped before it started' });
        stopped += 1;
      } else if ((row.status === 'running' || row.status === 'paused' || row.status === 'queued') && this.options.runs.cancel(row.runId)) {
        stopped += 1;
      } else if (row.status === 'queued') {
        stopped += 1; // still opening: cancelled by receive() on its run.started
      }
    }
    return stopped;
  }

  /** Every pushed message passes here: a batch row's run events move its status and usage. */
  receive(push: HostPush): void {
    if (push.kind !== 'event') return;
    const found = this.rowsByRun.get(push.event.runId);
    if (!found) return;
    const change = rowChange(found.row, push.event);
    if (change) this.update(found.batch, found.row, change);
    // A row of a stopped batch whose run opened after the stop.
    // (Next turn: the run is registered as live only once its start has returned.)
    if (push.event.type === 'run.started' && found.batch.controller.signal.aborted) {
      const { runId } = push.event;
      setTimeout(() => this.options.runs.cancel(runId), 0);
    }
  }

  /** Stops every batch from starting further rows (the runs themselves are cancelled by HostRuns). */
  closeAll(): void {
    for (const batch of this.batches.values()) batch.controller.abort(new RunCancelled('the app is closing'));
  }

  /** Stops a batch of this session (a stored batch of an earlier one has nothing running: `crewdeck batches cancel`). */
  private find(batchId: string): Batch {
    const batch = this.batches.get(batchId);
    if (!batch) throw new HostNotFound(`no batch with id "${batchId}" (batches are kept while the app runs)`);
    return batch;
  }

  private update(batch: Batch, row: Row, change: Partial<Row>): void {
    const was = row.status;
    Object.assign(row, change);
    const { store, now } = this.options;
    if (row.status !== was || change.error !== undefined) store.updateBatchRow(batch.batchId, row.index, { status: row.status, ...(row.error ? { error: row.error } : {}) });
    const status = batchOutcome(batch.rows.map((r) => r.status));
    if (status !== 'running' && !batch.ended) {
      batch.ended = true;
      store.finishBatch(batch.batchId, status, now());
    }
    this.options.push({ kind: 'batch.changed', batchId: batch.batchId });
  }

  private keep(batch: Batch): void {
    this.batches.set(batch.batchId, batch);
    for (const row of batch.rows) this.rowsByRun.set(row.runId, { batch, row });
    while (this.batches.size > KEPT) {
      const [oldestId, oldest] = this.batches.entries().next().value!;
      this.batches.delete(oldestId);
      for (const row of oldest.rows) this.rowsByRun.delete(row.runId);
    }
  }
}

/** What an event of a row's run changes in the row, if anything. */
function rowChange(row: Row, e: RuntimeEvent): Partial<Row> | undefined {
  switch (e.type) {
    case 'run.started':
    case 'run.resumed':
      return { status: 'running', opened: true };
    case 'run.paused':
      return { status: 'paused' };
    case 'llm.completed':
      return { tokenUsage: addUsage(row.tokenUsage, e.usage) };
    case 'run.completed':
      return { status: 'completed', tokenUsage: e.tokenUsage };
    case 'run.failed':
      return { status: 'failed', tokenUsage: e.tokenUsage, error: e.error };
    case 'run.cancelled':
      return { status: 'cancelled', error: e.reason };
    default:
      return undefined;
  }
}

function snapshot(batch: Batch): HostBatch {
  const rows = batch.rows.map((r) => ({ ...r, inputs: { ...r.inputs } }));
  const unfinished: BatchRowStatus[] = ['queued', 'running', 'paused'];
  const status = rows.some((r) => unfinished.includes(r.status))
    ? 'running'
    : rows.every((r) => r.status === 'completed')
      ? 'completed'
      : rows.some((r) => r.status === 'failed')
        ? 'failed'
        : 'cancelled';
  return { batchId: batch.batchId, path: batch.path, concurrency: batch.concurrency, status, rows };
}

/** A stored batch as the app shows one: each row's usage from its run, `opened` when its run is stored. */
function fromStore(batch: BatchRecord, store: RunStore): HostBatch {
  const rows = batch.rows.map((r) => {
    const run = store.getRun(r.runId);
    return { index: r.index, runId: r.runId, inputs: r.inputs, status: r.status, opened: Boolean(run), tokenUsage: run?.tokenUsage ?? emptyUsage(), ...(r.error ? { error: r.error } : {}) };
  });
  // A batch whose process died (or the app closed mid-batch) is shown as stopped: `crewdeck batches resume` runs the rest.
  const status = batch.status === 'interrupted' ? 'cancelled' : batch.status;
  return { batchId: batch.id, path: batch.documentPath, concurrency: batch.concurrency, status, rows };
}
