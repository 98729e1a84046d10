import type { SuggestionVersion } from '../../../shared/training';
import { useTrainingStore } from '../../stores/trainingStore';
import { openRunInTrace } from './openRunInTrace';

/**
 * The feedback behind a version: per reviewed answer, the agent's first answer, the reviewer's
 * feedback and the revised answer, with the training run (opens in the trace) and the task.
 */
export function FeedbackRecords({ version }: { version: SuggestionVersion }) {
  const records = useTrainingStore((s) => s.records);
  const recordsFor = useTrainingStore((s) => s.recordsFor);
  const mine = recordsFor?.role === version.role && recordsFor.version === version.version;
  return (
    <section className="training-records" aria-label="Feedback behind this version" data-testid="training-records">
      <div className="training-section-label">Feedback behind this version ({version.recordIds.length})</div>
      {version.recordIds.length === 0 && <div className="training-muted">No feedback records (the version was made or emptied by hand, or its training was deleted).</div>}
      {mine &&
        records.map((r) => (
          // The run link sits beside the summary, not inside it: a summary is itself the control that opens the record.
          <div key={r.id} className="training-record" data-testid="feedback-record" data-run-id={r.runId}>
            <details>
              <summary>
                <span>
                  Iteration {r.iteration} · task <code>{r.taskId}</code>
                </span>
                <span className="training-record-feedback">“{r.feedback}”</span>
              </summary>
              <div className="training-record-body">
                <RecordText label="First answer" text={r.initialOutput} />
                <RecordText label="Feedback" text={r.feedback} tone="feedback" />
                <RecordText label="Revised answer" text={r.improvedOutput} />
              </div>
            </details>
            <button className="training-link training-record-run" data-testid="feedback-record-run" title="Open this run in the trace" onClick={() => openRunInTrace(r.runId)}>
              {r.runId}
            </button>
          </div>
        ))}
    </section>
  );
}

function RecordText({ label, text, tone }: { label: string; text: string; tone?: 'feedback' }) {
  return (
    <div className="training-record-part" data-tone={tone}>
      <div className="training-record-label">{label}</div>
      <pre className="training-record-text">{text}</pre>
    </div>
  );
}
