import { useEffect, useState } from 'react';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * What both replay dialogs keep: the steps loaded for the run (`load`, kept stable by the caller with
 * useCallback), the step whose output or state is being edited, the step a replay is starting from,
 * and the error of the load or of the replay.
 */
export function useReplaySteps<T>(load: () => Promise<T>, onClose: () => void) {
  const [loaded, setLoaded] = useState<T>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const [editing, setEditing] = useState<string>();

  useEffect(() => {
    let live = true;
    load()
      .then((value) => live && setLoaded(value))
      .catch((e: unknown) => live && setError(message(e)));
    return () => {
      live = false;
    };
  }, [load]);

  const toggleEditing = (id: string) => setEditing(editing === id ? undefined : id);

  /** Runs `replay` for the step `id` (shown as starting), then closes; a failure is shown and the step freed. */
  const start = async (id: string, replay: () => Promise<void>) => {
    setBusy(id);
    setError(undefined);
    try {
      await replay();
      onClose();
    } catch (e) {
      setBusy(undefined);
      setError(message(e));
    }
  };

  return { loaded, error, busy, editing, toggleEditing, start };
}
