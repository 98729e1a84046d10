import type { FlowMethod } from '../../shared/model/flow';
import { errorMessage, errorName, type BudgetReached } from '../errors';
import type { Span } from '../events/span';
import type { BodyOutcome, FeedbackAsk } from './bodies/types';
import type { ActiveCall } from './flowCheckpoint';
import { describeTrigger } from './listeners';

type DoneOutcome = Extract<BodyOutcome, { kind: 'done' }>;

/** `flow.method.started`: a call of `method` begins on its span. */
export function emitMethodStarted(span: Span, method: FlowMethod, call: ActiveCall): void {
  span.emit({
    type: 'flow.method.started',
    methodId: method.id,
    methodName: method.name,
    bodyType: method.body.type,
    trigger: describeTrigger(method),
    ...(call.triggeredBy ? { triggeredBy: call.triggeredBy } : {}),
    ...(call.input !== undefined ? { input: call.input } : {}),
    call: call.nth,
  });
}

/** `flow.method.failed`: the call threw `error`. */
export function emitMethodFailed(span: Span, method: FlowMethod, error: unknown, durationMs: number): void {
  span.emit({ type: 'flow.method.failed', methodId: method.id, methodName: method.name, error: errorMessage(error), errorName: errorName(error), durationMs });
}

/** `flow.method.failed` of a call its dead process left running: it runs again. */
export function emitMethodInterrupted(span: Span, method: FlowMethod): void {
  span.emit({
    type: 'flow.method.failed',
    methodId: method.id,
    methodName: method.name,
    error: 'interrupted: the process running the flow stopped; the method runs again',
    errorName: 'Interrupted',
    durationMs: 0,
  });
}

/** `flow.method.paused`: a model call found the budget reached; the method runs again on resume. */
export function emitPausedAtBudget(span: Span, method: FlowMethod, reached: BudgetReached, durationMs: number): void {
  span.emit({
    type: 'flow.method.paused',
    methodId: method.id,
    methodName: method.name,
    reason: 'budget',
    message: `${reached.message}; the method runs again when the run is resumed with a higher cap`,
    durationMs,
  });
}

/** `human.requested` of a feedback method, on a child of its span; answers that child. */
export function requestFeedback(span: Span, method: FlowMethod, requestId: string, ask: FeedbackAsk): Span {
  const human = span.child();
  human.emit({
    type: 'human.requested',
    requestId,
    kind: 'flow_feedback',
    agentRole: method.name,
    prompt: ask.message,
    output: ask.output,
    methodId: method.id,
    ...(ask.outcomes ? { outcomes: ask.outcomes } : {}),
    ...(ask.defaultOutcome ? { defaultOutcome: ask.defaultOutcome } : {}),
  });
  return human;
}

/** `human.answered`: the feedback a paused method waited for, on the request's span. */
export function emitFeedbackAnswered(human: Span, requestId: string, feedback: string, route: string | undefined): void {
  human.emit({
    type: 'human.answered',
    requestId,
    kind: 'flow_feedback',
    feedback,
    ...(route ? { outcome: route } : {}),
  });
}

/** How a method completed, for its events. */
export interface MethodCompletion {
  outcome: DoneOutcome;
  route: string | undefined;
  state: Record<string, unknown>;
  changed: string[];
  /** Read when `flow.method.completed` is emitted (after the route's event). */
  durationMs: () => number;
  restoredFrom: string | undefined;
}

/** `flow.route` (a router's) and `flow.method.completed`. */
export function emitMethodCompleted(span: Span, method: FlowMethod, done: MethodCompletion): void {
  const { outcome, route } = done;
  if (route !== undefined) {
    span.emit({
      type: 'flow.route',
      methodId: method.id,
      methodName: method.name,
      route,
      reason: outcome.routeReason ?? '',
      ...(outcome.routeReply !== undefined ? { rawReply: outcome.routeReply } : {}),
      ...(outcome.routeReadAs ? { readAs: outcome.routeReadAs } : {}),
    });
  }
  span.emit({
    type: 'flow.method.completed',
    methodId: method.id,
    methodName: method.name,
    output: outcome.output,
    ...(route !== undefined ? { route } : {}),
    state: done.state,
    changed: done.changed,
    durationMs: done.durationMs(),
    ...(done.restoredFrom ? { restoredFrom: done.restoredFrom } : {}),
  });
}
