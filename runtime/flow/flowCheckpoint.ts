import type { Budget, BudgetPending } from '../../shared/model/budget';
import type { TokenUsage } from '../../shared/usage';
import type { FeedbackAsk, ItemResult } from './bodies/types';
import type { SavedFork } from './flowFork';
import type { ListenerMemo } from './listeners';
import type { RunStore } from '../store/types';
import { applyStateOps, copyJson, diffStateOps, type StateOp } from './stateOps';

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

/**
 * A for_each call's results as its item entries hold them: `count` items of the call `key`, in index
 * order (an item's JSON when it has one, else its text). A method's entry refers to them instead of
 * writing the list (and its JSON text, the method's output) a second and a third time.
 */
export interface ItemsRef {
  items: string;
  count: number;
}

/** A step's change to the state: an operation, or (`op: "items"`) `path` set to a for_each call's results. */
export type CheckpointOp = StateOp | ({ op: 'items'; path: string[] } & ItemsRef);

/**
 * What a flow appends to its checkpoint between two whole saves (SPEC §4: a checkpoint costs what
 * changed): a for_each item that finished, or a step (the state operations applied since the last
 * entry, and the output of the method that completed, if one did). Each also holds what changed in the
 * run's progress (calls, listeners, active calls, usage), as StateOps on the progress last written.
 */
export type FlowCheckpointEntry = (
  | { kind: 'item'; key: string; index: number; result: ItemResult }
  | { kind: 'step'; ops: CheckpointOp[]; /** The run's last output, when a method completed. */ output?: string | ItemsRef }
) & { progress: StateOp[] };

/**
 * A checkpoint without its state, its last output, its calls' items and its fork's recorded outcomes:
 * what an entry diffs. Active calls are keyed by their key (in their order), so a call that changes is
 * diffed alone.
 */
export type FlowProgress = Omit<FlowCheckpoint, 'state' | 'fork' | 'active' | 'lastOutput'> & { active: Record<string, Omit<ActiveCall, 'items'>>; forkApplied?: boolean };

/** A copy (as JSON, strings shared): the run goes on changing its checkpoint's objects in place. */
export function progressOf(cp: FlowCheckpoint): FlowProgress {
  const progress: Record<string, unknown> = {};
  // Keys such as "each#1" are never array indexes: the object keeps the calls' order.
  const active: Record<string, unknown> = {};
  for (const call of cp.active) active[call.key] = withoutKey(call, 'items');
  for (const key of Object.keys(cp) as (keyof FlowCheckpoint)[]) {
    if (key === 'active') progress.active = active;
    else if (key === 'fork') progress.forkApplied = cp.fork?.applied;
    else if (!NOT_PROGRESS.has(key)) progress[key] = cp[key];
  }
  return copyJson(progress) as FlowProgress;
}

/** What progress leaves out: diffed apart (state), written apart (the last output) or never changed (a fork's outcomes). */
const NOT_PROGRESS = new Set<keyof FlowCheckpoint>(['state', 'lastOutput']);

/** `object`'s own fields but one (a plain loop: object rest with an excluded key is a slow path in V8). */
function withoutKey<T extends object>(object: T, left: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object)) if (key !== left) out[key] = (object as Record<string, unknown>)[key];
  return out;
}

/** The ops that turn the progress last written into `now` (what an entry holds besides its change). */
export function progressOps(last: FlowProgress, now: FlowProgress): StateOp[] {
  return diffStateOps(last as unknown as Record<string, unknown>, now as unknown as Record<string, unknown>);
}

/** The results of a for_each call, read back from its items. */
function itemValues(ref: ItemsRef, items: Map<string, Record<string, ItemResult>>): unknown[] {
  const done = items.get(ref.items) ?? {};
  return Array.from({ length: ref.count }, (_, i) => {
    const result = done[String(i)];
    if (!result) throw new Error(`checkpoint: item ${i} of ${ref.items} is referred to but was never recorded`);
    return result.json !== undefined ? result.json : result.output;
  });
}

/** A step's operations as StateOps (item references resolved). */
function stepOps(ops: CheckpointOp[], items: Map<string, Record<string, ItemResult>>): StateOp[] {
  return ops.map((op) => (op.op === 'items' ? { op: 'set', path: op.path, value: itemValues(op, items) } : op));
}

/** A flow's checkpoint as saved, with the entries appended since folded in; undefined when it has none. */
export function loadFlowCheckpoint(store: Pick<RunStore, 'loadCheckpoint' | 'checkpointEntries'>, runId: string): FlowCheckpoint | undefined {
  const base = store.loadCheckpoint(runId) as FlowCheckpoint | undefined;
  if (!base) return undefined;
  const entries = store.checkpointEntries(runId) as FlowCheckpointEntry[];
  if (entries.length === 0) return base;
  let state = base.state;
  let lastOutput = base.lastOutput;
  let progress = progressOf(base) as unknown as Record<string, unknown>;
  const items = new Map(base.active.filter((c) => c.items).map((c) => [c.key, { ...c.items }]));
  for (const entry of entries) {
    if (entry.kind === 'item') {
      const done = items.get(entry.key) ?? {};
      done[String(entry.index)] = entry.result;
      items.set(entry.key, done);
    } else {
      state = applyStateOps(state, stepOps(entry.ops, items));
      if (typeof entry.output === 'string') lastOutput = entry.output;
      else if (entry.output) lastOutput = JSON.stringify(itemValues(entry.output, items));
    }
    progress = applyStateOps(progress, entry.progress);
    // Entries written before the last output had a field of its own carried it in their progress.
    if (typeof progress.lastOutput === 'string') {
      lastOutput = progress.lastOutput;
      progress = applyStateOps(progress, [{ op: 'delete', path: ['lastOutput'] }]);
    }
  }
  const { forkApplied, active, ...rest } = progress as unknown as FlowProgress;
  return {
    ...rest,
    state,
    ...(lastOutput !== undefined ? { lastOutput } : {}),
    active: Object.values(active).map((call) => {
      const done = items.get(call.key);
      return done ? { ...call, items: done } : call;
    }),
    ...(base.fork ? { fork: { ...base.fork, applied: forkApplied ?? base.fork.applied } } : {}),
  };
}
