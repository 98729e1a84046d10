import { useShallow } from 'zustand/react/shallow';
import { selectOpened, selectPoppingUp, useHumanRequestStore } from '../stores/humanRequestStore';
import { requestKey } from '../stores/humanRequests';

/**
 * "N waiting for you" in the toolbar while every waiting question was put off with "Later": one
 * click brings the dialogs back. It sits in the toolbar so it never covers the trace or the inspector.
 */
export function PendingRequestsPill() {
  const waiting = useHumanRequestStore(useShallow(selectPoppingUp));
  const later = useHumanRequestStore((s) => s.later);
  const opened = useHumanRequestStore(selectOpened);
  const allPutOff = waiting.length > 0 && waiting.every((r) => later.has(requestKey(r)));
  if (!allPutOff || opened) return null;
  return (
    <button
      className="human-pending-pill"
      data-testid="human-pending"
      title="Show the questions you put off"
      onClick={() => useHumanRequestStore.getState().bringBack()}
    >
      <span className="human-pending-dot" />
      {waiting.length} waiting for you
    </button>
  );
}
