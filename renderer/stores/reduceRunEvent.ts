/*
 * Flow runs (issue 5): flow.method.* spans (kind 'method'), node status under `method:<methodId>`,
 * `view.methods` (calls per method), `view.routes` (router → chosen label), `view.triggers` (which
 * listen condition fired), `view.flowState`, `status: 'paused'` + `view.pausedFor`, `view.stubsReached`
 * (imported CrewAI stubs that ran, one per method: the run's "N stubs reached", the method's marker). The flow canvas
 * reads them through renderer/canvas/nodes/useMethodRun.ts (useMethodRun, useTakenRoute, useFlowEdgeRun).
 */
import { isLiveOnly, type EventOf, type RuntimeEvent } from '../../shared/events';
import { addStubReached } from '../../shared/stubsReached';
import { addUsage } from '../../shared/usage';
import { methodNodeId as methodNode, parseMethodNodeId, parseNodeId, taskNodeId } from '../model/nodeIds';
import { nodeForAgentId, nodeForRole, normaliseRole, roleDirectory } from './roleDirectory';
import type { ActiveDelegation, MethodResult, NodeCounters, NodeRunStatus, RunView, SpanKind, SpanStatus, TaskResult, TraceSpan } from './runView';

/** Folds one event into a run view. Pure: the given view is not changed. */
export function reduceRunEvent(state: RunView, event: RuntimeEvent): RunView {
  return foldRunEvents(state, [event]);
}

/**
 * Folds a batch of events into a run view. Pure towards its input: everything the previous view
 * holds is copied before it is changed, but each object at most once per batch, so folding n events
 * costs O(n) however they are batched. Events at or below the view's last seq are ignored, except
 * live-only events (stream deltas), which carry the seq of the stored event they follow.
 */
export function foldRunEvents(state: RunView, events: readonly RuntimeEvent[]): RunView {
  const fresh = events.filter((e) => e.seq > state.lastSeq || (e.seq === state.lastSeq && isLiveOnly(e)));
  if (fresh.length === 0) return state;
  const draft = new RunDraft(state);
  for (const event of fresh) draft.apply(event);
  return draft.finish();
}

const TASK_END: Record<string, SpanStatus> = { 'task.completed': 'done', 'task.failed': 'failed' };

class RunDraft {
  private readonly v: RunView;
  private readonly spans: Map<string, TraceSpan>;
  private readonly owned = new Set<string>();
  private readonly ownedCounters = new Set<string>();
  private delegationsTouched = false;

  constructor(prev: RunView) {
    this.v = {
      ...prev,
      version: prev.version + 1,
      spans: new Map(prev.spans),
      rootIds: [...prev.rootIds],
      tasks: { ...prev.tasks },
      methods: { ...prev.methods },
      routes: { ...prev.routes },
      triggers: { ...prev.triggers },
      nodeStatus: { ...prev.nodeStatus },
      nodeCounters: { ...prev.nodeCounters },
      tokenUsage: { ...prev.tokenUsage },
      book: {
        openAgents: { ...prev.book.openAgents },
        agentEnd: { ...prev.book.agentEnd },
        waiting: { ...prev.book.waiting },
        open: { ...prev.book.open },
        delegations: [...prev.book.delegations],
        human: { ...prev.book.human },
        methodNames: { ...prev.book.methodNames },
      },
    };
    this.spans = this.v.spans as Map<string, TraceSpan>;
  }

  finish(): RunView {
    if (this.delegationsTouched) this.v.activeDelegations = this.activeDelegations();
    return this.v;
  }

  apply(e: RuntimeEvent): void {
    this.v.lastSeq = e.seq;
    this.v.lastTs = e.ts;
    this.v.eventCount += 1;
    switch (e.type) {
      case 'run.started':
        return this.runStarted(e);
      case 'run.completed':
      case 'run.failed':
      case 'run.cancelled':
        return this.runEnded(e);
      case 'run.paused':
        return this.runPaused(e);
      case 'run.resumed':
        return this.runResumed(e);
      case 'flow.method.started':
        return this.methodStarted(e);
      case 'flow.route':
        return this.methodRouted(e);
      case 'flow.method.completed':
      case 'flow.method.failed':
        return this.methodEnded(e);
      case 'flow.method.paused':
        return this.methodPaused(e);
      case 'flow.item.started':
      case 'flow.item.completed':
      case 'flow.item.failed':
      case 'flow.item.paused':
        return this.itemEvent(e);
      case 'flow.stub.reached': {
        // An imported CrewAI method that could not be mapped passed its input on: the method's row says so.
        // The run lists it (the run's "N stubs reached" marker, the method's marker on the canvas).
        const span = this.record(e);
        if (span) span.sublabel = `stub for CrewAI Python (${e.file}:${e.line}): passed its input on`;
        this.v.stubsReached = addStubReached(this.v.stubsReached, e);
        return;
      }
      case 'planning.started':
        this.open(e, 'planning', 'Planning', e.model);
        return;
      case 'planning.completed':
      case 'planning.failed':
        this.close(e, e.type === 'planning.completed' ? 'done' : 'failed');
        return;
      case 'task.started':
        return this.taskStarted(e);
      case 'task.completed':
      case 'task.failed':
        return this.taskEnded(e);
      case 'task.paused':
        return this.taskPaused(e);
      case 'task.skipped':
        return this.taskSkipped(e);
      case 'task.retrying':
        return this.taskRetrying(e);
      case 'memory.recall':
      case 'knowledge.retrieved':
        this.record(e);
        return;
      case 'memory.write.staged':
        this.open(e, 'memory', `memory write · attempt ${e.attempt}`, e.policy === 'immediate' ? 'immediate' : 'after guardrails');
        return;
      case 'memory.write.skipped':
      case 'memory.write.decision':
        this.record(e);
        return;
      case 'memory.write.committed':
        return this.memoryCommitted(e);
      case 'memory.write.discarded':
        return this.memoryEnded(e, 'discarded', `discarded ${e.dropped} · ${e.reason}`);
      case 'memory.write.failed':
        return this.memoryEnded(e, 'failed', e.error);
      case 'agent.started':
        return this.agentStarted(e);
      case 'agent.completed':
      case 'agent.failed':
      case 'agent.paused':
        return this.agentEnded(e);
      case 'llm.started':
        this.open(e, 'llm', e.model, e.purpose === 'agent' ? undefined : e.purpose);
        return;
      case 'llm.chunk': {
        const span = this.mutable(e.spanId);
        if (span) span.streamed = (span.streamed ?? '') + e.delta;
        return;
      }
      case 'llm.completed':
        this.close(e, 'done');
        this.addTokens(e.spanId, e.usage.totalTokens);
        this.v.tokenUsage = addUsage(this.v.tokenUsage, e.usage);
        return;
      case 'embedding.completed':
        // A one-event span: shown on the span it was made for (a task's, a method's), its tokens counted there and in the run's total.
        if (e.parentSpanId !== undefined) {
          this.mutable(e.parentSpanId)?.events.push(e);
          this.addTokens(e.parentSpanId, e.usage.totalTokens);
        }
        this.v.tokenUsage = addUsage(this.v.tokenUsage, e.usage);
        return;
      case 'llm.failed':
        if (e.willRetry) this.record(e);
        else this.close(e, 'failed');
        return;
      case 'tool.started':
        return this.toolStarted(e);
      case 'tool.completed':
        this.close(e, 'done');
        return;
      case 'tool.failed':
        this.close(e, 'failed');
        return;
      case 'tool.blocked':
        this.close(e, 'blocked');
        return;
      case 'tool.cached':
        this.close(e, 'cached');
        return;
      case 'tool.output':
        this.record(e);
        return;
      case 'delegation.started':
        return this.delegationStarted(e);
      case 'delegation.completed':
      case 'delegation.failed':
        return this.delegationEnded(e);
      case 'guardrail.started':
        this.open(e, 'guardrail', e.index < 0 ? 'output check' : e.guardrailType, `attempt ${e.attempt}`);
        return;
      case 'guardrail.passed':
        this.close(e, 'done');
        return;
      case 'guardrail.failed':
        this.close(e, 'failed');
        return;
      case 'human.requested':
        return this.humanRequested(e);
      case 'human.answered':
        return this.humanAnswered(e);
    }
  }

  // ── run ────────────────────────────────────────────────────────────────────────────────────────

  private runStarted(e: EventOf<'run.started'>): void {
    const v = this.v;
    v.status = 'running';
    v.documentId = e.documentId;
    v.documentName = e.documentName;
    v.process = e.process;
    v.inputs = e.inputs;
    v.stepIds = e.stepIds;
    v.replayOf = e.replayOf;
    v.startedAt = e.ts;
    v.roles = roleDirectory(v.roles.document, e.inputs);
    this.open(e, 'run', e.documentName, e.process);
  }

  private runEnded(e: EventOf<'run.completed' | 'run.failed' | 'run.cancelled'>): void {
    const v = this.v;
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
      const span = this.mutable(id);
      if (span) this.end(span, e.ts, leftover);
    }
    v.book.open = {};
    v.book.delegations = [];
    v.book.human = {};
    v.book.waiting = {};
    v.pausedFor = undefined;
    v.book.openAgents = {};
    this.delegationsTouched = true;
    for (const [node, s] of Object.entries(v.nodeStatus)) {
      if (s === 'running' || s === 'waiting') v.nodeStatus[node] = 'failed';
    }
    for (const [taskId, t] of Object.entries(v.tasks)) {
      if (t.status === 'running' || t.status === 'waiting') v.tasks[taskId] = { ...t, status: 'failed' };
    }
    for (const [methodId, m] of Object.entries(v.methods)) {
      if (m.status === 'running' || m.status === 'waiting') v.methods[methodId] = { ...m, status: 'failed' };
    }
    this.close(e, status === 'completed' ? 'done' : leftover);
  }

  /** A flow waits for feedback: nothing ends, the run span waits with it. */
  private runPaused(e: EventOf<'run.paused'>): void {
    // A crew paused at a question: the request was closed with the agent that asked; it waits again.
    if (e.reason === 'human') this.reopenRequest(e.requestId);
    this.v.status = 'paused';
    this.v.pausedFor = { requestId: e.requestId, methodId: e.methodId, ...(e.reason ? { reason: e.reason } : {}) };
    const span = this.record(e);
    if (span && this.v.book.open[span.id]) span.status = 'waiting';
    const node = methodNode(e.methodId);
    if (this.v.nodeStatus[node] === 'running') this.v.nodeStatus[node] = 'waiting';
  }

  private runResumed(e: EventOf<'run.resumed'>): void {
    this.v.status = 'running';
    this.v.pausedFor = undefined;
    const span = this.record(e);
    if (span && this.v.book.open[span.id]) span.status = 'running';
  }

  // ── flow methods ───────────────────────────────────────────────────────────────────────────────

  private methodStarted(e: EventOf<'flow.method.started'>): void {
    const v = this.v;
    const prev = v.methods[e.methodId];
    const calls = (prev?.calls ?? 0) + 1;
    // Before this method's own name is known: a route may share a listener's name.
    const from = this.triggerSource(e.triggeredBy);
    const span = this.open(e, 'method', e.methodName, calls > 1 ? `${e.bodyType} · call ${calls}` : e.bodyType);
    v.book.methodNames[e.methodName] = e.methodId;
    v.methods[e.methodId] = { methodId: e.methodId, name: e.methodName, bodyType: e.bodyType, status: 'running', calls, spanId: span.id };
    this.setMethodStatus(e.methodId, 'running');
    // A listener of a router fired by its route: remember which route, so that handle's edge lights up.
    if (from) v.triggers[e.methodId] = { from: from.from, route: from.route ?? v.routes[from.from], to: e.methodId, call: calls };
    else delete v.triggers[e.methodId];
  }

  /** One item of a for_each: a span of its own under the method, and the method's item counter. */
  private itemEvent(e: EventOf<'flow.item.started' | 'flow.item.completed' | 'flow.item.failed' | 'flow.item.paused'>): void {
    const label = `item ${e.index + 1}/${e.total}`;
    if (e.type === 'flow.item.started') this.open(e, 'item', label, e.item);
    else if (e.type === 'flow.item.completed' && e.restoredFrom) this.open(e, 'item', label, 'restored from the checkpoint', 'done');
    else if (e.type === 'flow.item.paused') {
      const span = this.close(e, 'paused');
      if (span) span.sublabel = 'paused at the budget';
    } else this.close(e, e.type === 'flow.item.completed' ? 'done' : 'failed');
    const m = this.v.methods[e.methodId];
    if (!m) return;
    const items = m.items && m.items.total === e.total ? { ...m.items } : { total: e.total, done: 0, failed: 0 };
    if (e.type === 'flow.item.completed') items.done += 1;
    else if (e.type === 'flow.item.failed') items.failed += 1;
    this.v.methods[e.methodId] = { ...m, items };
  }

  /** The method (or router and route) a listener's `triggeredBy` names. */
  private triggerSource(triggeredBy: string | undefined): { from: string; route?: string } | undefined {
    if (!triggeredBy) return undefined;
    const byName = this.v.book.methodNames[triggeredBy];
    if (byName) return { from: byName };
    if (this.v.methods[triggeredBy]) return { from: triggeredBy };
    const route = /^route[:\s]+(.+)$/.exec(triggeredBy)?.[1] ?? triggeredBy;
    for (const [router, label] of Object.entries(this.v.routes)) if (label === route) return { from: router, route };
    return undefined;
  }

  private methodRouted(e: EventOf<'flow.route'>): void {
    const span = this.record(e);
    if (span) span.sublabel = `${span.sublabel ?? ''} → ${e.route}`;
    this.v.routes[e.methodId] = e.route;
    const m = this.v.methods[e.methodId];
    if (m) this.v.methods[e.methodId] = { ...m, route: e.route };
  }

  private methodEnded(e: EventOf<'flow.method.completed' | 'flow.method.failed'>): void {
    const v = this.v;
    if (!this.spans.has(e.spanId)) this.open(e, 'method', e.methodName);
    const done = e.type === 'flow.method.completed';
    const span = this.close(e, done ? 'done' : 'failed');
    // Wall-clock on the trace: a feedback method's own durationMs leaves out the time it was paused.
    if (span?.end !== undefined) span.durationMs = Math.max(span.end - span.start, e.durationMs);
    // A fork replays the methods before its fork point from the recorded run: no body ran.
    if (span && done && e.restoredFrom) span.sublabel = `${span.sublabel ? `${span.sublabel} · ` : ''}restored`;
    const prev: MethodResult = v.methods[e.methodId] ?? { methodId: e.methodId, name: e.methodName, bodyType: '', status: 'running', calls: 1, spanId: e.spanId };
    if (done) {
      v.methods[e.methodId] = { ...prev, status: 'done', output: e.output, route: e.route ?? prev.route, durationMs: e.durationMs, error: undefined };
      if (e.route) v.routes[e.methodId] = e.route;
      v.flowState = e.state;
    } else {
      v.methods[e.methodId] = { ...prev, status: 'failed', error: e.error, durationMs: e.durationMs };
    }
    this.setMethodStatus(e.methodId, done ? 'done' : 'failed');
  }

  /** Stopped at the run's budget: not a failure, the method runs again when the run resumes. */
  private methodPaused(e: EventOf<'flow.method.paused'>): void {
    if (!this.spans.has(e.spanId)) this.open(e, 'method', e.methodName);
    const span = this.close(e, 'paused');
    if (span) span.sublabel = `${span.sublabel ? `${span.sublabel} · ` : ''}paused at the budget`;
    const prev: MethodResult = this.v.methods[e.methodId] ?? { methodId: e.methodId, name: e.methodName, bodyType: '', status: 'running', calls: 1, spanId: e.spanId };
    this.v.methods[e.methodId] = { ...prev, status: 'paused', error: undefined, durationMs: e.durationMs };
    this.setMethodStatus(e.methodId, 'paused');
  }

  private setMethodStatus(methodId: string, status: NodeRunStatus): void {
    const node = methodNode(methodId);
    this.v.nodeStatus[node] = (this.v.book.waiting[node] ?? 0) > 0 ? 'waiting' : status;
  }

  // ── tasks ──────────────────────────────────────────────────────────────────────────────────────

  private taskStarted(e: EventOf<'task.started'>): void {
    const span = this.open(e, 'task', e.taskName ?? e.taskId, e.agentRole);
    span.taskId = e.taskId;
    span.agentNode = nodeForRole(this.v.roles, e.agentRole);
    this.v.tasks[e.taskId] = { taskId: e.taskId, name: e.taskName, index: e.index, agentRole: e.agentRole, status: 'running', tokens: 0 };
    this.setTaskStatus(e.taskId, 'running');
  }

  private taskEnded(e: EventOf<'task.completed' | 'task.failed'>): void {
    // A replay restores earlier outputs without running them: a span of one event.
    const restored = !this.spans.has(e.spanId);
    if (restored) {
      const span = this.open(e, 'task', this.v.roles.taskNames[e.taskId] ?? e.taskId, `${e.agentRole} · restored`);
      span.taskId = e.taskId;
    }
    this.close(e, TASK_END[e.type]);
    const prev: TaskResult = this.v.tasks[e.taskId] ?? { taskId: e.taskId, status: 'running', tokens: 0 };
    if (e.type === 'task.completed') {
      this.v.tasks[e.taskId] = {
        name: this.v.roles.taskNames[e.taskId],
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
      this.v.tasks[e.taskId] = { ...prev, agentRole: e.agentRole, status: 'failed', error: e.error, durationMs: e.durationMs };
    }
    this.setTaskStatus(e.taskId, e.type === 'task.completed' ? 'done' : 'failed');
  }

  /** Stopped at the run's budget: not a failure, the task runs again when the run resumes. */
  private taskPaused(e: EventOf<'task.paused'>): void {
    const span = this.close(e, 'paused');
    if (span) span.sublabel = `${e.agentRole} · ${e.reason === 'human' ? 'waits for a person' : 'paused at the budget'}`;
    const prev: TaskResult = this.v.tasks[e.taskId] ?? { taskId: e.taskId, status: 'running', tokens: 0 };
    this.v.tasks[e.taskId] = { ...prev, agentRole: e.agentRole, status: 'paused', error: undefined, durationMs: e.durationMs };
    this.setTaskStatus(e.taskId, 'paused');
  }

  private taskSkipped(e: EventOf<'task.skipped'>): void {
    const name = this.v.roles.taskNames[e.taskId];
    const span = this.open(e, 'task', name ?? e.taskId, e.reason);
    span.taskId = e.taskId;
    this.close(e, 'skipped');
    this.v.tasks[e.taskId] = { ...(this.v.tasks[e.taskId] ?? { taskId: e.taskId, tokens: 0 }), name, index: e.index, status: 'skipped', skipReason: e.reason };
    this.setTaskStatus(e.taskId, 'skipped');
  }

  private taskRetrying(e: EventOf<'task.retrying'>): void {
    const task = this.record(e);
    const retry = this.create(
      { id: `${e.spanId}:retry${e.attempt}`, parentId: e.spanId, kind: 'retry', label: `retry ${e.attempt - 1}/${e.maxRetries}`, sublabel: e.reason },
      e,
    );
    this.end(retry, e.ts, 'done');
    this.bump(taskNodeId(e.taskId), 'retries');
    const performer = task ? this.lastAgentChild(task) : undefined;
    if (performer) this.bump(performer, 'retries');
  }

  private lastAgentChild(task: TraceSpan): string | undefined {
    for (let i = task.children.length - 1; i >= 0; i--) {
      const child = this.spans.get(task.children[i]);
      if (child?.kind === 'agent') return child.agentNode;
    }
    return task.agentNode;
  }

  private setTaskStatus(taskId: string, status: NodeRunStatus): void {
    const node = taskNodeId(taskId);
    this.v.nodeStatus[node] = (this.v.book.waiting[node] ?? 0) > 0 ? 'waiting' : status;
  }

  // ── memory ─────────────────────────────────────────────────────────────────────────────────────

  private memoryCommitted(e: EventOf<'memory.write.committed'>): void {
    const parts = [
      e.inserted ? `${e.inserted} new` : '',
      e.updated ? `${e.updated} updated` : '',
      e.deleted ? `${e.deleted} deleted` : '',
      e.skipped ? `${e.skipped} duplicate${e.skipped === 1 ? '' : 's'} skipped` : '',
    ].filter(Boolean);
    this.memoryEnded(e, 'done', parts.length ? parts.join(' · ') : 'nothing to write');
  }

  /** Ends a memory-write span; its sublabel says how. A span missing its start (a partial log) is made from the end event. */
  private memoryEnded(e: EventOf<'memory.write.committed' | 'memory.write.discarded' | 'memory.write.failed'>, status: SpanStatus, outcome: string): void {
    if (!this.spans.has(e.spanId)) this.open(e, 'memory', `memory write · attempt ${e.attempt}`);
    const span = this.close(e, status);
    if (span) span.sublabel = outcome;
  }

  // ── agents ─────────────────────────────────────────────────────────────────────────────────────

  private agentStarted(e: EventOf<'agent.started'>): void {
    const node = nodeForAgentId(this.v.roles, e.agentId);
    const role = normaliseRole(e.role);
    if (!this.v.roles.byRole[role]) this.v.roles = { ...this.v.roles, byRole: { ...this.v.roles.byRole, [role]: node } };
    const span = this.open(e, 'agent', e.role, e.model);
    span.agentNode = node;
    span.taskId = e.taskId;
    if (e.delegatedBy) span.sublabel = `${e.model} · asked by ${e.delegatedBy}`;
    if (e.suggestions) span.sublabel = `${span.sublabel ?? e.model} · suggestions v${e.suggestions.version}`;
    const book = this.v.book;
    book.openAgents[node] = (book.openAgents[node] ?? 0) + 1;
    this.refreshAgent(node);
    const parent = span.parentId ? this.spans.get(span.parentId) : undefined;
    if (parent?.kind === 'delegation') this.delegationsTouched = true;
  }

  private agentEnded(e: EventOf<'agent.completed' | 'agent.failed' | 'agent.paused'>): void {
    const open = this.v.book.open[e.spanId];
    const how = e.type === 'agent.completed' ? 'done' : e.type === 'agent.paused' ? 'paused' : 'failed';
    const span = this.close(e, how);
    if (open && span?.agentNode) this.agentClosed(span.agentNode, how);
  }

  private agentClosed(node: string, how: 'done' | 'failed' | 'paused'): void {
    const book = this.v.book;
    book.openAgents[node] = Math.max(0, (book.openAgents[node] ?? 1) - 1);
    book.agentEnd[node] = how;
    this.refreshAgent(node);
  }

  private refreshAgent(node: string): void {
    const book = this.v.book;
    if ((book.waiting[node] ?? 0) > 0) this.v.nodeStatus[node] = 'waiting';
    else if ((book.openAgents[node] ?? 0) > 0) this.v.nodeStatus[node] = 'running';
    else if (book.agentEnd[node]) this.v.nodeStatus[node] = book.agentEnd[node];
  }

  // ── tools and delegation ───────────────────────────────────────────────────────────────────────

  private toolStarted(e: EventOf<'tool.started'>): void {
    const span = this.open(e, 'tool', e.tool, argsPreview(e.args));
    if (span.taskId) this.bump(taskNodeId(span.taskId), 'toolCalls');
    if (span.agentNode) this.bump(span.agentNode, 'toolCalls');
  }

  private delegationStarted(e: EventOf<'delegation.started'>): void {
    this.open(e, 'delegation', `${e.manager} → ${e.coworker}`, e.kind === 'ask' ? 'ask question' : 'delegate work');
    this.v.book.delegations.push(e.spanId);
    this.delegationsTouched = true;
  }

  private delegationEnded(e: EventOf<'delegation.completed' | 'delegation.failed'>): void {
    if (!this.spans.has(e.spanId)) {
      // An unknown coworker fails the delegation before it starts.
      this.open(e, 'delegation', `${e.manager} → ${e.type === 'delegation.failed' ? e.requestedCoworker : e.coworker}`, e.kind === 'ask' ? 'ask question' : 'delegate work');
    }
    this.close(e, e.type === 'delegation.completed' ? 'done' : 'failed');
    this.dropDelegation(e.spanId);
  }

  private dropDelegation(spanId: string): void {
    const book = this.v.book;
    const i = book.delegations.indexOf(spanId);
    if (i >= 0) book.delegations.splice(i, 1);
    this.delegationsTouched = true;
  }

  private activeDelegations(): ActiveDelegation[] {
    const prev = this.v.activeDelegations;
    const next: ActiveDelegation[] = [];
    for (const id of this.v.book.delegations) {
      const span = this.spans.get(id);
      if (!span) continue;
      const started = span.events[0] as EventOf<'delegation.started'> | undefined;
      const from = span.agentNode ?? nodeForRole(this.v.roles, started?.manager);
      const coworkerSpan = span.children.map((c) => this.spans.get(c)).find((c) => c?.kind === 'agent');
      const to = coworkerSpan?.agentNode ?? nodeForRole(this.v.roles, started?.coworker);
      if (from && to) next.push({ from, to, spanId: id });
    }
    const same = next.length === prev.length && next.every((d, i) => d.from === prev[i].from && d.to === prev[i].to && d.spanId === prev[i].spanId);
    return same ? prev : next;
  }

  // ── humans ─────────────────────────────────────────────────────────────────────────────────────

  private humanRequested(e: EventOf<'human.requested'>): void {
    const label = e.kind === 'tool_approval' ? `approve ${e.tool ?? 'tool'}` : e.kind === 'flow_feedback' ? 'feedback' : 'human review';
    const span = this.open(e, 'human', label, e.agentRole, 'waiting');
    this.v.book.human[e.requestId] = e.spanId;
    for (const node of this.waitingNodes(span)) {
      this.v.book.waiting[node] = (this.v.book.waiting[node] ?? 0) + 1;
      this.refreshNode(node);
    }
  }

  /** The question a crew paused at stays open (`waiting`) until the run resumes with its answer. */
  private reopenRequest(requestId: string): void {
    const found = [...this.spans.values()].find((s) => s.kind === 'human' && (s.events[0] as { requestId?: string } | undefined)?.requestId === requestId);
    if (!found || this.v.book.open[found.id]) return;
    const span = this.mutable(found.id)!;
    span.status = 'waiting';
    span.end = undefined;
    span.durationMs = undefined;
    this.v.book.open[span.id] = true;
    this.v.book.human[requestId] = span.id;
    for (const node of this.waitingNodes(span)) {
      this.v.book.waiting[node] = (this.v.book.waiting[node] ?? 0) + 1;
      this.refreshNode(node);
    }
  }

  private humanAnswered(e: EventOf<'human.answered'>): void {
    // A resumed flow may answer from another process: find the request's span by its id.
    const spanId = this.spans.has(e.spanId) ? e.spanId : (this.v.book.human[e.requestId] ?? e.spanId);
    const open = this.v.book.open[spanId];
    const span = this.close(spanId === e.spanId ? e : { ...e, spanId }, 'done');
    if (span && open) this.humanClosed(span);
  }

  private humanClosed(span: TraceSpan): void {
    const requested = span.events[0] as EventOf<'human.requested'>;
    delete this.v.book.human[requested.requestId];
    for (const node of this.waitingNodes(span)) {
      this.v.book.waiting[node] = Math.max(0, (this.v.book.waiting[node] ?? 1) - 1);
      this.refreshNode(node);
    }
  }

  private waitingNodes(span: TraceSpan): string[] {
    const requested = span.events[0];
    if (requested?.type === 'human.requested' && requested.kind === 'flow_feedback') {
      const methodId = requested.methodId ?? this.methodOf(span);
      return methodId ? [methodNode(methodId)] : [];
    }
    const nodes: string[] = [];
    if (span.taskId) nodes.push(taskNodeId(span.taskId));
    if (span.agentNode) nodes.push(span.agentNode);
    return nodes;
  }

  /** The flow method whose span holds this one. */
  private methodOf(span: TraceSpan): string | undefined {
    for (let s: TraceSpan | undefined = span; s; s = s.parentId ? this.spans.get(s.parentId) : undefined) {
      const started = s.kind === 'method' ? s.events[0] : undefined;
      if (started?.type === 'flow.method.started') return started.methodId;
    }
    return undefined;
  }

  private refreshNode(node: string): void {
    const method = parseMethodNodeId(node);
    if (method !== undefined) return this.setMethodStatus(method, this.v.methods[method]?.status ?? 'running');
    const parsed = parseNodeId(node);
    if (parsed?.kind === 'task') this.setTaskStatus(parsed.id, this.v.tasks[parsed.id]?.status ?? 'running');
    else this.refreshAgent(node);
  }

  // ── spans ──────────────────────────────────────────────────────────────────────────────────────

  /** Opens the span an event starts (or finds it, when a start event repeats a span id). */
  private open(e: RuntimeEvent, kind: SpanKind, label: string, sublabel?: string, status: SpanStatus = 'running'): TraceSpan {
    const existing = this.mutable(e.spanId);
    if (existing) {
      existing.events.push(e);
      return existing;
    }
    const span = this.create({ id: e.spanId, parentId: e.parentSpanId, kind, label, sublabel, status }, e);
    this.v.book.open[span.id] = true;
    return span;
  }

  private create(
    init: { id: string; parentId?: string; kind: SpanKind; label: string; sublabel?: string; status?: SpanStatus },
    e: RuntimeEvent,
  ): TraceSpan {
    const parent = init.parentId ? this.mutable(init.parentId) : undefined;
    const span: TraceSpan = {
      id: init.id,
      parentId: parent ? parent.id : undefined,
      kind: init.kind,
      label: init.label,
      sublabel: init.sublabel,
      status: init.status ?? 'running',
      start: e.ts,
      tokens: 0,
      depth: parent ? parent.depth + 1 : 0,
      children: [],
      events: [e],
      taskId: ('taskId' in e && typeof e.taskId === 'string' ? e.taskId : undefined) ?? parent?.taskId,
      agentNode: parent?.agentNode,
    };
    this.spans.set(span.id, span);
    this.owned.add(span.id);
    if (parent) parent.children.push(span.id);
    else this.v.rootIds.push(span.id);
    return span;
  }

  /** Adds an event to its span without ending it. */
  private record(e: RuntimeEvent): TraceSpan | undefined {
    const span = this.mutable(e.spanId);
    span?.events.push(e);
    return span;
  }

  private close(e: RuntimeEvent, status: SpanStatus): TraceSpan | undefined {
    const span = this.mutable(e.spanId);
    if (!span) return undefined;
    if (span.events[span.events.length - 1] !== e) span.events.push(e);
    this.closeOpenChildren(span, e.ts);
    this.end(span, e.ts, status, e.type === 'llm.completed' ? e.latencyMs : 'durationMs' in e && typeof e.durationMs === 'number' ? e.durationMs : undefined);
    return span;
  }

  /** A span that ends takes whatever is still open inside it along (a cancelled approval, say). */
  private closeOpenChildren(span: TraceSpan, ts: number): void {
    const open = this.v.book.open;
    for (const id of span.children) {
      if (!open[id]) continue;
      const child = this.mutable(id)!;
      this.closeOpenChildren(child, ts);
      this.end(child, ts, 'cancelled');
      if (child.kind === 'human') this.humanClosed(child);
      if (child.kind === 'delegation') this.dropDelegation(child.id);
      if (child.kind === 'agent' && child.agentNode) this.agentClosed(child.agentNode, 'failed');
    }
  }

  private end(span: TraceSpan, ts: number, status: SpanStatus, durationMs?: number): void {
    span.end = ts;
    span.status = status;
    span.durationMs = durationMs ?? ts - span.start;
    delete this.v.book.open[span.id];
  }

  /** The span, copied once per batch so the previous view keeps its own. */
  private mutable(id: string): TraceSpan | undefined {
    const span = this.spans.get(id);
    if (!span || this.owned.has(id)) return span;
    const copy: TraceSpan = { ...span, children: [...span.children], events: [...span.events] };
    this.spans.set(id, copy);
    this.owned.add(id);
    return copy;
  }

  private addTokens(spanId: string, tokens: number): void {
    if (!tokens) return;
    for (let span = this.mutable(spanId); span; span = span.parentId ? this.mutable(span.parentId) : undefined) span.tokens += tokens;
  }

  private bump(node: string, counter: keyof NodeCounters): void {
    const counters = this.v.nodeCounters;
    if (!this.ownedCounters.has(node)) {
      counters[node] = { ...(counters[node] ?? { toolCalls: 0, retries: 0 }) };
      this.ownedCounters.add(node);
    }
    counters[node][counter] += 1;
  }
}

/** A one-line preview of tool arguments for the trace row. */
export function argsPreview(args: unknown): string {
  if (args === undefined) return '';
  let text: string;
  try {
    text = typeof args === 'string' ? args : JSON.stringify(args);
  } catch {
    text = String(args);
  }
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

