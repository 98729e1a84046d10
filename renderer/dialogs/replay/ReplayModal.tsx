import type { ReactNode } from 'react';
import { Modal } from '../Modal';

interface ReplayModalProps {
  title: string;
  /** The run's name, shown before its id. */
  name: ReactNode;
  runId: string;
  width: number;
  hint: ReactNode;
  /** The steps are still being read. */
  loading: boolean;
  error: string | undefined;
  onClose(): void;
  /** The steps (ReplayStep). */
  children: ReactNode;
}

/** The frame of both replay dialogs: the run, what a replay keeps, the list of steps to replay from, and the error. */
export function ReplayModal({ title, name, runId, width, hint, loading, error, onClose, children }: ReplayModalProps) {
  return (
    <Modal
      testId="replay-dialog"
      title={title}
      subtitle={
        <>
          {name} · <code className="dialog-code">{runId}</code>
        </>
      }
      onClose={onClose}
      width={width}
    >
      <div className="dialog-hint">{hint}</div>
      {loading && !error && <div className="dialog-hint">Loading the run…</div>}
      <ol className="replay-list">{children}</ol>
      {error && <div className="dialog-error">{error}</div>}
    </Modal>
  );
}
