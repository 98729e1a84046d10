import { useState } from 'react';
import type { PendingHumanRequest } from '../../shared/host-api';
import { useFlowInboxStore, type FlowFeedbackRequest } from '../stores/flowInboxStore';
import { useHumanStore } from '../stores/humanStore';
import { useRunStore } from '../stores/runStore';
import { trainingRunText, useTrainingStore } from '../stores/trainingStore';
import { FlowFeedbackDialog } from './FlowFeedbackDialog';
import { BudgetDialog } from './BudgetDialog';
import { HumanFeedbackDialog } from './HumanFeedbackDialog';
import { ToolApprovalDialog } from './ToolApprovalDialog';

type Waiting = { flow: false; request: PendingHumanRequest } | { flow: true; request: FlowFeedbackRequest };

/**
 * Shows the oldest request waiting for a person, of any run: task reviews and tool approvals, and the
 * feedback of flows that paused while the app was open (paused flows found after a restart wait in
 * the inbox until opened from there). "Later" tucks it into a pill in the corner (the run keeps
 * waiting) so the trace can be inspected first.
 */
export function HumanDialogs() {
  const pending = useHumanStore((s) => s.pending);
  const flowRequests = useFlowInboxStore((s) => s.requests);
  const openId = useFlowInboxStore((s) => s.openId);
  const [later, setLater] = useState<ReadonlySet<string>>(new Set());
  const waiting: Waiting[] = [
    ...pending.map((request) => ({ flow: false as const, request })),
    ...flowRequests.filter((r) => r.live).map((request) => ({ flow: true as const, request })),
  ].sort((a, b) => a.request.requestedAt - b.request.requestedAt);
  const opened = flowRequests.find((r) => r.requestId === openId);
  const shown: Waiting | undefined = opened ? { flow: true, request: opened } : waiting.find((w) => !later.has(w.request.requestId));
  const runName = useRunStore((s) => (shown ? s.runs.find((r) => r.id === shown.request.runId)?.name : undefined));
  const training = trainingRunText(useTrainingStore((s) => (shown ? s.runLabels[shown.request.runId] : undefined)));

  if (!shown) {
    if (waiting.length === 0) return null;
    return (
      <button className="human-pending-pill" data-testid="human-pending" onClick={() => setLater(new Set())}>
        <span className="human-pending-dot" />
        {waiting.length} waiting for you
      </button>
    );
  }
  const index = waiting.findIndex((w) => w.request.requestId === shown.request.requestId);
  const position = waiting.length > 1 && index >= 0 ? `${index + 1} of ${waiting.length} waiting` : undefined;
  const context = [shown.flow ? undefined : runName, training, position].filter(Boolean).join(' · ') || undefined;
  const onLater = () => {
    setLater(new Set([...later, shown.request.requestId]));
    if (opened) useFlowInboxStore.getState().open(undefined);
  };
  if (shown.flow && shown.request.budget) {
    const request = { ...shown.request, budget: shown.request.budget, runName: shown.request.runName ?? runName };
    return <BudgetDialog key={shown.request.requestId} request={request} context={context} onLater={onLater} />;
  }
  if (shown.flow) return <FlowFeedbackDialog key={shown.request.requestId} request={{ ...shown.request, runName: shown.request.runName ?? runName }} context={context} onLater={onLater} />;
  return shown.request.kind === 'tool_approval' ? (
    <ToolApprovalDialog key={shown.request.requestId} request={shown.request} context={context} onLater={onLater} />
  ) : (
    <HumanFeedbackDialog key={shown.request.requestId} request={shown.request} context={context} onLater={onLater} />
  );
}
