import { useState } from 'react';
import { host } from '../host/hostContext';
import { useHumanRequestStore } from '../stores/humanRequestStore';
import { requestKey, type FlowFeedbackRequest } from '../stores/humanRequests';
import { useRunStore } from '../stores/runStore';
import '../styles/flow-run.css';
import { Modal } from './Modal';

interface FlowFeedbackDialogProps {
  request: FlowFeedbackRequest;
  /** "Run name · 1 of 3 waiting". */
  context?: string;
  /** Tucks the dialog away; the flow stays paused. */
  onLater(): void;
}

/**
 * A paused flow's feedback step: the message, the output under review, one button per outcome and a
 * free-text answer. Answered with `runs.resume` (the process that paused may be gone); an outcome
 * button sends the outcome's label, free text is sorted into an outcome by the runtime, and an empty
 * answer takes the default outcome.
 */
export function FlowFeedbackDialog({ request, context, onLater }: FlowFeedbackDialogProps) {
  const [feedback, setFeedback] = useState('');
  const answering = useHumanRequestStore((s) => s.answering === requestKey(request));
  const error = useHumanRequestStore((s) => s.error);
  const fieldId = `flow-feedback-${request.requestId}`;
  const outcomes = request.outcomes ?? [];
  const fallback = request.defaultOutcome ?? outcomes[0];

  const send = async (text: string) => {
    const ok = await useHumanRequestStore.getState().answer(request, { feedback: text });
    const runs = useRunStore.getState();
    void runs.refreshRuns();
    // Show the run continuing (on its flow, when the list knows the file) unless another run is shown.
    if (ok && (runs.runId === undefined || runs.runId === request.runId)) void runs.openRun(request.runId, request.documentPath);
  };

  // Ends the flow without an answer; the run's `run.cancelled` takes it out of the inbox.
  const stop = async () => {
    await host().invoke('runs.cancel', { runId: request.runId });
    useHumanRequestStore.getState().open(undefined);
    onLater();
    void useRunStore.getState().refreshRuns();
  };

  const emptyHint =
    outcomes.length > 0
      ? `Sending without feedback picks the default outcome “${fallback}”. Written feedback is sorted into one of the outcomes by the model.`
      : 'Sending without feedback continues the flow with the output as it is.';

  return (
    <Modal
      testId="flow-feedback-dialog"
      title={`Feedback for ${request.methodName}`}
      subtitle={[request.runName ?? 'Paused flow', context].filter(Boolean).join(' · ')}
      width={660}
      footer={
        <>
          <button className="btn ghost" data-testid="flow-feedback-later" onClick={onLater}>
            Later
          </button>
          <button className="btn ghost is-danger" data-testid="flow-feedback-stop" disabled={answering} onClick={() => void stop()}>
            Stop the run
          </button>
          <span className="modal-foot-spacer" />
          <button className="btn primary" data-testid="flow-feedback-send" disabled={answering} onClick={() => void send(feedback.trim())}>
            {feedback.trim() === '' ? (fallback ? `Continue with “${fallback}”` : 'Continue') : 'Send feedback'}
          </button>
        </>
      }
    >
      <div className="dialog-label">Message</div>
      <pre className="dialog-pre dialog-pre-short" data-testid="flow-feedback-message">
        {request.prompt}
      </pre>
      <div className="dialog-label">Output under review</div>
      <pre className="dialog-pre" data-testid="flow-feedback-output">
        {request.output || '(no output)'}
      </pre>
      {outcomes.length > 0 && (
        <>
          <div className="dialog-label" id={`${fieldId}-outcomes`}>
            Choose an outcome
          </div>
          <div className="flow-outcomes" role="group" aria-labelledby={`${fieldId}-outcomes`}>
            {outcomes.map((o) => (
              <button
                key={o}
                className="btn flow-outcome"
                data-testid="flow-feedback-outcome"
                data-outcome={o}
                data-default={o === fallback || undefined}
                disabled={answering}
                title={`Continue the flow with the outcome “${o}”`}
                onClick={() => void send(o)}
              >
                {o}
                {o === fallback && <span className="flow-outcome-default">default</span>}
              </button>
            ))}
          </div>
        </>
      )}
      <label className="dialog-label" htmlFor={fieldId}>
        {outcomes.length > 0 ? 'Or write feedback' : 'Feedback'}
      </label>
      <textarea
        id={fieldId}
        className="dialog-textarea"
        data-testid="flow-feedback-text"
        rows={3}
        value={feedback}
        placeholder={outcomes.length > 0 ? 'Say what you think; the model picks the outcome from it.' : 'Your feedback (optional).'}
        onChange={(e) => setFeedback(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && !answering) void send(feedback.trim());
        }}
      />
      <div className="dialog-hint" data-testid="flow-feedback-hint">
        {emptyHint} Ctrl+Enter sends.
      </div>
      {error && (
        <div className="dialog-error" data-testid="flow-feedback-error">
          {error}
        </div>
      )}
    </Modal>
  );
}
