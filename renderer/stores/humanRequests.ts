import type { EventOf, RuntimeEvent } from '../../shared/events';
import type { HostRunSummary, PendingHumanRequest } from '../../shared/host-api';

/**
 * What waits for the person, by how it is answered:
 * - a live run's question (task review, tool approval), answered with `human.answer` while the
 *   process that asked waits;
 * - a paused run (a flow's feedback step, a crew or flow at its budget, or a crew paused at a task
 *   review or tool approval — a team run `waiting`, or a run paused for later), answered with
 *   `runs.resume` (the process that paused may be gone).
 */
export type HumanRequest = RunQuestion | FlowFeedbackRequest | BudgetRequest | PausedQuestionRequest;

/** A live run's question: `human.pending` / `human.requested` of kind task_review or tool_approval. */
export type RunQuestion = PendingHumanRequest & { kind: 'task_review' | 'tool_approval' };

/** A run waiting in the inbox ("Waiting for you"), answered with `runs.resume`. */
export type PausedRunRequest = FlowFeedbackRequest | BudgetRequest | PausedQuestionRequest;

interface PausedRunFields {
  runId: string;
  requestId: string;
  /** The run's (crew's or flow's) name, when the run list knows it. */
  runName?: string;
  documentPath?: string;
  methodId?: string;
  /** The feedback method's name (or where the budget stopped the run). */
  methodName: string;
  prompt: string;
  requestedAt: number;
  /** Asked while the app was open: pops up like a task review does. */
  live: boolean;
}

/** The feedback a paused flow waits for (from its `human.requested` event of kind `flow_feedback`). */
export interface FlowFeedbackRequest extends PausedRunFields {
  kind: 'flow_feedback';
  output?: string;
  outcomes?: string[];
  defaultOutcome?: string;
}

/** A run (crew or flow) paused at its budget: it waits for a higher cap, not for feedback. */
export interface BudgetRequest extends PausedRunFields {
  kind: 'budget';
  budget: { which: 'maxTokens' | 'maxCostUsd'; spent: number; limit: number };
}

/**
 * A crew paused at a task review or a tool approval (`run.paused` with reason human): the same question
 * as a live one, but the run holds no process — it is answered with `runs.resume` (feedback or decision).
 */
export interface PausedQuestionRequest extends PausedRunFields {
  kind: 'task_review' | 'tool_approval';
  paused: true;
  taskId?: string;
  agentRole: string;
  output?: string;
  tool?: string;
  args?: unknown;
}

export const isPausedRun = (r: HumanRequest): r is PausedRunRequest => r.kind === 'flow_feedback' || r.kind === 'budget' || ('paused' in r && r.paused === true);
export const isRunQuestion = (r: HumanRequest): r is RunQuestion => !isPausedRun(r);

/** Identifies a request across runs (request ids are only unique within their run). */
export const requestKey = (r: Pick<HumanRequest, 'runId' | 'requestId'>): string => `${r.runId}/${r.requestId}`;
export const sameRequest = (a: Pick<HumanRequest, 'runId' | 'requestId'>, b: Pick<HumanRequest, 'runId' | 'requestId'>): boolean =>
  a.runId === b.runId && a.requestId === b.requestId;
export const byRequestTime = (a: HumanRequest, b: HumanRequest): number => a.requestedAt - b.requestedAt;

/** A live run's question from its `human.requested` event (undefined for a flow's feedback: that pauses the run). */
export function questionFromEvent(e: EventOf<'human.requested'>): RunQuestion | undefined {
  if (e.kind === 'flow_feedback') return undefined;
  return {
    requestId: e.requestId,
    runId: e.runId,
    kind: e.kind,
    taskId: e.taskId,
    agentRole: e.agentRole,
    prompt: e.prompt,
    output: e.output,
    tool: e.tool,
    args: e.args,
    outcomes: e.outcomes,
    defaultOutcome: e.defaultOutcome,
    requestedAt: e.ts,
  };
}

export function requestFromEvent(e: EventOf<'human.requested'>, live: boolean, run?: HostRunSummary): FlowFeedbackRequest {
  return {
    kind: 'flow_feedback',
    runId: e.runId,
    requestId: e.requestId,
    runName: run?.name,
    documentPath: run?.documentPath,
    methodId: e.methodId,
    methodName: e.agentRole,
    prompt: e.prompt,
    output: e.output,
    outcomes: e.outcomes,
    defaultOutcome: e.defaultOutcome,
    requestedAt: e.ts,
    live,
  };
}

/** A run paused at its budget, from its `run.paused` (reason budget) and the `budget.reached` before it. */
export function requestFromBudget(paused: EventOf<'run.paused'>, reached: EventOf<'budget.reached'> | undefined, live: boolean, run?: HostRunSummary): BudgetRequest {
  const which = reached?.which ?? 'maxTokens';
  return {
    kind: 'budget',
    runId: paused.runId,
    requestId: paused.requestId,
    runName: run?.name,
    documentPath: run?.documentPath,
    methodId: paused.methodId || undefined,
    methodName: paused.methodId || 'the run',
    prompt: `The run's budget is reached (${which === 'maxTokens' ? `${reached?.spent ?? '?'} tokens of ${reached?.limit ?? '?'}` : `$${reached?.spent.toFixed(4) ?? '?'} of $${reached?.limit ?? '?'}`}).`,
    requestedAt: paused.ts,
    live,
    budget: { which, spent: reached?.spent ?? 0, limit: reached?.limit ?? 0 },
  };
}

/** The budget pause a paused run waits in: its last `run.paused` with reason budget, not resumed since. */
export function pendingBudgetRequest(events: readonly RuntimeEvent[], run?: HostRunSummary): BudgetRequest | undefined {
  let paused: EventOf<'run.paused'> | undefined;
  let reached: EventOf<'budget.reached'> | undefined;
  for (const e of events) {
    if (e.type === 'run.paused') paused = e;
    else if (e.type === 'run.resumed') paused = undefined;
    else if (e.type === 'budget.reached') reached = e;
  }
  return paused?.reason === 'budget' ? requestFromBudget(paused, reached, false, run) : undefined;
}

/** The feedback request a paused run waits for: the one its last `run.paused` names, unanswered. */
export function pendingFlowRequest(events: readonly RuntimeEvent[]): EventOf<'human.requested'> | undefined {
  let paused: EventOf<'run.paused'> | undefined;
  const answered = new Set<string>();
  for (const e of events) {
    if (e.type === 'run.paused') paused = e;
    else if (e.type === 'run.resumed') paused = undefined;
    else if (e.type === 'human.answered') answered.add(e.requestId);
  }
  if (!paused || answered.has(paused.requestId)) return undefined;
  const requestId = paused.requestId;
  return events.find((e): e is EventOf<'human.requested'> => e.type === 'human.requested' && e.kind === 'flow_feedback' && e.requestId === requestId);
}

/** A crew's question as the run paused at it (its `human.requested`, of kind task_review or tool_approval). */
export function pausedQuestionFromEvent(e: EventOf<'human.requested'>, live: boolean, run?: HostRunSummary): PausedQuestionRequest | undefined {
  if (e.kind !== 'task_review' && e.kind !== 'tool_approval') return undefined;
  return {
    kind: e.kind,
    paused: true,
    runId: e.runId,
    requestId: e.requestId,
    runName: run?.name,
    documentPath: run?.documentPath,
    methodId: e.taskId,
    methodName: e.kind === 'tool_approval' ? `${e.agentRole} · ${e.tool ?? 'a tool'}` : `${e.agentRole} · task ${e.taskId ?? ''}`,
    prompt: e.prompt,
    requestedAt: e.ts,
    live,
    ...(e.taskId !== undefined ? { taskId: e.taskId } : {}),
    agentRole: e.agentRole,
    ...(e.output !== undefined ? { output: e.output } : {}),
    ...(e.tool !== undefined ? { tool: e.tool, args: e.args } : {}),
  };
}

/** The question a crew paused for a person waits at: its last `run.paused` with reason human, not resumed since. */
export function pendingQuestionRequest(events: readonly RuntimeEvent[], run?: HostRunSummary): PausedQuestionRequest | undefined {
  let paused: EventOf<'run.paused'> | undefined;
  for (const e of events) {
    if (e.type === 'run.paused') paused = e;
    else if (e.type === 'run.resumed') paused = undefined;
  }
  if (paused?.reason !== 'human') return undefined;
  const requestId = paused.requestId;
  const asked = events.find((e): e is EventOf<'human.requested'> => e.type === 'human.requested' && e.requestId === requestId);
  return asked ? pausedQuestionFromEvent(asked, false, run) : undefined;
}

/** What a paused run (found in the run list) waits for, from its events. */
export function pausedRunRequest(events: readonly RuntimeEvent[], run: HostRunSummary): PausedRunRequest | undefined {
  const request = pendingFlowRequest(events);
  return request ? requestFromEvent(request, false, run) : (pendingQuestionRequest(events, run) ?? pendingBudgetRequest(events, run));
}
