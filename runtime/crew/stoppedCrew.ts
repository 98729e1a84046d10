import { cancelStoppedRun } from '../run/runLifecycle';
import { closeOpenSpans } from '../run/openSpans';
import type { RunRecord, RunStore } from '../store/types';
import { RunNotReopenable } from '../errors';
import { positionFromEvents, type CrewCheckpoint } from './crewCheckpoint';
import { interruptedCrew } from './interruptedCrew';

/**
 * Stops a crew run that has no process behind it for good: one paused at its budget, or one whose
 * process died (interrupted). The run ends `cancelled` under its own root span; an interrupted run's
 * task (and what ran inside it) is closed as interrupted first, so its trace is whole. Claims the run
 * first, so it cannot race a resume.
 */
export function cancelStoppedCrew(store: RunStore, run: RunRecord, reason: string, now: () => number): void {
  const saved = (store.loadCheckpoint(run.id) as CrewCheckpoint | undefined) ?? (run.status === 'interrupted' ? positionFromEvents(store, run) : undefined);
  if (saved?.kind !== 'crew' || (run.status !== 'paused' && run.status !== 'interrupted')) {
    throw new RunNotReopenable(
      `run ${run.id} is a crew run that is ${run.status === 'running' ? 'running (its process is still alive: stop it there)' : run.status}; only paused or interrupted crews can be cancelled this way`,
    );
  }
  if (run.status === 'paused') return cancelStoppedRun(store, run.id, saved, reason, now);
  const dead = interruptedCrew(store.events(run.id), run.endedAt ?? now());
  cancelStoppedRun(store, run.id, { ...saved, tokenUsage: dead.usage }, reason, now, {
    closeOpen: (log) => closeOpenSpans(log, dead.open, dead.endedAt, 'interrupted: the process running the crew stopped; the run was then cancelled'),
  });
}
