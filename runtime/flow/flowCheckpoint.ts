import type { Budget, BudgetPending } from '../../shared/model/budget';
import type { TokenUsage } from '../../shared/usage';
import type { FeedbackAsk, ItemResult } from './bodies/types';
import type { SavedFork } from './flowFork';
import type { ListenerMemo } from './listeners';

/** One call of a method: triggered (or running) and not yet completed. */
export interface ActiveCall {
  key: string;
  methodId: string;
  /** This call's number in the run (keys and request ids). */
  call: number;
  /** How many times this method has been called in the run, this call included. */
  nth: number;
  input?: string;
  triggeredBy?: string;
  /** The method's span once it started. */
  spanId?: string;
  /** A for_each call's finished items (by index), kept across a crash or a resume. */
  items?: Record<string, ItemResult>;
}

/** A call waiting for a person's feedback; it survives the process. */
export interface PendingFeedback {
  key: string;
  requestId: string;
  methodId: string;
  humanSpanId: string;
  ask: FeedbackAsk;
  requestedAt: number;
}

/** Everything a flow needs to continue in another process, saved after every method (with `persist`). */
export interface FlowCheckpoint {
  version: 1;
  rootSpanId: string;
  /** How many times the run was resumed (new span ids get a prefix per session). */
  sessions: number;
  state: Record<string, unknown>;
  calls: number;
  /** Calls per method id (a method in a loop runs more than once). */
  callsByMethod: Record<string, number>;
  lastOutput?: string;
  completed: Record<string, number>;
  listeners: Record<string, ListenerMemo>;
  active: ActiveCall[];
  pending: PendingFeedback[];
  startedAt: number;
  pausedAt?: number;
  /** Tokens of the earlier sessions of the run (a resumed run reports the whole run's usage). */
  tokenUsage?: TokenUsage;
  /** The caps the run ran under (the document's, or the caller's). */
  budget?: Budget;
  /** Paused at its budget: the calls stopped by it run again, from their start, when a higher cap resumes the run. */
  budgetPending?: BudgetPending;
  /** A fork of a recorded run: its recorded outcomes and state edits hold in every session of the run. */
  fork?: SavedFork;
}
