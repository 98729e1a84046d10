import { useEffect, useRef } from 'react';
import { useDocumentStore } from './stores/documentStore';
import { useRunStore } from './stores/runStore';

/**
 * Runs belong to documents: opening a crew or flow shows its latest run (trace and canvas badges)
 * without a click, and a document without runs shows none — never another document's run. A run the
 * person opened for this document (sidebar, Runs tab) is kept.
 */
export function useLatestRunOnOpen(): void {
  const documentPath = useDocumentStore((s) => s.path);
  const runsLoaded = useRunStore((s) => s.runsLoaded);
  const handled = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!documentPath) {
      handled.current = undefined;
      return;
    }
    if (!runsLoaded || handled.current === documentPath) return;
    handled.current = documentPath;
    const { runs, runId } = useRunStore.getState();
    const shown = runId ? runs.find((r) => r.id === runId) : undefined;
    // A run just started is not listed yet: keep it.
    if (runId && (!shown || shown.documentPath === documentPath)) return;
    const latest = runs.find((r) => r.documentPath === documentPath);
    void useRunStore.getState().show(latest?.id);
  }, [documentPath, runsLoaded]);
}
