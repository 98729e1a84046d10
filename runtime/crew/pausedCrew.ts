import { RunEventLog, Span } from '../events/span';
import type { RunStore } from '../store/types';
import { RunNotReopenable } from '../errors';
import type { CrewCheckpoint } from './kickoff';

/**
 * Stops a crew paused at its budget for good: the run ends `cancelled` under its own root span.
 * Claims the run first, so it cannot race a resume.
 */
export function cancelPausedCrew(store: RunStore, runId: string, reason: string, now: () => number): void {
  const saved = store.loadCheckpoint(runId) as CrewCheckpoint | undefined;
  if (saved?.kind !== 'crew') throw new RunNotReopenable(`run ${runId} has no saved position; only paused runs can be stopped this way`);
  store.reopenRun(runId);
  const log = new RunEventLog(runId, now, { seq: store.lastSeq(runId), spanPrefix: `r${saved.sessions + 1}s` });
  log.listen((e) => store.appendEvent(e));
  new Span(log, saved.rootSpanId, undefined).emit({ type: 'run.cancelled', reason, durationMs: now() - saved.startedAt });
  store.finishRun(runId, { status: 'cancelled', error: reason, tokenUsage: saved.tokenUsage, endedAt: now() });
}
