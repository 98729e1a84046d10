import { useDocumentStore } from '../../stores/documentStore';
import { useTestStore } from '../../stores/testStore';
import { useUiStore } from '../../stores/uiStore';
import { SessionStartDialog } from '../training/SessionStartDialog';

/** "Test…": runs the open crew N times unattended and scores every task, then shows the test panel. */
export function TestDialog() {
  const open = useTestStore((s) => s.dialogOpen);
  const path = useDocumentStore((s) => s.path);
  if (!open || !path) return null;
  const close = () => useTestStore.getState().setDialogOpen(false);
  return (
    <SessionStartDialog
      key={path}
      idPrefix="test"
      path={path}
      title={(name) => `Test ${name}`}
      intro="The crew runs unattended; the evaluator scores each task 1–10 against its expected output, and the task's checks (guardrails) give a score of their own."
      startLabel="Start test"
      defaultIterations={3}
      onClose={close}
      onStart={async (request) => {
        await useTestStore.getState().start({ path, ...request });
        useUiStore.getState().setView('tests');
      }}
    />
  );
}
