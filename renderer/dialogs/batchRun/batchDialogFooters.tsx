import type { ReactNode } from 'react';
import type { HostBatch } from '../../../shared/host-api';
import { useBatchRunStore } from './batchRunStore';

const MAX_CONCURRENCY = 16;

// Plain functions, not components: the dialog's footer stays one fragment whether it shows the form or
// the results, so React keeps the buttons in the same places as the same elements (and the focus on them).

/** The form's footer: how many rows run at a time, Cancel, and Run (n) rows. */
export function formFooter(props: { concurrency: number; onConcurrency(value: number): void; rowCount: number; canRun: boolean; starting: boolean; onRun(): void; onClose(): void }): ReactNode {
  const { concurrency, rowCount, starting } = props;
  return (
    <>
      <label className="batch-concurrency">
        Rows at a time
        <input
          type="number"
          className="dialog-input"
          data-testid="batch-concurrency"
          min={1}
          max={MAX_CONCURRENCY}
          value={concurrency}
          onChange={(e) => props.onConcurrency(Math.max(1, Math.min(MAX_CONCURRENCY, Math.round(Number(e.target.value) || 1))))}
        />
      </label>
      <span className="modal-foot-spacer" />
      <button className="btn" onClick={props.onClose}>
        Cancel
      </button>
      <button className="btn primary" data-testid="batch-run" disabled={!props.canRun} onClick={props.onRun}>
        {starting ? 'Starting…' : `▶ Run ${rowCount} row${rowCount === 1 ? '' : 's'}`}
      </button>
    </>
  );
}

/** The footer once a batch has started: Stop (while it runs), New batch… and Close. */
export function resultsFooter(batch: HostBatch, onClose: () => void): ReactNode {
  return (
    <>
      {batch.status === 'running' && (
        <button className="btn danger" data-testid="batch-stop" onClick={() => void useBatchRunStore.getState().cancel()}>
          ■ Stop the batch
        </button>
      )}
      <span className="modal-foot-spacer" />
      <button className="btn" data-testid="batch-new" onClick={() => useBatchRunStore.getState().clear()}>
        New batch…
      </button>
      <button className="btn primary" onClick={onClose}>
        Close
      </button>
    </>
  );
}
