import { cancelStoppedRun } from '../run/runLifecycle';
import type { RunStore } from '../store/types';
import { RunNotReopenable } from '../errors';
import type { CrewCheckpoint } from './crewCheckpoint';

/**
 * Stops a crew paused at its budget for good: the run ends `cancelled` under its own root span.
 * Claims the run first, so it cannot race a resume.
 */
export function cancelPausedCrew(store: RunStore, runId: string, reason: string, now: () => number): void {
  const saved = store.loadCheckpoint(runId) as CrewCheckpoint | undefined;
  if (saved?.kind !== 'crew') throw new RunNotReopenable(`run ${runId} has no saved position; only paused runs can be stopped this way`);
  cancelStoppedRun(store, runId, saved, reason, now);
}
