import { methodNodeId as methodNode, parseMethodNodeId, parseNodeId, taskNodeId } from '../../model/nodeIds';
import type { EventOf, RuntimeEvent } from '../../../shared/events';
import { nodeForRole } from '../roleDirectory';
import type { ActiveDelegation, NodeCounters, NodeRunStatus, RunView, SpanKind, SpanStatus, TraceSpan } from '../runView';

/**
 * A run view being changed by one batch of events (renderer/stores/reduceRunEvent.ts): the spans, node
 * statuses and bookkeeping the event families' folds (./*Fold.ts) share. Everything the previous view
 * holds is copied before it is changed, each object at most once per batch.
 */
export class RunDraft {
  readonly v: RunView;
  readonly spans: Map<string, TraceSpan>;
  private readonly owned = new Set<string>();
  private readonly ownedCounters = new Set<string>();
  /** A delegation began or ended in this batch: the active delegations are worked out again at its end. */
  delegationsTouched = false;

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

  // ── flow methods ───────────────────────────────────────────────────────────────────────────────

  setMethodStatus(methodId: string, status: NodeRunStatus): void {
    const node = methodNode(methodId);
    this.v.nodeStatus[node] = (this.v.book.waiting[node] ?? 0) > 0 ? 'waiting' : status;
  }

  // ── tasks ──────────────────────────────────────────────────────────────────────────────────────

  setTaskStatus(taskId: string, status: NodeRunStatus): void {
    const node = taskNodeId(taskId);
    this.v.nodeStatus[node] = (this.v.book.waiting[node] ?? 0) > 0 ? 'waiting' : status;
  }

  // ── agents ─────────────────────────────────────────────────────────────────────────────────────

  agentClosed(node: string, how: 'done' | 'failed' | 'paused'): void {
    const book = this.v.book;
    book.openAgents[node] = Math.max(0, (book.openAgents[node] ?? 1) - 1);
    book.agentEnd[node] = how;
    this.refreshAgent(node);
  }

  refreshAgent(node: string): void {
    const book = this.v.book;
    if ((book.waiting[node] ?? 0) > 0) this.v.nodeStatus[node] = 'waiting';
    else if ((book.openAgents[node] ?? 0) > 0) this.v.nodeStatus[node] = 'running';
    else if (book.agentEnd[node]) this.v.nodeStatus[node] = book.agentEnd[node];
  }

  // ── tools and delegation ───────────────────────────────────────────────────────────────────────

  dropDelegation(spanId: string): void {
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
    const same = next.length === prev.length && next.every((d, i) => d.from === prev[i]?.from && d.to === prev[i]?.to && d.spanId === prev[i]?.spanId);
    return same ? prev : next;
  }

  // ── humans ─────────────────────────────────────────────────────────────────────────────────────

  /** The question a crew paused at stays open (`waiting`) until the run resumes with its answer. */
  reopenRequest(requestId: string): void {
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

  humanClosed(span: TraceSpan): void {
    const requested = span.events[0] as EventOf<'human.requested'>;
    delete this.v.book.human[requested.requestId];
    for (const node of this.waitingNodes(span)) {
      this.v.book.waiting[node] = Math.max(0, (this.v.book.waiting[node] ?? 1) - 1);
      this.refreshNode(node);
    }
  }

  waitingNodes(span: TraceSpan): string[] {
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
  methodOf(span: TraceSpan): string | undefined {
    for (let s: TraceSpan | undefined = span; s; s = s.parentId ? this.spans.get(s.parentId) : undefined) {
      const started = s.kind === 'method' ? s.events[0] : undefined;
      if (started?.type === 'flow.method.started') return started.methodId;
    }
    return undefined;
  }

  refreshNode(node: string): void {
    const method = parseMethodNodeId(node);
    if (method !== undefined) return this.setMethodStatus(method, this.v.methods[method]?.status ?? 'running');
    const parsed = parseNodeId(node);
    if (parsed?.kind === 'task') this.setTaskStatus(parsed.id, this.v.tasks[parsed.id]?.status ?? 'running');
    else this.refreshAgent(node);
  }

  // ── spans ──────────────────────────────────────────────────────────────────────────────────────

  /** Opens the span an event starts (or finds it, when a start event repeats a span id). */
  open(e: RuntimeEvent, kind: SpanKind, label: string, sublabel?: string, status: SpanStatus = 'running'): TraceSpan {
    const existing = this.mutable(e.spanId);
    if (existing) {
      existing.events.push(e);
      return existing;
    }
    const span = this.create({ id: e.spanId, parentId: e.parentSpanId, kind, label, sublabel, status }, e);
    this.v.book.open[span.id] = true;
    return span;
  }

  create(
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
  record(e: RuntimeEvent): TraceSpan | undefined {
    const span = this.mutable(e.spanId);
    span?.events.push(e);
    return span;
  }

  close(e: RuntimeEvent, status: SpanStatus): TraceSpan | undefined {
    const span = this.mutable(e.spanId);
    if (!span) return undefined;
    if (span.events[span.events.length - 1] !== e) span.events.push(e);
    this.closeOpenChildren(span, e.ts);
    this.end(span, e.ts, status, e.type === 'llm.completed' ? e.latencyMs : 'durationMs' in e && typeof e.durationMs === 'number' ? e.durationMs : undefined);
    return span;
  }

  /** A span that ends takes whatever is still open inside it along (a cancelled approval, say). */
  closeOpenChildren(span: TraceSpan, ts: number): void {
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

  end(span: TraceSpan, ts: number, status: SpanStatus, durationMs?: number): void {
    span.end = ts;
    span.status = status;
    span.durationMs = durationMs ?? ts - span.start;
    delete this.v.book.open[span.id];
  }

  /** The span, copied once per batch so the previous view keeps its own. */
  mutable(id: string): TraceSpan | undefined {
    const span = this.spans.get(id);
    if (!span || this.owned.has(id)) return span;
    const copy: TraceSpan = { ...span, children: [...span.children], events: [...span.events] };
    this.spans.set(id, copy);
    this.owned.add(id);
    return copy;
  }

  addTokens(spanId: string, tokens: number): void {
    if (!tokens) return;
    for (let span = this.mutable(spanId); span; span = span.parentId ? this.mutable(span.parentId) : undefined) span.tokens += tokens;
  }

  bump(node: string, counter: keyof NodeCounters): void {
    const counters = this.v.nodeCounters;
    let owned = counters[node];
    if (!owned || !this.ownedCounters.has(node)) {
      owned = counters[node] = { ...(owned ?? { toolCalls: 0, retries: 0 }) };
      this.ownedCounters.add(node);
    }
    owned[counter] += 1;
  }
}
