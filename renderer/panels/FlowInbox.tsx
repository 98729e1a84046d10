import { useFlowInboxStore } from '../stores/flowInboxStore';
import '../styles/flow-run.css';
import { formatRelativeTime } from './formatTime';

/**
 * "Waiting for you (N)": flows paused for feedback, also those paused before the app (or
 * `crewdeck serve`) restarted. Each opens the flow feedback dialog. Hidden while nothing waits.
 */
export function FlowInbox() {
  const requests = useFlowInboxStore((s) => s.requests);
  const openId = useFlowInboxStore((s) => s.openId);
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
          <li key={`${r.runId}/${r.requestId}`}>
            <button
              className="sidebar-item flow-inbox-item"
              aria-current={openId === r.requestId}
              data-testid="flow-inbox-item"
              data-run-id={r.runId}
              title={`${r.prompt}\n\nOpen to answer (run ${r.runId})`}
              onClick={() => useFlowInboxStore.getState().open(r.requestId)}
            >
              <span className="sidebar-dot" data-status="paused" />
              <span className="sidebar-item-main">
                <div className="sidebar-item-title">{r.runName ?? r.runId}</div>
                <div className="sidebar-item-sub">
                  {r.budget ? `budget reached · ${r.methodName}` : `${r.methodName} · ${r.outcomes?.length ? r.outcomes.join(' / ') : 'feedback'}`} · {formatRelativeTime(r.requestedAt)}
                </div>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
