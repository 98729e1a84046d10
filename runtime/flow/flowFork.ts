import type { EventOf, RuntimeEvent } from '../../shared/events';
import type { FlowDocument } from '../../shared/model/flow';
import { ReplayNotPossible } from '../errors';

/** What a method call of the recorded run returned: replayed as is, its body not run. */
export interface RecordedOutcome {
  output: string;
  route?: string;
  routeReason?: string;
  /** The state fields the call changed, with their values after it. */
  set: Record<string, unknown>;
}

/**
 * A flow run forked from a method of a recorded run (`crewdeck replay <runId> --from-method <id>`):
 * the calls that completed before that method first started are replayed from the recording (no
 * model call), then the state is edited and the method and everything after it run again.
 */
export interface FlowFork {
  /** The recorded run. */
  runId: string;
  fromMethodId: string;
  /** By `<methodId>#<call>` (the method's nth call in the run). */
  outcomes: Record<string, RecordedOutcome>;
  /** State fields set before the fork method runs (key → value). */
  edits?: Record<string, unknown>;
}

/**
 * A fork as the run's checkpoint keeps it, so a session resumed after a crash or a pause goes on
 * replaying it: the recorded outcomes, the edits, and whether they were applied (the fork method started).
 */
export interface SavedFork extends FlowFork {
  applied: boolean;
}

export const callKey = (methodId: string, call: number) => `${methodId}#${call}`;

/**
 * Reads the fork point from a recorded flow run's events: the first start of `fromMethodId`, the calls
 * completed before it, and the state at that moment (which `edits` may only change, not extend, unless
 * the flow's state schema declares the key).
 */
export function planFlowFork(doc: FlowDocument, recorded: { runId: string; inputs: Record<string, string>; events: RuntimeEvent[] }, fromMethodId: string, edits?: Record<string, unknown>): FlowFork & { stateAtFork: Record<string, unknown> } {
  const { runId, events } = recorded;
  if (!doc.methods.some((m) => m.id === fromMethodId)) {
    throw new ReplayNotPossible(`the flow of run ${runId} has no method "${fromMethodId}"; its methods are: ${doc.methods.map((m) => m.id).join(', ')}`);
  }
  const fork = events.find((e): e is EventOf<'flow.method.started'> => e.type === 'flow.method.started' && e.methodId === fromMethodId);
  if (!fork) {
    const started = [...new Set(events.filter((e): e is EventOf<'flow.method.started'> => e.type === 'flow.method.started').map((e) => e.methodId))];
    throw new ReplayNotPossible(
      `method "${fromMethodId}" never started in run ${runId}, so there is no point to fork from; ${started.length ? `methods that started: ${started.join(', ')}` : 'no method started'}`,
    );
  }
  const callOfSpan = new Map<string, number>();
  const routeReason = new Map<string, string>();
  const outcomes: Record<string, RecordedOutcome> = {};
  let stateAtFork: Record<string, unknown> = { ...structuredClone(doc.state.initial), ...recorded.inputs };
  for (const e of events) {
    if (e.seq >= fork.seq) break;
    if (e.type === 'flow.method.started') callOfSpan.set(e.spanId, e.call);
    else if (e.type === 'flow.route') routeReason.set(e.spanId, e.reason);
    else if (e.type === 'flow.method.completed') {
      const call = callOfSpan.get(e.spanId);
      if (call === undefined) continue; // a partial log: its start is not stored
      outcomes[callKey(e.methodId, call)] = {
        output: e.output,
        ...(e.route !== undefined ? { route: e.route, routeReason: routeReason.get(e.spanId) ?? '' } : {}),
        set: Object.fromEntries(e.changed.map((k) => [k, e.state[k]])),
      };
      stateAtFork = e.state;
    }
  }
  const given = edits && Object.keys(edits).length > 0 ? edits : undefined;
  if (given) {
    const declared = Object.keys((doc.state.schema?.properties as Record<string, unknown> | undefined) ?? {});
    const known = new Set([...Object.keys(stateAtFork), ...declared]);
    for (const key of Object.keys(given)) {
      if (!known.has(key)) {
        throw new ReplayNotPossible(`the state has no field "${key}" when method "${fromMethodId}" starts in run ${runId}; its fields are: ${[...known].join(', ') || '(none)'}`);
      }
    }
  }
  return { runId, fromMethodId, outcomes, ...(given ? { edits: given } : {}), stateAtFork };
}
