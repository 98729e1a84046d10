import type { Budget, BudgetPending } from '../../shared/model/budget';
import type { CrewDocument } from '../../shared/model/crew';
import type { TokenUsage } from '../../shared/usage';
import type { RunLifecycle } from '../run/runLifecycle';
import type { RunStore, StoredTaskOutput } from '../store/types';
import type { HumanAnswer, HumanPending } from '../human/humanPause';
import { Span } from '../events/span';
import { closeOpenSpans } from '../run/openSpans';
import { usageOfEvents, type InterruptedCrew } from './interruptedCrew';

/**
 * Where a crew run is, saved in the run store so any process can continue it: when a session opens (a
 * killed run continues from its stored task outputs) and when it pauses at its budget (`pending`).
 */
export interface CrewCheckpoint {
  version: 1;
  kind: 'crew';
  rootSpanId: string;
  /** How many times the run was resumed (new span ids get a prefix per session). */
  sessions: number;
  startedAt: number;
  pausedAt?: number;
  /** The whole run's usage so far (at the pause; at a session's start, the earlier sessions'). */
  tokenUsage: TokenUsage;
  /** The caps it ran under. */
  budget?: Budget;
  /** Paused at its budget: what it waits for. */
  pending?: BudgetPending;
  /** Paused for a person (a task review or a tool approval): what it waits for (humanPause.ts). */
  humanPending?: HumanPending;
}

/** The first task a paused crew run has no stored output of: where it continues. */
export function firstUnfinished(doc: CrewDocument, outputs: Map<string, StoredTaskOutput>): number {
  const index = doc.tasks.findIndex((t) => !outputs.has(t.id));
  return index < 0 ? doc.tasks.length : index;
}

/**
 * What continuing a crew run needs: its saved position and finished tasks' outputs. `interrupted`: the
 * spans the dead process left open (closed as interrupted; their tasks run again) and what its calls had cost.
 */
export interface CrewResume {
  checkpoint: CrewCheckpoint;
  outputs: Map<string, StoredTaskOutput>;
  interrupted?: InterruptedCrew;
  /** The person's answer to `checkpoint.humanPending`, checked to fit it. */
  answer?: HumanAnswer;
}

/**
 * The start of a continued session: `run.resumed`, then the tasks a killed process was in (and the
 * agent, model call or tool inside them) end here, under their own spans, as interrupted; the tasks
 * run again from their start.
 */
export function markResumed(run: RunLifecycle, resumed: CrewResume, now: number, offlineFrom: string | undefined): void {
  const stoppedAt = resumed.interrupted?.endedAt ?? resumed.checkpoint.pausedAt ?? now;
  const { pending, humanPending } = resumed.checkpoint;
  run.root.emit({ type: 'run.resumed', requestId: pending?.requestId ?? humanPending?.requestId ?? '', pausedForMs: Math.max(0, now - stoppedAt), ...(offlineFrom ? { offlineFrom } : {}) });
  if (resumed.interrupted) closeOpenSpans(run.log, resumed.interrupted.open, stoppedAt, 'interrupted: the process running the crew stopped; the task runs again');
  // The request the run paused at is answered on its own span, as a flow's feedback is (under the run: the
  // agent that asked closed its span when the run paused).
  if (humanPending && resumed.answer) {
    new Span(run.log, humanPending.spanId, run.root.id).emit({ type: 'human.answered', requestId: humanPending.requestId, kind: humanPending.kind, ...resumed.answer });
  }
}

/** Where an interrupted crew run that saved no checkpoint (an older run) is, read from its events. */
export function positionFromEvents(store: RunStore, run: { id: string; startedAt: number }): CrewCheckpoint | undefined {
  const events = store.events(run.id);
  if (events[0]?.type !== 'run.started') return undefined;
  const sessions = events.filter((e) => e.type === 'run.resumed').length;
  return { version: 1, kind: 'crew', rootSpanId: events[0].spanId, sessions, startedAt: run.startedAt, tokenUsage: usageOfEvents(events) };
}
