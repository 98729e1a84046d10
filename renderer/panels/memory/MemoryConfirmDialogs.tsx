import type { ReactNode } from 'react';
import type { HostMemoryRecord } from '../../../shared/host-api';
import { Modal } from '../../dialogs/Modal';
import { useDialogAction } from '../../dialogs/useDialogAction';
import { countInScope, useMemoryStore } from '../../stores/memoryStore';

/** Confirms forgetting one memory. */
export function MemoryDeleteDialog({ record, onClose }: { record: HostMemoryRecord; onClose(): void }) {
  return (
    <ConfirmDialog
      testId="memory-delete-dialog"
      title="Delete this memory?"
      action="Delete"
      busyAction="Deleting…"
      onConfirm={() => useMemoryStore.getState().forget([record.id])}
      onClose={onClose}
    >
      <pre className="dialog-pre dialog-pre-short">{record.content}</pre>
      <div className="dialog-hint">Runs will no longer recall it. This cannot be undone.</div>
    </ConfirmDialog>
  );
}

/** Confirms emptying a scope, naming it and how many memories go. */
export function MemoryResetDialog({ scope, onClose }: { scope: string; onClose(): void }) {
  const count = useMemoryStore((s) => countInScope(s.scopes, scope));
  const all = scope === '/';
  return (
    <ConfirmDialog
      testId="memory-reset-dialog"
      title={all ? 'Reset all memory?' : 'Reset this scope?'}
      action={`Delete ${count} memor${count === 1 ? 'y' : 'ies'}`}
      busyAction="Deleting…"
      disabled={count === 0}
      onConfirm={() => useMemoryStore.getState().resetScope(scope)}
      onClose={onClose}
    >
      <p className="memory-confirm-text" data-testid="memory-reset-summary">
        {all ? (
          <>
            This deletes <strong>all {count}</strong> memor{count === 1 ? 'y' : 'ies'} of the workspace, in every scope.
          </>
        ) : (
          <>
            This deletes the <strong>{count}</strong> memor{count === 1 ? 'y' : 'ies'} in <code className="dialog-code">{scope}</code> and the scopes below it. Other scopes
            stay.
          </>
        )}
      </p>
      <div className="dialog-hint">This cannot be undone.</div>
    </ConfirmDialog>
  );
}

function ConfirmDialog({
  testId,
  title,
  action,
  busyAction,
  disabled = false,
  onConfirm,
  onClose,
  children,
}: {
  testId: string;
  title: string;
  action: string;
  busyAction: string;
  disabled?: boolean;
  onConfirm(): Promise<unknown>;
  onClose(): void;
  children: ReactNode;
}) {
  const { busy, error, run: confirm } = useDialogAction(onConfirm, onClose);
  return (
    <Modal
      testId={testId}
      title={title}
      width={480}
      focusDialog
      onClose={busy ? undefined : onClose}
      footer={
        <>
          <span className="modal-foot-spacer" />
          <button className="btn" disabled={busy} onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary is-danger-primary" data-testid="memory-confirm" disabled={busy || disabled} onClick={() => void confirm()}>
            {busy ? busyAction : action}
          </button>
        </>
      }
    >
      {children}
      {error && (
        <div className="dialog-error" role="alert">
          {error}
        </div>
      )}
    </Modal>
  );
}
