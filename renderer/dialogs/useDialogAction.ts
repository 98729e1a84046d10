import { useState } from 'react';

/**
 * A dialog's action: `busy` while it runs, the dialog closed when it succeeds, its error kept for the
 * dialog to show (and the dialog left open) when it fails.
 */
export function useDialogAction(action: () => Promise<unknown>, onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      onClose();
    } catch (err) {
      setBusy(false);
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return { busy, error, run };
}
