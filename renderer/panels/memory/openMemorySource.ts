import type { HostMemoryRecord } from '../../../shared/host-api';
import { host } from '../../host/hostContext';
import { taskNodeId } from '../../model/nodeIds';
import { useRunStore } from '../../stores/runStore';
import { useUiStore } from '../../stores/uiStore';

/**
 * Follows a memory to the run that wrote it: the run opens in the canvas view with its trace, its crew
 * on the canvas, and the task that wrote the memory selected (node and trace span).
 */
export async function openMemorySource(source: HostMemoryRecord['source']): Promise<void> {
  const { runId, taskId } = source;
  if (!runId) return;
  const ui = useUiStore.getState();
  const known = useRunStore.getState().runs.find((r) => r.id === runId);
  const documentPath = known ? known.documentPath : (await host().invoke('runs.get', { runId })).run.documentPath;
  ui.setView('canvas');
  ui.setBottomTab('trace');
  await useRunStore.getState().openRun(runId, documentPath);
  if (!taskId) return;
  const view = useRunStore.getState().view;
  // The task's last span: after a replay or retries, the one whose output was kept.
  const spans = view ? [...view.spans.values()].filter((s) => s.kind === 'task' && s.taskId === taskId) : [];
  const span = spans[spans.length - 1];
  useUiStore.getState().select([taskNodeId(taskId)]);
  if (span) useUiStore.getState().selectSpan(span.id);
}
