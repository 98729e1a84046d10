import type { CrewRunResult } from '../crew/kickoff';
import { cancelStoppedCrew } from '../crew/stoppedCrew';
import { FlowNotResumable } from '../flow/flowErrors';
import { cancelStoppedFlow } from '../flow/flowRun';
import type { FlowRunResult } from '../flow/flowRunTypes';
import type { RunPreparation } from '../prepare/runPreparation';
import { storedRun } from '../prepare/storedRun';
import type { ResumeOptions } from '../runtimeApi';
import { resumeCrew } from './crewRuns';
import { resumeStoppedFlow } from './flowRuns';

/**
 * Continues a paused (or interrupted) flow, answering its pending feedback, or a crew or flow paused at
 * its budget under the higher `budget`. Completed methods and tasks are not run again.
 */
export async function resume(prep: RunPreparation, runId: string, run: ResumeOptions): Promise<FlowRunResult | CrewRunResult> {
  const stored = storedRun(prep.setup.store, runId);
  if (stored.previous.kind === 'crew') return resumeCrew(prep, runId, run);
  return resumeStoppedFlow(prep, runId, stored, run);
}

/** Ends a paused or interrupted run (a flow without answering it, a crew at its budget or whose process died): it becomes `cancelled`. */
export function cancelStopped(prep: RunPreparation, runId: string, reason: string): void {
  const { store, previous } = storedRun(prep.setup.store, runId);
  const { now } = prep.setup;
  if (previous.kind === 'crew') return cancelStoppedCrew(store, previous, reason, now);
  if (previous.status !== 'paused' && previous.status !== 'interrupted') {
    throw new FlowNotResumable(`run ${runId} is ${previous.status === 'running' ? 'running' : `a ${previous.kind} run that is ${previous.status}`}; only paused or interrupted flows can be stopped this way`);
  }
  cancelStoppedFlow(store, runId, reason, now, previous.status === 'interrupted' ? { stoppedAt: previous.endedAt ?? now() } : undefined);
}
