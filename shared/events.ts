import type { TokenUsage } from './usage';

/**
 * The one vocabulary for "what happened". The CLI's live output, the run store, the trace panel and
 * the tests all read these events. Spans nest: run → task → agent → (llm | tool | delegation → agent |
 * guardrail | human). A `*.started` event opens a span (its `spanId`); the matching end event carries
 * the same `spanId`; everything inside has that span as `parentSpanId`.
 */
export interface EventEnvelope {
  runId: string;
  /** 1-based, gap-free within a run. */
  seq: number;
  /** Milliseconds since the epoch. */
  ts: number;
  spanId: string;
  parentSpanId?: string;
}

export interface ChatMessageRecord {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: ToolCallRecord[];
  toolCallId?: string;
}
export interface ToolCallRecord {
  id: string;
  name: string;
  /** Arguments as the model sent them (raw JSON text). */
  arguments: string;
}
export type LlmPurpose =
  | 'agent'
  | 'forced_answer'
  | 'summarise'
  | 'guardrail'
  | 'planning'
  | 'memory_extract'
  | 'memory_consolidate'
  /** A flow's `llm` method. */
  | 'flow_llm'
  /** Sorting a flow's human feedback into one of its outcomes. */
  | 'feedback_outcome'
  /** Revising an output with lessons from earlier feedback before asking again. */
  | 'feedback_lessons'
  /** A training or test evaluator (in the session's evaluation run). */
  | 'evaluation'
  /** Turning a JSON-output task's prose reply into JSON: given only the reply, the schema and the instruction. */
  | 'conversion';
/**
 * How a lenient reading of a model's reply changed what the model literally wrote, so a user can see why
 * an answer, a JSON value, a route or a tool call is not exactly the reply text (README "Local models").
 */
export type ReadAs =
  /** The text after the last of several "Final Answer:" markers. */
  | 'last-final-answer'
  /** An unmatched code fence after the final answer was dropped. */
  | 'fenced-final-answer'
  /** JSON read from inside a code fence. */
  | 'fenced-json'
  /** JSON read from among prose or markdown emphasis around it. */
  | 'json-in-prose'
  /** Malformed JSON repaired (jsonrepair). */
  | 'repaired-json'
  /** Tool arguments written as a JSON string holding the object (`"{\"a\": 1}"`), read as the object. */
  | 'json-in-string'
  /** An outcome name written with other case, quotes or punctuation ("Approved."). */
  | 'outcome-name'
  /** An outcome from an "Outcome: X" line. */
  | 'outcome-line'
  /** The only declared outcome word in a free-text reply. */
  | 'outcome-word'
  /** A tool call the model wrote as JSON text instead of a native tool call. */
  | 'text-tool-call'
  /** A tool name written with `**`, backticks, quotes or other case. */
  | 'tool-name-cleaned'
  /** CrewAI's name of a delegation tool ("Delegate work to coworker"). */
  | 'crewai-tool-name'
  /** JSON written by a conversion call from a prose reply (`llm.started` purpose `conversion`). */
  | 'converted-json';
/** When a task's memories reach the store: after its guardrails accept the output (default), or at once (CrewAI). */
export type MemoryCommitPolicy = 'after-guardrail' | 'immediate';
/** What consolidation did with one new memory or one similar existing record. */
export type MemoryWriteAction = 'insert' | 'update' | 'delete' | 'keep';
export type HumanRequestKind = 'task_review' | 'tool_approval' | 'flow_feedback';
export type ToolApprovalDecision = 'approve' | 'deny' | 'always';

/** Why a run was made, when it is part of a training session or a crew test. */
/** How a run's steps are run: a crew's process, a flow, or a session's evaluation (no steps). */
export type RunProcess = 'sequential' | 'hierarchical' | 'flow' | 'evaluation';

export type RunPurpose =
  /** One iteration of a training session or a crew test: an ordinary run of the crew. */
  | {
      kind: 'training' | 'test';
      /** The training session's or test's id. */
      sessionId: string;
      /** 1-based. */
      iteration: number;
      iterations: number;
    }
  /**
   * A training session's or test's own run: its `training.*` / `test.*` events and the evaluator's model
   * calls (`llm.*`, metered like any run's), beside the crew runs of its iterations.
   */
  | { kind: 'evaluation'; of: 'training' | 'test'; sessionId: string }
  /** One reply in a chat with an agent (the chat pane), or a kept conversation replayed by a test (`sessionId`). */
  | { kind: 'chat'; agentId: string; role: string; sessionId?: string };

export interface TaskOutputRecord {
  taskId: string;
  agentRole: string;
  raw: string;
  json?: unknown;
  skipped?: boolean;
}

/**
 * What a replay (fork) started from. A crew re-runs from a task, earlier tasks' outputs edited (task id →
 * text); a flow re-runs from a method, the state at that point edited (state key → JSON value).
 */
export type ReplayOf =
  | { runId: string; fromTaskId: string; edits?: Record<string, string> }
  | { runId: string; fromMethodId: string; edits?: Record<string, unknown> };

/** Where a replay started from, for labels: "task t2" or "method draft". */
export function replayStart(replayOf: { fromTaskId: string } | { fromMethodId: string }): string {
  return 'fromTaskId' in replayOf ? `task ${replayOf.fromTaskId}` : `method ${replayOf.fromMethodId}`;
}

/** A flow method that ran as a stub for imported CrewAI Python (its `flow.stub.reached`), as a run's result lists it. */
export interface StubReached {
  methodId: string;
  methodName: string;
  file: string;
  line: number;
  python: string;
}

export interface EventPayloads {
  'run.started': {
    /** The id and name of the document run: a crew's, or a flow's for process "flow". */
    documentId: string;
    documentName: string;
    process: RunProcess;
    inputs: Record<string, string>;
    /** The document's steps in order: a crew's task ids, a flow's method ids. */
    stepIds: string[];
    /** A replay (fork): the run it started from, the task or method it re-ran from, and what was edited before it. */
    replayOf?: ReplayOf;
    /** A run made by a training session or a crew test (not an ordinary run). */
    purpose?: RunPurpose;
    /** An offline re-run: every model reply (and external tool result) comes from this recorded run. */
    offlineFrom?: string;
  };
  /** `stubsReached`: a flow that ran imported CrewAI stubs (one entry per method): it completed without the project's logic there. */
  'run.completed': { output: string; tokenUsage: TokenUsage; durationMs: number; stubsReached?: StubReached[] };
  'run.failed': { error: string; errorName: string; tokenUsage: TokenUsage; durationMs: number };
  'run.cancelled': { reason: string; durationMs: number };
  /** A flow waits for human feedback; the run's span stays open and `crewdeck resume` (or the app) continues it. */
  /**
   * `methodId`: the step it waits in (a flow's method; a crew's task when its budget was reached).
   * `reason: "budget"`: the run's budget was reached (see `budget.reached`); a higher cap continues it.
   */
  'run.paused': { requestId: string; methodId: string; durationMs: number; reason?: 'budget' | 'human' };
  /** A paused flow continues (in this or another process); events go on under the same spans. */
  /** `offlineFrom`: this session answers its model calls from that recorded run (`resume --offline`). */
  'run.resumed': { requestId: string; pausedForMs: number; offlineFrom?: string };
  /**
   * Before a model call, the run's total reached its budget cap (`which`): the call is not made and the
   * run pauses (`run.paused` with reason "budget"). `spent` and `limit` are in the cap's unit (tokens or US dollars).
   */
  'budget.reached': { which: 'maxTokens' | 'maxCostUsd'; spent: number; limit: number; taskId?: string; methodId?: string; agentRole?: string };

  /** A training session (SPEC §6) starts; its events are in its evaluation run, under one session span. */
  'training.started': { sessionId: string; crewId: string; iterations: number };
  /** One iteration's crew run opened (`runId`, a run of its own). */
  'training.iteration.started': { sessionId: string; iteration: number; iterations: number; runId: string };
  /** The runs are done: the evaluator turns each role's feedback records into suggestions. */
  'training.evaluation.started': { sessionId: string; roles: string[] };
  'training.evaluated': { sessionId: string; role: string; quality: number; summary: string };
  'training.version.created': { sessionId: string; role: string; version: number; status: string };
  'training.completed': { sessionId: string; versions: number; runIds: string[]; tokenUsage: TokenUsage };
  'training.failed': { sessionId: string; error: string; cancelled: boolean };
  /** A crew test starts; like training, its events and the evaluator's calls are in its evaluation run. */
  'test.started': { sessionId: string; crewId: string; iterations: number };
  'test.iteration.started': { sessionId: string; iteration: number; iterations: number; runId: string };
  /** One task of one iteration scored (the evaluator's score, the checks' score, or why neither). */
  'test.evaluated': { sessionId: string; iteration: number; taskId: string; status: string; score?: number; checkScore?: number; reason?: string };
  'test.completed': { sessionId: string; runIds: string[]; tokenUsage: TokenUsage };
  'test.failed': { sessionId: string; error: string };

  /** A flow method starts (its span holds the body's events: a crew's tasks, model calls, the feedback request). */
  /** `call`: how many times this method has run in this run, this time included (loops run a method again). */
  'flow.method.started': { methodId: string; methodName: string; bodyType: string; trigger: string; triggeredBy?: string; input?: string; call: number };
  /** A router chose a route (before its method completes). */
  'flow.route': {
    methodId: string;
    methodName: string;
    route: string;
    reason: string;
    /** The model's reply the route was read from (a classified feedback outcome). */
    rawReply?: string;
    readAs?: ReadAs[];
  };
  'flow.method.completed': {
    methodId: string;
    methodName: string;
    output: string;
    route?: string;
    /** The state after the method, and the top-level fields it changed. */
    state: Record<string, unknown>;
    changed: string[];
    durationMs: number;
    /** A replay (fork): the outcome taken from this earlier run, the body not run again (no model called). */
    restoredFrom?: string;
  };
  'flow.method.failed': { methodId: string; methodName: string; error: string; errorName: string; durationMs: number };
  /** The method stopped at the run's budget (see `budget.reached`): it runs again, from its start, when the run resumes. */
  'flow.method.paused': { methodId: string; methodName: string; reason: 'budget'; message: string; durationMs: number };
  /** One item of a for_each method starts (its span holds the item's body: a crew, an agent, a model call). */
  'flow.item.started': { methodId: string; methodName: string; index: number; total: number; item: string };
  /** `restoredFrom`: the item finished in an earlier session of the run and was not run again. */
  'flow.item.completed': { methodId: string; methodName: string; index: number; total: number; output: string; durationMs: number; restoredFrom?: 'checkpoint' };
  'flow.item.failed': { methodId: string; methodName: string; index: number; total: number; error: string; durationMs: number };
  /** The item stopped at the run's budget (see `budget.reached`): its method pauses, and the item runs again when the run resumes. */
  'flow.item.paused': { methodId: string; methodName: string; index: number; total: number; reason: 'budget'; message: string; durationMs: number };
  /** A stub stood in for an imported CrewAI method that could not be mapped: it passed its input on unchanged. */
  'flow.stub.reached': { methodId: string; methodName: string; python: string; file: string; line: number; message: string };

  'planning.started': { model: string };
  'planning.completed': { plans: Record<string, string>; readAs?: ReadAs[] };
  'planning.failed': { error: string };

  'task.started': {
    taskId: string;
    taskName?: string;
    index: number;
    agentRole: string;
    description: string;
    expectedOutput: string;
    async: boolean;
    context: string;
  };
  'task.completed': {
    taskId: string;
    agentRole: string;
    raw: string;
    json?: unknown;
    tokenUsage: TokenUsage;
    durationMs: number;
    outputFile?: string;
    /** Replay: output restored from the earlier run, no model called. */
    restoredFrom?: string;
    /** How `json` was read from the output, when not as the literal reply. */
    readAs?: ReadAs[];
  };
  'task.failed': { taskId: string; agentRole: string; error: string; errorName: string; durationMs: number };
  /** The task stopped at the run's budget (see `budget.reached`): its partial work is dropped and it runs again when the run resumes. */
  'task.paused': { taskId: string; agentRole: string; reason: 'budget' | 'human'; message: string; durationMs: number };
  'task.skipped': { taskId: string; index: number; reason: string };
  'task.retrying': { taskId: string; attempt: number; maxRetries: number; reason: string; rejectedOutput: string };
  /** Memories recalled for a task and added to its prompt (on the task's span). */
  'memory.recall': {
    taskId: string;
    agentRole: string;
    query: string;
    scope: string;
    records: { id: string; score: number; content: string; reasons: string[] }[];
  };
  /**
   * Opens a memory-write span for one attempt of a task: its output (to be extracted into memories)
   * and what `save_memory` saved during the attempt wait here until the policy lets them through.
   */
  'memory.write.staged': {
    taskId: string;
    agentRole: string;
    attempt: number;
    policy: MemoryCommitPolicy;
    scope: string;
    /** Contents saved with `save_memory` during the attempt. */
    saved: string[];
    /** Whether the attempt's output will be extracted into memories. */
    extract: boolean;
  };
  /** A new memory was not written because an equal one exists (cosine ≥ 0.98). */
  'memory.write.skipped': { taskId: string; content: string; reason: string; duplicateOf: string; similarity: number };
  /** One consolidation decision, with its reason: for a new memory (insert/keep) or an existing record (update/delete/keep). */
  'memory.write.decision': {
    taskId: string;
    action: MemoryWriteAction;
    /** The new memory's content, or the existing record's new content for an update. */
    content: string;
    /** The record written, changed or removed. */
    recordId?: string;
    /** Existing records compared (similarity ≥ 0.85). */
    similar: { id: string; similarity: number }[];
    reason: string;
    decidedBy: 'rule' | 'model' | 'fallback';
    /** How the memory model's consolidation reply was read, when not as the literal reply (decidedBy 'model'). */
    readAs?: ReadAs[];
  };
  'memory.write.committed': {
    taskId: string;
    attempt: number;
    inserted: number;
    updated: number;
    deleted: number;
    skipped: number;
    recordIds: string[];
    /** How the memory model's extraction reply was read, when not as the literal reply. */
    readAs?: ReadAs[];
  };
  /** The attempt's output was rejected: nothing staged for it reaches the store. */
  'memory.write.discarded': { taskId: string; attempt: number; reason: string; dropped: number };
  /** Writing failed; the task itself goes on. */
  'memory.write.failed': { taskId: string; attempt: number; error: string };
  /** Knowledge chunks retrieved for a task and added to its prompt (on the task's span). */
  'knowledge.retrieved': {
    taskId: string;
    agentRole: string;
    query: string;
    chunks: { id: string; source: string; score: number; content: string }[];
  };

  'agent.started': {
    agentId: string;
    role: string;
    taskId: string;
    tools: string[];
    model: string;
    mode: 'native' | 'react' | 'none';
    delegatedBy?: string;
    /** The role's active suggestion version, appended to the task prompt as instructions. */
    suggestions?: { version: number; count: number };
  };
  'agent.completed': { role: string; output: string; iterations: number; tokenUsage: TokenUsage; durationMs: number; readAs?: ReadAs[] };
  'agent.failed': { role: string; error: string; errorName: string; durationMs: number };
  /** The agent's next model call found the run's budget reached: it stops with its task (`task.paused`). */
  'agent.paused': { role: string; reason: 'budget' | 'human'; message: string; durationMs: number };

  'llm.started': {
    model: string;
    provider: string;
    purpose: LlmPurpose;
    agentRole?: string;
    messages: ChatMessageRecord[];
    tools: { name: string; description: string; parameters: unknown }[];
  };
  /**
   * A streamed piece of the reply, for live listeners only (see `isLiveOnly`): it is not stored, since
   * `llm.completed` carries the whole text, and it takes no seq of its own.
   */
  'llm.chunk': { delta: string };
  'llm.completed': {
    model: string;
    content: string;
    toolCalls: ToolCallRecord[];
    finishReason: string;
    usage: TokenUsage;
    latencyMs: number;
  };
  'llm.failed': { model: string; error: string; status?: number; willRetry: boolean; attempt: number };
  /**
   * One request to an OpenAI-compatible embedder (knowledge ingest and search, memory recall and writes,
   * the search tools): a one-event span under the span it was made for (a task's, a flow method's, the
   * run's). Metered like a model call: `usage` (tokens, cost) is in the run's totals and counts against its budget.
   * `tokensEstimated`: the server reported no usage, so the tokens are estimated from the texts' length.
   */
  'embedding.completed': { model: string; texts: number; usage: TokenUsage; durationMs: number; taskId?: string; agentRole?: string; methodId?: string; tokensEstimated?: boolean };

  /** `toolId`: the tool's id in the document (`web_search`) when the model knows it by another name (a ToolRef `name`). */
  'tool.started': { tool: string; args: unknown; agentRole: string; callId: string; readAs?: ReadAs[]; toolId?: string };
  'tool.completed': { tool: string; result: string; durationMs: number; resultAsAnswer: boolean };
  'tool.failed': { tool: string; error: string; durationMs: number };
  /** `repeated_call`: a ReAct agent repeated the call it just made (same tool, same input); the tool did not run. */
  'tool.blocked': { tool: string; reason: string; by: 'hook' | 'approval' | 'usage_limit' | 'repeated_call' };
  'tool.cached': { tool: string; result: string };
  /** What a tool's server process wrote to stderr during the call (MCP stdio servers, the Python bridge): for the trace, never the model. */
  'tool.output': { tool: string; stream: 'stderr'; text: string };

  'delegation.started': { kind: 'delegate' | 'ask'; manager: string; coworker: string; requestedCoworker: string; task: string; context: string };
  'delegation.completed': { kind: 'delegate' | 'ask'; manager: string; coworker: string; result: string; durationMs: number };
  'delegation.failed': { kind: 'delegate' | 'ask'; manager: string; requestedCoworker: string; error: string; validRoles: string[] };

  'guardrail.started': { taskId: string; index: number; guardrailType: string; attempt: number };
  'guardrail.passed': { taskId: string; index: number; guardrailType: string; attempt: number; replaced: boolean; readAs?: ReadAs[] };
  'guardrail.failed': { taskId: string; index: number; guardrailType: string; attempt: number; reason: string; readAs?: ReadAs[] };

  'human.requested': {
    requestId: string;
    kind: HumanRequestKind;
    taskId?: string;
    agentRole: string;
    prompt: string;
    output?: string;
    tool?: string;
    args?: unknown;
    /** Flow feedback: the labels the feedback is classified into, and the one empty feedback picks. */
    outcomes?: string[];
    defaultOutcome?: string;
    methodId?: string;
  };
  'human.answered': { requestId: string; kind: HumanRequestKind; feedback?: string; decision?: ToolApprovalDecision; outcome?: string };
}

export type RuntimeEventType = keyof EventPayloads;
export type RuntimeEvent = { [K in RuntimeEventType]: EventEnvelope & { type: K } & EventPayloads[K] }[RuntimeEventType];
export type EventOf<K extends RuntimeEventType> = Extract<RuntimeEvent, { type: K }>;
/** What an emitter is given; it adds the envelope. */
export type EventInput = { [K in RuntimeEventType]: { type: K } & EventPayloads[K] }[RuntimeEventType];

/**
 * Events that reach live listeners but are never stored. Each carries the seq of the last stored event
 * before it (no seq of its own), so stored seqs stay 1..n without gaps.
 */
export const LIVE_ONLY_EVENTS: ReadonlySet<RuntimeEventType> = new Set<RuntimeEventType>(['llm.chunk']);
export function isLiveOnly(e: { type: RuntimeEventType }): boolean {
  return LIVE_ONLY_EVENTS.has(e.type);
}

export const RUN_END_EVENTS = ['run.completed', 'run.failed', 'run.cancelled'] as const;
export function isRunEnd(e: RuntimeEvent): boolean {
  return (RUN_END_EVENTS as readonly string[]).includes(e.type);
}
