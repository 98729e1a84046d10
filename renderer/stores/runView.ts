import type { ReplayOf, RunProcess, RuntimeEvent, StubReached } from '../../shared/events';
import { emptyUsage, type TokenUsage } from '../../shared/usage';
import { roleDirectory, type RoleDirectory } from './roleDirectory';

/** What a canvas node shows while (or after) a run touches it. */
/** `paused`: stopped at the run's budget; it runs again when the run resumes with a higher cap. */
export type NodeRunStatus = 'running' | 'done' | 'failed' | 'waiting' | 'skipped' | 'paused';

export interface NodeCounters {
  toolCalls: number;
  retries: number;
}

/** An open delegation, drawn on the canvas as an animated edge between two node ids. */
export interface ActiveDelegation {
  from: string;
  to: string;
  spanId: string;
}

export type SpanKind = 'run' | 'planning' | 'method' | 'item' | 'task' | 'agent' | 'llm' | 'tool' | 'delegation' | 'guardrail' | 'human' | 'retry' | 'memory';
/** `discarded`: a memory write whose attempt was rejected, so nothing it staged reached the store. */
export type SpanStatus = 'running' | 'done' | 'failed' | 'cancelled' | 'skipped' | 'waiting' | 'blocked' | 'cached' | 'discarded' | 'paused';

/** One row of the trace tree. Immutable once a fold has returned it. */
export interface TraceSpan {
  id: string;
  parentId?: string;
  kind: SpanKind;
  label: string;
  /** Secondary text (agent role, model, tool arguments…). */
  sublabel?: string;
  status: SpanStatus;
  start: number;
  end?: number;
  durationMs?: number;
  /** Tokens of every model call inside this span, inclusive. */
  tokens: number;
  depth: number;
  children: string[];
  /** The span's own events in order (streamed `llm.chunk`s are folded into `streamed`). */
  events: RuntimeEvent[];
  /** The task this span works on (inherited from its ancestors). */
  taskId?: string;
  /** Canvas node id of the agent doing this work: the nearest agent span at or above it. */
  agentNode?: string;
  streamed?: string;
}

export interface TaskResult {
  taskId: string;
  name?: string;
  index?: number;
  agentRole?: string;
  status: NodeRunStatus;
  raw?: string;
  json?: unknown;
  tokens: number;
  durationMs?: number;
  outputFile?: string;
  restored?: boolean;
  error?: string;
  skipReason?: string;
}

/** `paused`: a flow waits for human feedback; its spans stay open until it is resumed. */
export type RunViewStatus = 'pending' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

/** One flow method as the run has seen it (its latest call wins; `calls` counts every call). */
export interface MethodResult {
  methodId: string;
  name: string;
  bodyType: string;
  status: NodeRunStatus;
  /** How many times the method started (a loop through routes calls a method more than once). */
  calls: number;
  /** Span of the latest call. */
  spanId: string;
  /** A for_each call's items: how many, and how many finished or failed so far. */
  items?: { total: number; done: number; failed: number };
  output?: string;
  route?: string;
  error?: string;
  durationMs?: number;
}

/**
 * A listen condition that fired: `to` started because `from` completed (or, with `route`, because
 * router `from` chose that route). The latest firing per listener is kept.
 */
export interface FlowTrigger {
  from: string;
  to: string;
  route?: string;
  /** The listener's call this firing started. */
  call: number;
}

/** The feedback a paused flow waits for. */
export interface PausedFor {
  requestId: string;
  /** The flow method (or, at a budget, the crew task) it waits at. */
  methodId: string;
  /** `budget`: paused at its budget cap (a higher cap continues it); `human`: a crew's task review or tool approval. */
  reason?: 'budget' | 'human';
}

/** Bookkeeping the node statuses are derived from. */
export interface RunBook {
  /** Open agent spans per agent node. */
  openAgents: Record<string, number>;
  /** How each agent node's last execution ended. */
  agentEnd: Record<string, 'done' | 'failed' | 'paused'>;
  /** Open human requests per node (agent and task). */
  waiting: Record<string, number>;
  /** Spans started and not yet ended. */
  open: Record<string, true>;
  /** Open delegation span ids, in start order. */
  delegations: string[];
  /** Open human requests: requestId → span id. */
  human: Record<string, string>;
  /** Flow method name → method id (listeners name the methods they follow). */
  methodNames: Record<string, string>;
}

/** Everything the run panel and the canvas overlay show about one run: the fold of its events. */
export interface RunView {
  runId: string;
  status: RunViewStatus;
  /** The run's document (a crew's or a flow's), from `run.started`. */
  documentId?: string;
  documentName?: string;
  process?: RunProcess;
  inputs: Record<string, string>;
  /** Task ids of a crew, method ids of a flow, in order. */
  stepIds: string[];
  replayOf?: ReplayOf;
  startedAt?: number;
  endedAt?: number;
  durationMs?: number;
  /** Live sum of model usage; the run's own totals once it ends. */
  tokenUsage: TokenUsage;
  output?: string;
  error?: string;
  lastSeq: number;
  /** Timestamp of the latest event folded in. */
  lastTs?: number;
  eventCount: number;
  /** Bumped by every fold that changed something; cheap change detection for memos. */
  version: number;
  spans: ReadonlyMap<string, TraceSpan>;
  rootIds: string[];
  tasks: Record<string, TaskResult>;
  nodeStatus: Record<string, NodeRunStatus>;
  nodeCounters: Record<string, NodeCounters>;
  activeDelegations: ActiveDelegation[];
  roles: RoleDirectory;
  /** Flow runs: per method id, what its calls did. */
  methods: Record<string, MethodResult>;
  /** Flow runs: the route each router chose last, by router method id. */
  routes: Record<string, string>;
  /** Flow runs: which listen conditions fired, by listener method id. */
  triggers: Record<string, FlowTrigger>;
  /** Flow runs: the state after the latest completed method. */
  flowState?: Record<string, unknown>;
  /** Set while the flow is paused for feedback. */
  pausedFor?: PausedFor;
  /** Flow runs: the imported CrewAI stubs that ran (`flow.stub.reached`), one per method, in the order reached. */
  stubsReached: StubReached[];
  book: RunBook;
}

/**
 * An empty view for a run. `document` is the run's stored crew document (`runs.get`), used to map
 * roles in delegation events to agent ids; without it roles are learnt from `agent.started` events.
 */
export function emptyRunView(runId: string, document?: unknown): RunView {
  return {
    runId,
    status: 'pending',
    inputs: {},
    stepIds: [],
    tokenUsage: emptyUsage(),
    lastSeq: 0,
    eventCount: 0,
    version: 0,
    spans: new Map(),
    rootIds: [],
    tasks: {},
    nodeStatus: {},
    nodeCounters: {},
    activeDelegations: [],
    roles: roleDirectory(document, {}),
    methods: {},
    routes: {},
    triggers: {},
    stubsReached: [],
    book: { openAgents: {}, agentEnd: {}, waiting: {}, open: {}, delegations: [], human: {}, methodNames: {} },
  };
}
