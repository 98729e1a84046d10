import { useState } from 'react';
import { useHumanStore } from '../stores/humanStore';
import { useRunStore } from '../stores/runStore';
import { HumanFeedbackDialog } from './HumanFeedbackDialog';
import { ToolApprovalDialog } from './ToolApprovalDialog';

/**
 * Shows the oldest request waiting for a person, of any run. "Later" tucks it into a pill in the
 * corner (the run keeps waiting) so the trace can be inspected first.
 */
export function HumanDialogs() {
  const pending = useHumanStore((s) => s.pending);
  const [later, setLater] = useState<ReadonlySet<string>>(new Set());
  const request = pending.find((r) => !later.has(r.requestId));
  const runName = useRunStore((s) => (request ? s.runs.find((r) => r.id === request.runId)?.name : undefined));

  if (pending.length === 0) return null;
  if (!request) {
    return (
      <button className="human-pending-pill" data-testid="human-pending" onClick={() => setLater(new Set())}>
        <span className="human-pending-dot" />
        {pending.length} waiting for you
      </button>
    );
  }
  const position = pending.length > 1 ? `${pending.indexOf(request) + 1} of ${pending.length} waiting` : undefined;
  const context = [runName, position].filter(Boolean).join(' · ') || undefined;
  const onLater = () => setLater(new Set([...later, request.requestId]));
  return request.kind === 'tool_approval' ? (
    <ToolApprovalDialog key={request.requestId} request={request} context={context} onLater={onLater} />
  ) : (
    <HumanFeedbackDialog key={request.requestId} request={request} context={context} onLater={onLater} />
  );
}
