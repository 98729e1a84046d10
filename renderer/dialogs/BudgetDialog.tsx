import { useState } from 'react';
import { host } from '../host/hostContext';
import { useHumanRequestStore } from '../stores/humanRequestStore';
import { requestKey, type BudgetRequest } from '../stores/humanRequests';
import { useRunStore } from '../stores/runStore';
import '../styles/flow-run.css';
import { Modal } from './Modal';

interface BudgetDialogProps {
  request: BudgetRequest;
  context?: string;
  /** Tucks the dialog away; the run stays paused. */
  onLater(): void;
}

/**
 * A run (crew or flow) paused at its budget: *Extend by…* raises the cap it reached and continues the
 * run (`runs.resume` with the new cap; finished tasks and methods are not run again), *Stop the run*
 * ends it (`runs.cancel`).
 */
export function BudgetDialog({ request, context, onLater }: BudgetDialogProps) {
  const { which, spent, limit } = request.budget;
  const tokens = which === 'maxTokens';
  // By default the cap grows past what the run spent by the cap's size again (one call may overshoot it).
  const [extend, setExtend] = useState(String(tokens ? Math.max(limit, spent) : Math.max(limit, spent, 0.01)));
  const answering = useHumanRequestStore((s) => s.answering === requestKey(request));
  const error = useHumanRequestStore((s) => s.error);
  const amount = Number(extend);
  const valid = extend.trim() !== '' && Number.isFinite(amount) && amount > 0 && (!tokens || Number.isInteger(amount));
  const raised = valid ? (tokens ? limit + amount : Math.round((limit + amount) * 1e6) / 1e6) : undefined;
  // A cap at or under what the run spent would pause it again at once.
  const newLimit = raised !== undefined && raised > spent ? raised : undefined;
  const fieldId = `budget-extend-${request.requestId}`;

  const continueRun = async () => {
    if (newLimit === undefined) return;
    const ok = await useHumanRequestStore.getState().answer(request, { budget: tokens ? { maxTokens: newLimit } : { maxCostUsd: newLimit } });
    const runs = useRunStore.getState();
    void runs.refreshRuns();
    if (ok && (runs.runId === undefined || runs.runId === request.runId)) void runs.openRun(request.runId, request.documentPath);
  };
  const stop = async () => {
    await host().invoke('runs.cancel', { runId: request.runId });
    useHumanRequestStore.getState().open(undefined);
    onLater();
    void useRunStore.getState().refreshRuns();
  };
  const unit = tokens ? 'tokens' : 'US dollars';
  const shown = (n: number) => (tokens ? `${n} tokens` : `$${n.toFixed(4)}`);

  return (
    <Modal
      testId="budget-dialog"
      title="Budget reached"
      subtitle={[request.runName ?? 'Paused run', context].filter(Boolean).join(' · ')}
      width={520}
      footer={
        <>
          <button className="btn ghost" data-testid="budget-later" onClick={onLater}>
            Later
          </button>
          <button className="btn ghost is-danger" data-testid="budget-stop" disabled={answering} onClick={() => void stop()}>
            Stop the run
          </button>
          <span className="modal-foot-spacer" />
          <button className="btn primary" data-testid="budget-extend" disabled={answering || newLimit === undefined} onClick={() => void continueRun()}>
            {newLimit === undefined ? 'Extend' : `Extend to ${shown(newLimit)} and continue`}
          </button>
        </>
      }
    >
      <div className="dialog-label">Spent</div>
      <div data-testid="budget-spent">
        {shown(spent)} of the {shown(limit)} cap ({tokens ? 'maxTokens' : 'maxCostUsd'}), paused before a model call{request.methodId ? ` in “${request.methodId}”` : ''}.
      </div>
      <div className="dialog-hint">Finished steps keep their outputs and are not run again; the step it stopped in starts over.</div>
      <label className="dialog-label" htmlFor={fieldId}>
        Extend by ({unit})
      </label>
      <input
        id={fieldId}
        className="dialog-input"
        data-testid="budget-extend-by"
        inputMode="decimal"
        value={extend}
        onChange={(e) => setExtend(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !answering) void continueRun();
        }}
      />
      {!valid && (
        <div className="dialog-error" data-testid="budget-extend-invalid">
          {tokens ? 'Extend by a whole number of tokens above 0.' : 'Extend by a number of dollars above 0.'}
        </div>
      )}
      {valid && newLimit === undefined && (
        <div className="dialog-error" data-testid="budget-extend-invalid">
          The run already spent {shown(spent)}: extend by more than {tokens ? spent - limit : (spent - limit).toFixed(4)} so it can continue.
        </div>
      )}
      {error && (
        <div className="dialog-error" data-testid="budget-error">
          {error}
        </div>
      )}
    </Modal>
  );
}
