import { useBatchRunStore } from '../batchRun/batchRunStore';
import type { RunDocument } from './useRunDocument';

/** Run for each row… (a crew), Cancel, Run on team server (when one is set) and Start run. */
export function RunDialogFooter({ loaded, canStart, starting, onStart, onClose }: { loaded: RunDocument | undefined; canStart: boolean; starting: boolean; onStart(onTeam: boolean): void; onClose(): void }) {
  return (
    <>
      {loaded?.noun === 'crew' && (
        <button
          className="btn ghost"
          data-testid="run-for-each-row"
          title="Run this crew once per row of a table of inputs (pasted, or from a .csv / .jsonl file)"
          onClick={() => {
            onClose();
            useBatchRunStore.getState().setOpen(true);
          }}
        >
          Run for each row…
        </button>
      )}
      <span className="modal-foot-spacer" />
      <button className="btn" onClick={onClose}>
        Cancel
      </button>
      {loaded?.teamServer && (
        <button
          className="btn"
          data-testid="run-start-team"
          title={`Publish this ${loaded.noun} to ${loaded.teamServer} and run it there; its trace streams here`}
          disabled={!canStart}
          onClick={() => onStart(true)}
        >
          Run on team server
        </button>
      )}
      <button className="btn primary" data-testid="run-start" disabled={!loaded || !canStart} onClick={() => onStart(false)}>
        {starting ? 'Starting…' : '▶ Start run'}
      </button>
    </>
  );
}
