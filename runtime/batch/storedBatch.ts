import { randomBytes } from 'node:crypto';
import type { CrewDocument } from '../../shared/model/crew';
import type { SuggestionSource } from '../agent/suggestions';
import { runEachRow } from '../crew/eachRow';
import type { CrewRunResult } from '../crew/kickoff';
import { BatchNotResumable, errorMessage } from '../errors';
import { newRunId } from '../runId';
import type { BatchRecord, BatchRowRecord, BatchRowStatus, BatchStatus, RunStore } from '../store/types';

/** Time-sortable, unique batch ids: `batch_<time base36>_<random>`. */
export function newBatchId(now: number = Date.now()): string {
  return `batch_${now.toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** How a batch stands once its rows ended: all completed, one failed, else stopped. */
export function batchOutcome(statuses: BatchRowStatus[]): Exclude<BatchStatus, 'interrupted'> {
  if (statuses.some((s) => s === 'queued' || s === 'running' || s === 'paused')) return 'running';
  if (statuses.every((s) => s === 'completed')) return 'completed';
  return statuses.some((s) => s === 'failed') ? 'failed' : 'cancelled';
}

/** A row's status from its run's end. */
export function rowStatusOf(result: Pick<CrewRunResult, 'status'>): BatchRowStatus {
  return result.status;
}

/**
 * The rows of a stored batch a resume runs: every row not completed. A row whose run completed after
 * its row was last written (the process died between the two) is marked completed and not run; every
 * other row gets a new run id (its earlier run, interrupted or failed, stays in the history).
 */
export function rowsToResume(store: RunStore, batch: BatchRecord, now: number): BatchRowRecord[] {
  const todo: BatchRowRecord[] = [];
  for (const row of batch.rows) {
    if (row.status === 'completed') continue;
    if (store.getRun(row.runId)?.status === 'completed') {
      store.updateBatchRow(batch.id, row.index, { status: 'completed' });
      row.status = 'completed';
      continue;
    }
    row.runId = store.getRun(row.runId) ? newRunId(now) : row.runId;
    row.status = 'queued';
    delete row.error;
    todo.push(row);
  }
  return todo;
}

export interface BatchRowRun {
  row: BatchRowRecord;
  result?: CrewRunResult;
  error?: unknown;
}

/**
 * Runs `rows` of a stored batch, `concurrency` at a time, recording each row as it starts and ends;
 * once they all ended (or `signal` stopped the rest), the batch's status. A row not started because the
 * batch was stopped stays `queued`: a later `crewdeck batches resume` runs it.
 */
export async function runBatchRows(
  store: RunStore,
  batch: Pick<BatchRecord, 'id' | 'concurrency' | 'rows'>,
  rows: BatchRowRecord[],
  signal: AbortSignal,
  runRow: (row: BatchRowRecord) => Promise<CrewRunResult>,
  now: () => number,
): Promise<{ runs: (BatchRowRun | undefined)[]; status: Exclude<BatchStatus, 'interrupted'> }> {
  const runs = await runEachRow(rows.length, batch.concurrency, signal, async (i): Promise<BatchRowRun> => {
    const row = rows[i]!;
    store.updateBatchRow(batch.id, row.index, { status: 'running', runId: row.runId });
    row.status = 'running';
    try {
      const result = await runRow(row);
      row.status = rowStatusOf(result);
      if (result.error) row.error = result.error.message;
      store.updateBatchRow(batch.id, row.index, { status: row.status, ...(result.error ? { error: result.error.message } : {}) });
      return { row, result };
    } catch (error) {
      row.status = 'failed';
      row.error = errorMessage(error);
      store.updateBatchRow(batch.id, row.index, { status: 'failed', error: row.error });
      return { row, error };
    }
  });
  const status = batchOutcome(batch.rows.map((r) => r.status));
  // Stopped with rows not started: the batch ends cancelled (resumable); else as its rows ended.
  const final = status === 'running' ? 'cancelled' : status;
  store.finishBatch(batch.id, final, now());
  return { runs, status: final };
}

/** Reads each crew's active suggestions once and keeps them for the batch (not once per row's run). */
export function suggestionsOnce(source: SuggestionSource): SuggestionSource {
  const read = new Map<string, ReturnType<SuggestionSource['activeSuggestions']>>();
  return {
    activeSuggestions(crewId) {
      let found = read.get(crewId);
      if (!found) {
        found = source.activeSuggestions(crewId);
        read.set(crewId, found);
      }
      return found;
    },
  };
}

/** What a batch's document needs to be run again: the crew, checked to be the one the batch ran. */
export function sameCrew(batch: Pick<BatchRecord, 'documentId' | 'documentPath'>, doc: CrewDocument): void {
  if (doc.id !== batch.documentId) {
    throw new BatchNotResumable(`${batch.documentPath} now holds crew "${doc.id}", not "${batch.documentId}" that the batch ran`);
  }
}
