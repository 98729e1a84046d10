import { useShallow } from 'zustand/react/shallow';
import { selectPausedRuns, useHumanRequestStore } from '../stores/humanRequestStore';
import { requestKey, type PausedRunRequest } from '../stores/humanRequests';
import '../styles/flow-run.css';
import { formatRelativeTime } from './formatTime';

/**
 * "Waiting for you (N)": runs paused for feedback or at their budget, also those paused before the app
 * (or `crewdeck serve`) restarted. Each opens its dialog. Hidden while nothing waits.
 */
export function FlowInbox() {
  const requests = useHumanRequestStore(useShallow(selectPausedRuns));
  const opened = useHumanRequestStore((s) => s.opened);
  if (requests.length === 0) return null;
  return (
    <section className="sidebar-section flow-inbox" data-testid="flow-inbox" aria-label={`Waiting for you: ${requests.length}`}>
      <div className="sidebar-header">
        <span>Waiting for you</span>
        <span className="flow-inbox-count" data-testid="flow-inbox-count">
          {requests.length}
        </span>
      </div>
      <ul className="sidebar-list">
        {requests.map((r) => (
          <li key={requestKey(r)}>
            <button
              className="sidebar-item flow-inbox-item"
              aria-current={opened === requestKey(r)}
              data-testid="flow-inbox-item"
              data-run-id={r.runId}
              title={`${r.prompt}\n\nOpen to answer (run ${r.runId})`}
              onClick={() => useHumanRequestStore.getState().open(r)}
            >
              <span className="sidebar-dot" data-status="paused" />
              <span className="sidebar-item-main">
                <div className="sidebar-item-title">{r.runName ?? r.runId}</div>
                <div className="sidebar-item-sub">
                  {inboxLine(r)} · {formatRelativeTime(r.requestedAt)}
                </div>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What a waiting run waits for, in a few words. */
function inboxLine(r: PausedRunRequest): string {
  switch (r.kind) {
    case 'budget':
      return `budget reached · ${r.methodName}`;
    case 'flow_feedback':
      return `${r.methodName} · ${r.outcomes?.length ? r.outcomes.join(' / ') : 'feedback'}`;
    case 'task_review':
      return `review · ${r.methodName}`;
    case 'tool_approval':
      return `approve · ${r.methodName}`;
  }
}
