import { useRunStore } from '../../stores/runStore';
import { useUiStore } from '../../stores/uiStore';

/** Shows a run in the trace tab of the run panel (the panel stays on the current view). */
export function openRunInTrace(runId: string): void {
  useUiStore.getState().setBottomTab('trace');
  void useRunStore.getState().show(runId);
}
