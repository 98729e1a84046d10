import { useDocumentStore } from '../../stores/documentStore';
import { useRunStore } from '../../stores/runStore';
import { useTrainingStore } from '../../stores/trainingStore';
import { useUiStore } from '../../stores/uiStore';
import { SessionStartDialog } from './SessionStartDialog';

/** "Train…": runs the open crew N times with a review of every task, then shows the training panel. */
export function TrainDialog() {
  const open = useTrainingStore((s) => s.dialogOpen);
  const path = useDocumentStore((s) => s.path);
  if (!open || !path) return null;
  const close = () => useTrainingStore.getState().setDialogOpen(false);
  return (
    <SessionStartDialog
      key={path}
      idPrefix="train"
      path={path}
      title={(name) => `Train ${name}`}
      intro="Every task of every iteration waits for your review. Feedback you give becomes suggestions per role, stored as a new version you can edit, activate or roll back."
      startLabel="Start training"
      defaultIterations={2}
      onClose={close}
      onStart={async (request) => {
        const { runId } = await useTrainingStore.getState().start({ path, ...request });
        const ui = useUiStore.getState();
        ui.setView('training');
        void useRunStore.getState().show(runId);
        ui.setBottomTab('trace');
      }}
    />
  );
}
