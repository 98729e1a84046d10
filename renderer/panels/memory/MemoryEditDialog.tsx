import { useState } from 'react';
import type { HostMemoryRecord } from '../../../shared/host-api';
import { Modal } from '../../dialogs/Modal';
import { useDialogAction } from '../../dialogs/useDialogAction';
import { useMemoryStore } from '../../stores/memoryStore';
import { MemoryFields, parseCategories, type MemoryFieldValues } from './MemoryFields';

/** Edits a memory's content, categories, importance and privacy; lists its earlier contents. */
export function MemoryEditDialog({ record, onClose }: { record: HostMemoryRecord; onClose(): void }) {
  const [values, setValues] = useState<MemoryFieldValues>({
    content: record.content,
    categories: record.categories.join(', '),
    importance: record.importance,
    private: record.private,
  });
  const categories = parseCategories(values.categories);
  const changes = {
    ...(values.content !== record.content ? { content: values.content } : {}),
    ...(categories.join('\n') !== record.categories.join('\n') ? { categories } : {}),
    ...(values.importance !== record.importance ? { importance: values.importance } : {}),
    ...(values.private !== record.private ? { private: values.private } : {}),
  };
  const changed = Object.keys(changes).length > 0;
  const { busy, error, run: save } = useDialogAction(() => useMemoryStore.getState().update({ id: record.id, ...changes }), onClose);
  return (
    <Modal
      testId="memory-edit-dialog"
      title="Edit memory"
      subtitle={
        <>
          <code className="dialog-code">{record.id}</code> in <code className="dialog-code">{record.scope}</code>
        </>
      }
      width={620}
      onClose={busy ? undefined : onClose}
      footer={
        <>
          <span className="dialog-hint">A new content keeps the old one in the history.</span>
          <span className="modal-foot-spacer" />
          <button className="btn" disabled={busy} onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary" data-testid="memory-edit-save" disabled={busy || !changed || values.content.trim() === ''} onClick={() => void save()}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </>
      }
    >
      <MemoryFields values={values} onChange={setValues} />
      <div className="memory-history" data-testid="memory-history">
        <div className="dialog-label">History</div>
        {record.history.length === 0 ? (
          <div className="dialog-hint">No earlier contents.</div>
        ) : (
          <ol className="memory-history-list">
            {[...record.history].reverse().map((h, i) => (
              <li key={i} className="memory-history-item" data-testid="memory-history-item">
                <div className="memory-history-meta">
                  until {new Date(h.updatedAt).toLocaleString()} · {h.reason}
                </div>
                <div className="memory-history-content">{h.content}</div>
              </li>
            ))}
          </ol>
        )}
      </div>
      {error && (
        <div className="dialog-error" role="alert" data-testid="memory-edit-error">
          Could not save: {error}
        </div>
      )}
    </Modal>
  );
}
