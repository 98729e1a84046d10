import type { CrewDocument } from '../../shared/model/crew';
import { emptyUsage } from '../../shared/usage';
import type { KickoffRequest } from '../crew/kickoff';
import { ReplayNotPossible, TaskNotFound } from '../errors';
import type { RunStore, StoredTaskOutput } from '../store/types';

export type CrewReplay = NonNullable<KickoffRequest['replay']>;

/**
 * How a stored crew run is replayed from a task: earlier tasks' stored outputs are reused (`edits`
 * replacing some of them), so each must have finished; the task and everything after it run again.
 */
export function crewReplayPlan(store: RunStore, runId: string, doc: CrewDocument, fromTaskId: string, given: Record<string, string> | undefined): CrewReplay {
  const taskIds = () => doc.tasks.map((t) => t.id);
  const fromIndex = doc.tasks.findIndex((t) => t.id === fromTaskId);
  if (fromIndex < 0) throw new TaskNotFound(fromTaskId, taskIds());
  const outputs = new Map(store.taskOutputs(runId).map((o) => [o.taskId, o]));
  const edits = given && Object.keys(given).length > 0 ? given : undefined;
  for (const [taskId, text] of Object.entries(edits ?? {})) {
    const index = doc.tasks.findIndex((t) => t.id === taskId);
    const task = doc.tasks[index];
    if (!task) throw new TaskNotFound(taskId, taskIds());
    if (index >= fromIndex) throw new ReplayNotPossible(`task "${taskId}" runs again in this replay (it is not before "${fromTaskId}"), so its output cannot be set; set only earlier tasks' outputs`);
    outputs.set(taskId, editedOutput(outputs.get(taskId), runId, taskId, index, doc.agents.find((a) => a.id === task.agentId)?.role ?? '', text));
  }
  const unfinished = doc.tasks.slice(0, fromIndex).find((t) => !outputs.has(t.id));
  if (unfinished) {
    throw new ReplayNotPossible(
      `task "${unfinished.id}" did not finish in run ${runId}, so there is no output of it to reuse; replay from "${unfinished.id}" or an earlier task`,
    );
  }
  return { runId, fromTaskId, fromIndex, outputs, edits };
}

/** A stored task output replaced by an edited text (its JSON too, when the text is JSON). */
function editedOutput(stored: StoredTaskOutput | undefined, runId: string, taskId: string, index: number, agentRole: string, raw: string): StoredTaskOutput {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  return { runId, taskId, index, agentRole: stored?.agentRole ?? agentRole, raw, ...(json !== undefined && typeof json === 'object' ? { json } : {}), skipped: false, tokenUsage: emptyUsage() };
}
