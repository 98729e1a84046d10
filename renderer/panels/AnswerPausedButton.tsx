import { selectPausedRunOf, useHumanRequestStore } from '../stores/humanRequestStore';

/**
 * "Answer…": opens the feedback dialog of a paused flow (its request comes from the human request
 * store); "Extend…" for a run paused at its budget (the budget dialog).
 */
export function AnswerPausedButton({ runId, testId = 'runs-answer' }: { runId: string; testId?: string }) {
  const request = useHumanRequestStore(selectPausedRunOf(runId));
  const budget = request?.kind === 'budget';
  return (
    <button
      className="btn small primary"
      data-testid={testId}
      data-kind={request?.kind}
      disabled={!request}
      title={request ? `${budget ? 'Extend the cap' : 'Answer'}: ${request.prompt}` : 'Reading what the run waits for…'}
      onClick={(e) => {
        e.stopPropagation();
        if (request) useHumanRequestStore.getState().open(request);
      }}
    >
      {budget ? 'Extend…' : 'Answer…'}
    </button>
  );
}
