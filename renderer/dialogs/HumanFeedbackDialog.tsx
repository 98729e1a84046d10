import { useState } from 'react';
import { useHumanRequestStore } from '../stores/humanRequestStore';
import { requestKey, type RunQuestion } from '../stores/humanRequests';
import { Modal } from './Modal';

interface HumanFeedbackDialogProps {
  request: RunQuestion;
  /** "Run name · 1 of 3 waiting". */
  context?: string;
  onLater?(): void;
}

/**
 * Task review: the agent's answer, a feedback box, and two ways out — accept the output as it is
 * (empty feedback) or send feedback (the agent works again with it).
 */
export function HumanFeedbackDialog({ request, context, onLater }: HumanFeedbackDialogProps) {
  const [feedback, setFeedback] = useState('');
  const answering = useHumanRequestStore((s) => s.answering === requestKey(request));
  const error = useHumanRequestStore((s) => s.error);
  const answer = (text: string) => void useHumanRequestStore.getState().answer(request, { feedback: text });
  const fieldId = `feedback-${request.requestId}`;

  return (
    <Modal
      testId="human-dialog"
      title={`Review the answer of ${request.agentRole}`}
      subtitle={[request.taskId ? `task ${request.taskId}` : undefined, context].filter(Boolean).join(' · ')}
      width={640}
      footer={
        <>
          {onLater && (
            <button className="btn ghost" onClick={onLater}>
              Later
            </button>
          )}
          <span className="modal-foot-spacer" />
          <button className="btn" data-testid="human-send" disabled={answering || feedback.trim() === ''} onClick={() => answer(feedback)}>
            Send feedback
          </button>
          <button className="btn primary" data-testid="human-accept" disabled={answering} onClick={() => answer('')}>
            Accept output
          </button>
        </>
      }
    >
      <div className="dialog-label">Task</div>
      <pre className="dialog-pre dialog-pre-short">{request.prompt}</pre>
      <div className="dialog-label">Output</div>
      <pre className="dialog-pre" data-testid="human-output">
        {request.output ?? ''}
      </pre>
      <label className="dialog-label" htmlFor={fieldId}>
        Feedback
      </label>
      <textarea
        id={fieldId}
        className="dialog-textarea"
        data-testid="human-feedback"
        rows={4}
        value={feedback}
        placeholder="What should the agent change? Leave empty and press Accept to keep the output."
        onChange={(e) => setFeedback(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && !answering) answer(feedback);
        }}
      />
      <div className="dialog-hint">Ctrl+Enter sends. Feedback makes the agent revise its answer, then you review it again.</div>
      {error && <div className="dialog-error">{error}</div>}
    </Modal>
  );
}
