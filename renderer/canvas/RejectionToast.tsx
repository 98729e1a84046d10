import { useEffect } from 'react';
import { useDocumentStore } from '../stores/documentStore';

const SHOWN_MS = 5000;

/** Why the last edit was refused (a connection to a later task, a taken id…), for a few seconds. */
export function RejectionToast() {
  const rejection = useDocumentStore((s) => s.rejection);
  useEffect(() => {
    if (!rejection) return;
    const timer = setTimeout(() => useDocumentStore.getState().dismissRejection(), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [rejection]);
  if (!rejection) return null;
  return (
    <div className="canvas-toast" role="status" data-testid="canvas-rejection">
      <span>{rejection.message}</span>
      <button type="button" className="canvas-toast-close" aria-label="Dismiss" onClick={() => useDocumentStore.getState().dismissRejection()}>
        ×
      </button>
    </div>
  );
}
