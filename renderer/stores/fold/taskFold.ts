import type { EventOf } from '../../../shared/events';
import type { FamilyFold } from './eventFold';
import type { RunDraft } from './runDraft';
import { taskNodeId } from '../../model/nodeIds';
import { nodeForRole } from '../roleDirectory';
import type { SpanStatus, TaskResult, TraceSpan } from '../runView';

const TASK_END: Record<'task.completed' | 'task.failed', SpanStatus> = { 'task.completed': 'done', 'task.failed': 'failed' };

/** Tasks (and the crew's planning step): their spans, results, node statuses and retry counters. */

function taskStarted(d: RunDraft, e: EventOf<'task.started'>): void {
  const span = d.open(e, 'task', e.taskName ?? e.taskId, e.agentRole);
  span.taskId = e.taskId;
  span.agentNode = nodeForRole(d.v.roles, e.agentRole);
  d.v.tasks[e.taskId] = { taskId: e.taskId, name: e.taskName, index: e.index, agentRole: e.agentRole, status: 'running', tokens: 0 };
  d.setTaskStatus(e.taskId, 'running');
}

function taskEnded(d: RunDraft, e: EventOf<'task.completed' | 'task.failed'>): void {
  // A replay restores earlier outputs without running them: a span of one event.
  const restored = !d.spans.has(e.spanId);
  if (restored) {
    const span = d.open(e, 'task', d.v.roles.taskNames[e.taskId] ?? e.taskId, `${e.agentRole} · restored`);
    span.taskId = e.taskId;
  }
  d.close(e, TASK_END[e.type]);
  const prev: TaskResult = d.v.tasks[e.taskId] ?? { taskId: e.taskId, status: 'running', tokens: 0 };
  if (e.type === 'task.completed') {
    d.v.tasks[e.taskId] = {
      name: d.v.roles.taskNames[e.taskId],
      ...prev,
      agentRole: e.agentRole,
      status: 'done',
      raw: e.raw,
      json: e.json,
      tokens: e.tokenUsage.totalTokens,
      durationMs: e.durationMs,
      outputFile: e.outputFile,
      restored: restored || e.restoredFrom !== undefined,
    };
  } else {
    d.v.tasks[e.taskId] = { ...prev, agentRole: e.agentRole, status: 'failed', error: e.error, durationMs: e.durationMs };
  }
  d.setTaskStatus(e.taskId, e.type === 'task.completed' ? 'done' : 'failed');
}

/** Stopped at the run's budget: not a failure, the task runs again when the run resumes. */
function taskPaused(d: RunDraft, e: EventOf<'task.paused'>): void {
  const span = d.close(e, 'paused');
  if (span) span.sublabel = `${e.agentRole} · ${e.reason === 'human' ? 'waits for a person' : 'paused at the budget'}`;
  const prev: TaskResult = d.v.tasks[e.taskId] ?? { taskId: e.taskId, status: 'running', tokens: 0 };
  d.v.tasks[e.taskId] = { ...prev, agentRole: e.agentRole, status: 'paused', error: undefined, durationMs: e.durationMs };
  d.setTaskStatus(e.taskId, 'paused');
}

function taskSkipped(d: RunDraft, e: EventOf<'task.skipped'>): void {
  const name = d.v.roles.taskNames[e.taskId];
  const span = d.open(e, 'task', name ?? e.taskId, e.reason);
  span.taskId = e.taskId;
  d.close(e, 'skipped');
  d.v.tasks[e.taskId] = { ...(d.v.tasks[e.taskId] ?? { taskId: e.taskId, tokens: 0 }), name, index: e.index, status: 'skipped', skipReason: e.reason };
  d.setTaskStatus(e.taskId, 'skipped');
}

function taskRetrying(d: RunDraft, e: EventOf<'task.retrying'>): void {
  const task = d.record(e);
  const retry = d.create(
    { id: `${e.spanId}:retry${e.attempt}`, parentId: e.spanId, kind: 'retry', label: `retry ${e.attempt - 1}/${e.maxRetries}`, sublabel: e.reason },
    e,
  );
  d.end(retry, e.ts, 'done');
  d.bump(taskNodeId(e.taskId), 'retries');
  const performer = task ? lastAgentChild(d, task) : undefined;
  if (performer) d.bump(performer, 'retries');
}

function lastAgentChild(d: RunDraft, task: TraceSpan): string | undefined {
  for (let i = task.children.length - 1; i >= 0; i--) {
    const child = d.spans.get(task.children[i]!);
    if (child?.kind === 'agent') return child.agentNode;
  }
  return task.agentNode;
}

export const TASK_FOLD = {
  'task.started': taskStarted,
  'task.completed': taskEnded,
  'task.failed': taskEnded,
  'task.paused': taskPaused,
  'task.skipped': taskSkipped,
  'task.retrying': taskRetrying,
} satisfies FamilyFold<'task'>;

export const PLANNING_FOLD = {
  'planning.started': (d, e) => void d.open(e, 'planning', 'Planning', e.model),
  'planning.completed': (d, e) => void d.close(e, 'done'),
  'planning.failed': (d, e) => void d.close(e, 'failed'),
} satisfies FamilyFold<'planning'>;
