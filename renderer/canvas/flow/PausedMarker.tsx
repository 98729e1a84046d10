import { AnswerPausedButton } from '../../panels/AnswerPausedButton';
import { useRunStore } from '../../stores/runStore';

/** On the method a paused flow waits at: "Waits for your feedback" and the *Answer…* button. */
export function PausedMarker({ methodKey }: { methodKey: string }) {
  const runId = useRunStore((s) => (s.view?.status === 'paused' && s.view.pausedFor?.methodId === methodKey ? s.view.runId : undefined));
  const atBudget = useRunStore((s) => s.view?.pausedFor?.reason === 'budget');
  if (!runId) return null;
  return (
    <div className="flow-node-paused nodrag" data-testid={`paused-marker-${methodKey}`}>
      <span className="flow-node-paused-label">
        <span className="pause-glyph" aria-hidden="true" />
        {atBudget ? 'Paused at its budget' : 'Waits for your feedback'}
      </span>
      <AnswerPausedButton runId={runId} testId={`paused-answer-${methodKey}`} />
    </div>
  );
}
