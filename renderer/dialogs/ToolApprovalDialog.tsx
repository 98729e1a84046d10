import type { ToolApprovalDecision } from '../../shared/events';
import { prettyJson } from '../panels/trace/prettyJson';
import { useHumanRequestStore } from '../stores/humanRequestStore';
import { requestKey, type RunQuestion } from '../stores/humanRequests';
import { Modal } from './Modal';

interface ToolApprovalDialogProps {
  request: RunQuestion;
  context?: string;
  onLater?(): void;
}

/** An agent wants to use a tool that needs approval: show the call, then approve, deny, or always allow for this run. */
export function ToolApprovalDialog({ request, context, onLater }: ToolApprovalDialogProps) {
  const answering = useHumanRequestStore((s) => s.answering === requestKey(request));
  const error = useHumanRequestStore((s) => s.error);
  const decide = (decision: ToolApprovalDecision) => void useHumanRequestStore.getState().answer(request, { decision });

  return (
    <Modal
      focusDialog
      testId="approval-dialog"
      title={
        <>
          Allow <code className="dialog-code">{request.tool ?? 'tool'}</code>?
        </>
      }
      subtitle={[`${request.agentRole} wants to use this tool`, request.taskId ? `task ${request.taskId}` : undefined, context].filter(Boolean).join(' · ')}
      footer={
        <>
          {onLater && (
            <button className="btn ghost" onClick={onLater}>
              Later
            </button>
          )}
          <span className="modal-foot-spacer" />
          <button className="btn danger" data-testid="approval-deny" disabled={answering} onClick={() => decide('deny')}>
            Deny
          </button>
          <button className="btn" data-testid="approval-always" disabled={answering} onClick={() => decide('always')}>
            Always allow for this run
          </button>
          <button className="btn primary" data-testid="approval-approve" disabled={answering} onClick={() => decide('approve')}>
            Approve
          </button>
        </>
      }
    >
      <div className="dialog-label">Arguments</div>
      <pre className="dialog-pre" data-testid="approval-args">
        {prettyJson(request.args ?? {})}
      </pre>
      <div className="dialog-hint">Denying tells the agent it may not use the tool; it continues without it.</div>
      {error && <div className="dialog-error">{error}</div>}
    </Modal>
  );
}
