import type { EventPayloads } from './events/eventCatalog';

/**
 * The one vocabulary for "what happened". The CLI's live output, the run store, the trace panel and
 * the tests all read these events. Spans nest: run → task → agent → (llm | tool | delegation → agent |
 * guardrail | human). A `*.started` event opens a span (its `spanId`); the matching end event carries
 * the same `spanId`; everything inside has that span as `parentSpanId`. Each event's payload is defined
 * once, as a schema in its family's module (shared/events/), and its type inferred from it.
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

export type { ChatMessageRecord, HumanRequestKind, ReadAs, ToolApprovalDecision, ToolCallRecord } from './events/eventParts';
export type { LlmPurpose } from './events/llmEvents';
export type { MemoryCommitPolicy, MemoryWriteAction } from './events/memoryEvents';
export type { ReplayOf, RunProcess, RunPurpose, StubReached } from './events/runEvents';
export type { EventFamily, EventPayloads, EventTypeOf } from './events/eventCatalog';
export { ignoredFamily } from './events/eventCatalog';

export interface TaskOutputRecord {
  taskId: string;
  agentRole: string;
  raw: string;
  json?: unknown;
  skipped?: boolean;
}

/** Where a replay started from, for labels: "task t2" or "method draft". */
export function replayStart(replayOf: { fromTaskId: string } | { fromMethodId: string }): string {
  return 'fromTaskId' in replayOf ? `task ${replayOf.fromTaskId}` : `method ${replayOf.fromMethodId}`;
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
