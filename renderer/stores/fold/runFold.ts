import { ignoredFamily, type EventOf } from '../../../shared/events';
import type { FamilyFold } from './eventFold';
import type { RunDraft } from './runDraft';
import { methodNodeId as methodNode } from '../../model/nodeIds';
import { roleDirectory } from '../roleDirectory';
import type { SpanStatus } from '../runView';

/** The run's own span and status: started, paused, resumed, ended. */

function runStarted(d: RunDraft, e: EventOf<'run.started'>): void {
  const v = d.v;
  v.status = 'running';
  v.documentId = e.documentId;
  v.documentName = e.documentName;
  v.process = e.process;
  v.inputs = e.inputs;
  v.stepIds = e.stepIds;
  v.replayOf = e.replayOf;
  v.startedAt = e.ts;
  v.roles = roleDirectory(v.roles.document, e.inputs);
  d.open(e, 'run', e.documentName, e.process);
}

function runEnded(d: RunDraft, e: EventOf<'run.completed' | 'run.failed' | 'run.cancelled'>): void {
  const v = d.v;
  const status = e.type === 'run.completed' ? 'completed' : e.type === 'run.failed' ? 'failed' : 'cancelled';
  v.status = status;
  v.endedAt = e.ts;
  v.durationMs = e.durationMs;
  if (e.type === 'run.completed') v.output = e.output;
  if (e.type === 'run.failed') v.error = e.error;
  if (e.type === 'run.cancelled') v.error = e.reason;
  if (e.type !== 'run.cancelled') v.tokenUsage = { ...e.tokenUsage };
  // Whatever is still open ends with the run.
  const leftover: SpanStatus = status === 'cancelled' ? 'cancelled' : 'failed';
  for (const id of Object.keys(v.book.open)) {
    if (id === e.spanId) continue;
    const span = d.mutable(id);
    if (span) d.end(span, e.ts, leftover);
  }
  v.book.open = {};
  v.book.delegations = [];
  v.book.human = {};
  v.book.waiting = {};
  v.pausedFor = undefined;
  v.book.openAgents = {};
  d.delegationsTouched = true;
  for (const [node, s] of Object.entries(v.nodeStatus)) {
    if (s === 'running' || s === 'waiting') v.nodeStatus[node] = 'failed';
  }
  for (const [taskId, t] of Object.entries(v.tasks)) {
    if (t.status === 'running' || t.status === 'waiting') v.tasks[taskId] = { ...t, status: 'failed' };
  }
  for (const [methodId, m] of Object.entries(v.methods)) {
    if (m.status === 'running' || m.status === 'waiting') v.methods[methodId] = { ...m, status: 'failed' };
  }
  d.close(e, status === 'completed' ? 'done' : leftover);
}

/** A flow waits for feedback: nothing ends, the run span waits with it. */
function runPaused(d: RunDraft, e: EventOf<'run.paused'>): void {
  // A crew paused at a question: the request was closed with the agent that asked; it waits again.
  if (e.reason === 'human') d.reopenRequest(e.requestId);
  d.v.status = 'paused';
  d.v.pausedFor = { requestId: e.requestId, methodId: e.methodId, ...(e.reason ? { reason: e.reason } : {}) };
  const span = d.record(e);
  if (span && d.v.book.open[span.id]) span.status = 'waiting';
  const node = methodNode(e.methodId);
  if (d.v.nodeStatus[node] === 'running') d.v.nodeStatus[node] = 'waiting';
}

function runResumed(d: RunDraft, e: EventOf<'run.resumed'>): void {
  d.v.status = 'running';
  d.v.pausedFor = undefined;
  const span = d.record(e);
  if (span && d.v.book.open[span.id]) span.status = 'running';
}

export const RUN_FOLD = {
  'run.started': runStarted,
  'run.completed': runEnded,
  'run.failed': runEnded,
  'run.cancelled': runEnded,
  'run.paused': runPaused,
  'run.resumed': runResumed,
} satisfies FamilyFold<'run'>;

/** A budget cap reached shows as the pause that follows it (`run.paused` with reason "budget"). */
export const BUDGET_FOLD = { 'budget.reached': null } satisfies FamilyFold<'budget'>;

/** A training session's or test's own events are read by the Training and Tests panels, not the run view. */
export const TRAINING_FOLD = ignoredFamily('training') satisfies FamilyFold<'training'>;
export const TEST_FOLD = ignoredFamily('test') satisfies FamilyFold<'test'>;
