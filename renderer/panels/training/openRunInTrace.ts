import { useRunStore } from '../../stores/runStore';
import { useUiStore } from '../../stores/uiStore';

/**
 * Shows a run in the trace tab of the run panel. The Training and Tests views have no run panel (it
 * would cover them), so this goes back to the canvas, where the trace sits under the crew.
 */
export function openRunInTrace(runId: string): void {
  const ui = useUiStore.getState();
  ui.setView('canvas');
  ui.setBottomTab('trace');
  void useRunStore.getState().show(runId);
}
