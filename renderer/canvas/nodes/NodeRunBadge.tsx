import type { NodeCounters, NodeRunStatus } from '../../stores/runStore';
import { RetryIcon, ToolIcon } from '../icons';

const LABEL: Record<NodeRunStatus, string> = {
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  waiting: 'Waiting for you',
  skipped: 'Skipped',
  paused: 'Paused at budget',
};

/** Run status pill and tool-call / retry counters, shown while a run is overlaid on the canvas. */
export function NodeRunBadge({ status, counters }: { status?: NodeRunStatus; counters?: NodeCounters }) {
  if (!status && !counters) return null;
  const counted = counters !== undefined && (counters.toolCalls > 0 || counters.retries > 0);
  return (
    <span className={`crew-node-run${counted ? '' : ' is-status-only'}`}>
      {counters && counters.toolCalls > 0 && (
        <span className="crew-node-counter" title={`${counters.toolCalls} tool call${counters.toolCalls === 1 ? '' : 's'}`} data-testid="node-tool-calls">
          <ToolIcon size={11} />
          {counters.toolCalls}
        </span>
      )}
      {counters && counters.retries > 0 && (
        <span className="crew-node-counter is-retry" title={`${counters.retries} guardrail retr${counters.retries === 1 ? 'y' : 'ies'}`} data-testid="node-retries">
          <RetryIcon size={11} />
          {counters.retries}
        </span>
      )}
      {status && (
        <span className="crew-node-status" data-status={status} data-testid="node-status">
          <span className="crew-node-status-dot" aria-hidden />
          {LABEL[status]}
        </span>
      )}
    </span>
  );
}
