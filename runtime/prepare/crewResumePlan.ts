import type { Budget } from '../../shared/model/budget';
import { positionFromEvents, type CrewCheckpoint } from '../crew/crewCheckpoint';
import { interruptedCrew, type InterruptedCrew } from '../crew/interruptedCrew';
import { FlowNotResumable } from '../flow/flowErrors';
import { answerOf, type HumanAnswer } from '../human/humanPause';
import { BudgetNotRaised, reachedCap } from '../run/budgetGuard';
import type { RunRecord, RunStore } from '../store/types';
import type { ResumeOptions } from '../runtimeApi';

/**
 * Where a stopped crew run continues: its saved position (for an interrupted run that saved none, an
 * older one, read from its events). FlowNotResumable when it was cancelled, or is neither paused with
 * something to wait for nor interrupted.
 */
export function resumableCheckpoint(store: RunStore, previous: RunRecord, runId: string): CrewCheckpoint {
  const saved: unknown = store.loadCheckpoint(runId) ?? (previous.status === 'interrupted' ? positionFromEvents(store, previous) : undefined);
  if (previous.status === 'cancelled') {
    throw new FlowNotResumable(`run ${runId} was cancelled${previous.error ? ` (${previous.error})` : ''}, so it cannot be resumed; run it again from a task with crewdeck replay ${runId} --from-task <taskId>`);
  }
  if (!isCrewCheckpoint(saved) || !resumableAt(previous, saved)) {
    const why = previous.status === 'running' ? `running (process still alive)` : `${previous.status}${previous.status === 'paused' || previous.status === 'interrupted' ? ' with no saved position' : ''}`;
    throw new FlowNotResumable(`run ${runId} is a crew run that is ${why}; only crews paused (at their budget, or for a person) or interrupted can be resumed (replay a crew with crewdeck replay)`);
  }
  return saved;
}

function isCrewCheckpoint(value: unknown): value is CrewCheckpoint {
  return typeof value === 'object' && value !== null && 'kind' in value && value.kind === 'crew';
}

function resumableAt(previous: RunRecord, checkpoint: CrewCheckpoint): boolean {
  const waits = checkpoint.pending !== undefined || checkpoint.humanPending !== undefined;
  return (previous.status === 'paused' && waits) || previous.status === 'interrupted';
}

/** Paused for a person: the answer, which must fit what was asked (feedback for a review, a decision for a tool). */
export function pausedAnswer(previous: RunRecord, checkpoint: CrewCheckpoint, given: ResumeOptions, runId: string): HumanAnswer | undefined {
  const asked = previous.status === 'paused' ? checkpoint.humanPending : undefined;
  return asked ? answerOf(asked, given, runId) : undefined;
}

/** An interrupted run (its process died): the spans it left open and what its calls had cost. */
export function interruptionOf(store: RunStore, previous: RunRecord, runId: string, now: () => number): InterruptedCrew | undefined {
  const events = previous.status === 'interrupted' ? store.events(runId) : undefined;
  return events ? interruptedCrew(events, previous.endedAt ?? now()) : undefined;
}

/** Paused at its budget: the run continues only under a higher cap (BudgetNotRaised otherwise). */
export function requireRaisedBudget(runId: string, checkpoint: CrewCheckpoint, raised: Budget | undefined): void {
  if (!checkpoint.pending) return;
  const budget = { ...(checkpoint.budget ?? {}), ...(raised ?? {}) };
  const still = reachedCap(budget, checkpoint.tokenUsage);
  if (still) throw new BudgetNotRaised(runId, still.which, still.spent, still.limit);
}
