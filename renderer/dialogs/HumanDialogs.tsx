import { useShallow } from 'zustand/react/shallow';
import { selectOpened, selectPoppingUp, useHumanRequestStore } from '../stores/humanRequestStore';
import { requestKey, type HumanRequest } from '../stores/humanRequests';
import { useRunStore } from '../stores/runStore';
import { trainingRunText, useTrainingStore } from '../stores/trainingStore';
import { FlowFeedbackDialog } from './FlowFeedbackDialog';
import { BudgetDialog } from './BudgetDialog';
import { HumanFeedbackDialog } from './HumanFeedbackDialog';
import { ToolApprovalDialog } from './ToolApprovalDialog';

/**
 * Shows the oldest request waiting for a person, of any run: task reviews and tool approvals, and the
 * feedback (or budget) of runs that paused while the app was open (runs paused before a restart wait
 * in the inbox until opened from there). "Later" tucks it behind the toolbar's pill
 * (`PendingRequestsPill`; the run keeps waiting) so the trace can be inspected first.
 */
export function HumanDialogs() {
  const waiting = useHumanRequestStore(useShallow(selectPoppingUp));
  const opened = useHumanRequestStore(selectOpened);
  const later = useHumanRequestStore((s) => s.later);
  const shown: HumanRequest | undefined = opened ?? waiting.find((r) => !later.has(requestKey(r)));
  const runName = useRunStore((s) => (shown ? s.runs.find((r) => r.id === shown.runId)?.name : undefined));
  const training = trainingRunText(useTrainingStore((s) => (shown ? s.runLabels[shown.runId] : undefined)));

  if (!shown) return null;
  const key = requestKey(shown);
  const index = waiting.findIndex((r) => requestKey(r) === key);
  const position = waiting.length > 1 && index >= 0 ? `${index + 1} of ${waiting.length} waiting` : undefined;
  const paused = shown.kind === 'flow_feedback' || shown.kind === 'budget';
  const context = [paused ? undefined : runName, training, position].filter(Boolean).join(' · ') || undefined;
  const onLater = () => useHumanRequestStore.getState().putOff(key);
  switch (shown.kind) {
    case 'budget':
      return <BudgetDialog key={key} request={{ ...shown, runName: shown.runName ?? runName }} context={context} onLater={onLater} />;
    case 'flow_feedback':
      return <FlowFeedbackDialog key={key} request={{ ...shown, runName: shown.runName ?? runName }} context={context} onLater={onLater} />;
    case 'tool_approval':
      return <ToolApprovalDialog key={key} request={shown} context={context} onLater={onLater} />;
    case 'task_review':
      return <HumanFeedbackDialog key={key} request={shown} context={context} onLater={onLater} />;
  }
}
