import { useRunStore } from '../stores/runStore';
import { useUiStore } from '../stores/uiStore';

/**
 * Resume / Cancel for a run whose process died (status `interrupted`), in the Runs list and the trace's
 * header. Resume closes the step it died in as Interrupted and goes on under the same id; Cancel ends it
 * (it can then be replayed, not resumed). A refusal goes to `onError`, said in full.
 */
export function InterruptedRunActions({ runId, onError }: { runId: string; onError(message: string): void }) {
  const refused = (what: string) => (error: unknown) => onError(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  return (
    <>
      <button
        className="btn small primary"
        data-testid="run-resume"
        title="Its process stopped: close the step it was in as Interrupted and go on from there (finished steps are not run again)"
        onClick={() => {
          useUiStore.getState().setBottomTab('trace');
          void useRunStore.getState().resumeInterrupted(runId).catch(refused('Could not resume the run'));
        }}
      >
        Resume
      </button>
      <button
        className="btn small"
        data-testid="run-cancel-interrupted"
        title="End it as cancelled; it can then be replayed, not resumed"
        onClick={() => void useRunStore.getState().cancel(runId).catch(refused('Could not cancel the run'))}
      >
        Cancel
      </button>
    </>
  );
}
