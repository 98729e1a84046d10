import { useState } from 'react';
import { useDocumentStore } from '../stores/documentStore';
import '../styles/banners.css';

/**
 * The open document could not be saved: why, that it is retried by itself, and the two ways out —
 * retry now, or discard the changes. A document the person tried to open meanwhile waits here.
 */
export function SaveErrorBanner() {
  const failing = useDocumentStore((s) => s.saveState === 'error');
  const path = useDocumentStore((s) => s.path);
  const error = useDocumentStore((s) => s.saveError);
  const blockedOpen = useDocumentStore((s) => s.blockedOpen);
  const [busy, setBusy] = useState(false);
  if (!failing || !path) return null;

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="save-error-banner" role="alert" data-testid="save-error-banner">
      <div className="save-error-text">
        <strong>Could not save {path}</strong>: {error}
        <div className="save-error-note">
          {blockedOpen
            ? `${blockedOpen} was not opened, so these changes are not lost. Saving is retried by itself.`
            : 'Your changes are kept here; saving is retried by itself.'}
        </div>
      </div>
      <div className="save-error-actions">
        <button className="btn small" data-testid="save-retry" disabled={busy} onClick={() => void act(() => useDocumentStore.getState().retrySave())}>
          Retry now
        </button>
        <button className="btn small danger" data-testid="save-discard" disabled={busy} onClick={() => void act(() => useDocumentStore.getState().discardChanges())}>
          {blockedOpen ? `Discard changes and open ${blockedOpen}` : 'Discard changes'}
        </button>
      </div>
    </div>
  );
}
