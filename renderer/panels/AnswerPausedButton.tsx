import { selectPausedRunOf, useHumanRequestStore } from '../stores/humanRequestStore';

/** "Answer…": opens the feedback dialog of a paused flow (its request comes from the human request store). */
export function AnswerPausedButton({ runId, testId = 'runs-answer' }: { runId: string; testId?: string }) {
  const request = useHumanRequestStore(selectPausedRunOf(runId));
  return (
    <button
      className="btn small primary"
      data-testid={testId}
      disabled={!request}
      title={request ? `Answer: ${request.prompt}` : 'Reading what the flow waits for…'}
      onClick={(e) => {
        e.stopPropagation();
        if (request) useHumanRequestStore.getState().open(request);
      }}
    >
      Answer…
    </button>
  );
}
