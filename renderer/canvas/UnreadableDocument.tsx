import { useState } from 'react';
import type { Unreadable } from '../stores/documentStore';
import { useDocumentStore } from '../stores/documentStore';
import { AlertIcon } from './icons';

/**
 * A file that is not a JSON object cannot be drawn: show its text and the error so it can be repaired
 * here. Nothing is written to disk until the text parses (the file is never overwritten by accident).
 */
export function UnreadableDocument({ unreadable }: { unreadable: Unreadable }) {
  const [text, setText] = useState(unreadable.text);
  const [error, setError] = useState<string>();
  const dirty = text !== unreadable.text;
  const apply = () => {
    const result = useDocumentStore.getState().replaceText(text);
    setError(result.ok ? undefined : result.error);
  };
  return (
    <div className="canvas-unreadable" data-testid="canvas-unreadable">
      <div className="canvas-unreadable-head" role="alert">
        <AlertIcon size={15} />
        <div>
          <strong>This file cannot be opened as a crew</strong>
          <div className="canvas-unreadable-error" data-testid="canvas-unreadable-error">
            {error ?? unreadable.error}
          </div>
        </div>
      </div>
      <p className="canvas-unreadable-note">
        The file is shown as it is on disk and has not been changed. Fix the text and apply it to open the crew; it is saved only then.
      </p>
      <label className="canvas-unreadable-label" htmlFor="canvas-unreadable-text">
        File text
      </label>
      <textarea
        id="canvas-unreadable-text"
        className="canvas-unreadable-text"
        spellCheck={false}
        value={text}
        data-native-undo
        data-testid="canvas-unreadable-text"
        onChange={(e) => setText(e.target.value)}
      />
      <div className="canvas-unreadable-actions">
        <button type="button" className="btn primary" disabled={!dirty} onClick={apply} data-testid="canvas-unreadable-apply">
          Apply and open
        </button>
        {dirty && (
          <button type="button" className="btn ghost" onClick={() => setText(unreadable.text)}>
            Revert
          </button>
        )}
      </div>
    </div>
  );
}
