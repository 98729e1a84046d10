import { useFlowInboxStore } from '../stores/flowInboxStore';

/** "Answer…": opens the feedback dialog of a paused flow (its request comes from the flow inbox). */
export function AnswerPausedButton({ runId, testId = 'runs-answer' }: { runId: string; testId?: string }) {
  const request = useFlowInboxStore((s) => s.requests.find((r) => r.runId === runId));
  return (
    <button
      className="btn small primary"
      data-testid={testId}
      disabled={!request}
      title={request ? `Answer: ${request.prompt}` : 'Reading what the flow waits for…'}
      onClick={(e) => {
        e.stopPropagation();
        if (request) useFlowInboxStore.getState().open(request.requestId);
      }}
    >
      Answer…
    </button>
  );
}
