import type { TrainingSession } from '../../../shared/training';
import { useTrainingStore } from '../../stores/trainingStore';
import { formatRelativeTime } from '../formatTime';
import { openRunInTrace } from './openRunInTrace';

const STATUS_TEXT: Record<TrainingSession['status'], string> = {
  running: 'running',
  evaluating: 'evaluating feedback',
  completed: 'completed',
  failed: 'failed',
};

/** The crew's training sessions, newest first: status, iterations done, its runs (open in the trace). */
export function TrainingSessions() {
  const sessions = useTrainingStore((s) => s.sessions);
  if (sessions.length === 0) return null;
  const shown = sessions.slice(0, 5);
  return (
    <section className="training-sessions" aria-label="Training sessions" data-testid="training-sessions">
      {shown.map((s) => (
        <div key={s.id} className="training-session" data-testid="training-session" data-status={s.status} data-training-id={s.id}>
          <span className="training-status" data-status={s.status}>
            <span className="training-dot" aria-hidden />
            {STATUS_TEXT[s.status]}
          </span>
          <span className="training-session-progress">
            {s.status === 'running' ? `iteration ${s.runIds.length} of ${s.iterations}` : `${s.iterations} iteration${s.iterations === 1 ? '' : 's'}`}
            {s.evalModel ? ` · evaluator “${s.evalModel}”` : ''}
          </span>
          <span className="training-session-runs">
            {s.runIds.map((runId, i) => (
              <button key={runId} className="training-link" data-testid="training-session-run" title={`Open run ${runId} in the trace`} onClick={() => openRunInTrace(runId)}>
                run {i + 1}
              </button>
            ))}
          </span>
          <span className="training-muted" title={new Date(s.startedAt).toLocaleString()}>
            {formatRelativeTime(s.startedAt)}
          </span>
          {s.error && (
            <span className="training-session-error" title={s.error}>
              {s.error}
            </span>
          )}
          {(s.status === 'running' || s.status === 'evaluating') && (
            <button className="btn small danger" data-testid="training-cancel" onClick={() => void useTrainingStore.getState().cancel(s.id)}>
              Stop
            </button>
          )}
        </div>
      ))}
    </section>
  );
}
