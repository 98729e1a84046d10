import { useId, useState } from 'react';
import { Modal } from '../../dialogs/Modal';
import { useDialogAction } from '../../dialogs/useDialogAction';
import { useMemoryStore } from '../../stores/memoryStore';
import { MemoryFields, parseCategories, type MemoryFieldValues } from './MemoryFields';

const DEFAULT_SCOPE = '/workspace';

/** Adds a memory by hand (its source is `manual`) in a scope. */
export function MemoryAddDialog({ defaultScope, scopes, onClose }: { defaultScope?: string; scopes: string[]; onClose(): void }) {
  const id = useId();
  const [scope, setScope] = useState(defaultScope && defaultScope !== '/' ? defaultScope : (scopes[0] ?? DEFAULT_SCOPE));
  const [values, setValues] = useState<MemoryFieldValues>({ content: '', categories: '', importance: 0.5, private: false });
  const scopeProblem = scope.startsWith('/') ? undefined : 'A scope starts with "/", e.g. /crew/research-brief';
  const { busy, error, run: save } = useDialogAction(async () => {
    await useMemoryStore.getState().add({
      content: values.content,
      scope: scope.trim(),
      categories: parseCategories(values.categories),
      importance: values.importance,
      private: values.private,
    });
  }, onClose);
  return (
    <Modal
      testId="memory-add-dialog"
      title="Add a memory"
      subtitle="Crews recall it like one they wrote themselves."
      width={620}
      onClose={busy ? undefined : onClose}
      footer={
        <>
          <span className="modal-foot-spacer" />
          <button className="btn" disabled={busy} onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary" data-testid="memory-add-save" disabled={busy || values.content.trim() === '' || scopeProblem !== undefined} onClick={() => void save()}>
            {busy ? 'Adding…' : 'Add'}
          </button>
        </>
      }
    >
      <MemoryFields values={values} onChange={setValues} />
      <label className="dialog-label" htmlFor={`${id}-scope`}>
        Scope
      </label>
      <input id={`${id}-scope`} className="dialog-input" data-testid="memory-field-scope" list={`${id}-scopes`} value={scope} aria-invalid={scopeProblem !== undefined} onChange={(e) => setScope(e.target.value)} />
      <datalist id={`${id}-scopes`}>
        {scopes.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <div className="dialog-hint">{scopeProblem ?? 'A crew recalls the memories of its scope (/crew/<crew id>) and the scopes below it.'}</div>
      {error && (
        <div className="dialog-error" role="alert" data-testid="memory-add-error">
          Could not add: {error}
        </div>
      )}
    </Modal>
  );
}
