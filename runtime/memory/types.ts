import type { MemoryCommitPolicy } from '../../shared/events';
import type { Span } from '../events/span';
import type { ToolMemory } from '../tools/tool';

/**
 * Memory records and the interfaces around them (SPEC §5). Stored in LanceDB at
 * `<workspace>/.crewdeck/memory`; vectors come from an Embedder.
 */

/** Turns texts into vectors of one fixed dimension (unit length). */
export interface Embedder {
  /** Stable name of the model/settings, stored with the table so vectors of different embedders never mix. */
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export type MemorySourceKind = 'task' | 'tool' | 'manual' | 'lesson';
export type MemoryStatus = 'active' | 'pending_review';

export interface MemorySource {
  kind: MemorySourceKind;
  runId?: string;
  taskId?: string;
  agentRole?: string;
}

/** An earlier content of a record, kept when it is updated (CrewAI overwrites it). */
export interface MemoryRevision {
  content: string;
  updatedAt: number;
  /** Why it changed (the consolidation decision's reason, or "edited by hand"). */
  reason: string;
}

export interface MemoryRecord {
  id: string;
  content: string;
  /** A path such as `/crew/<crewId>/agent/<role>`; recall filters by prefix. */
  scope: string;
  categories: string[];
  /** 0..1 */
  importance: number;
  createdAt: number;
  updatedAt: number;
  lastAccessedAt: number;
  source: MemorySource;
  private: boolean;
  metadata: Record<string, unknown>;
  status: MemoryStatus;
  history: MemoryRevision[];
}

export interface NewMemory {
  content: string;
  scope: string;
  categories?: string[];
  importance?: number;
  source: MemorySource;
  private?: boolean;
  metadata?: Record<string, unknown>;
  status?: MemoryStatus;
}

export interface RecallWeights {
  semantic: number;
  recency: number;
  importance: number;
}

export const DEFAULT_RECALL_WEIGHTS: RecallWeights = { semantic: 0.5, recency: 0.3, importance: 0.2 };
export const RECENCY_HALF_LIFE_DAYS = 30;

export interface RecallQuery {
  query: string;
  limit?: number;
  /** Only records whose scope is this scope or below it. */
  scope?: string;
  /** Only records with at least one of these categories. */
  categories?: string[];
  /** Private records are left out unless asked for. */
  includePrivate?: boolean;
  weights?: RecallWeights;
  /** Leave out records whose semantic similarity to the query is below this (0..1; default 0: none). */
  minSemantic?: number;
  /** Count this as a use of the records found (`lastAccessedAt`, which recency scores). Default true; a person browsing is not a use. */
  touch?: boolean;
}

export interface RecallMatch {
  record: MemoryRecord;
  /** Weighted score in 0..1. */
  score: number;
  /** The parts of the score, each in 0..1. */
  semantic: number;
  recency: number;
  importance: number;
  /** Why it matched, for people: "similar meaning (0.82)", "shares words: solar, panel", "recent (2 days)". */
  reasons: string[];
}

/** What recall needs of a memory store (MemoryStore implements it). */
export interface MemoryRecall {
  recall(query: RecallQuery): Promise<RecallMatch[]>;
  /** Writes what recall deferred (access times) now; a run calls it when it ends. */
  flush?(): Promise<void>;
}

/** A finished attempt of a task, as memory extraction reads it. */
export interface ExtractionInput {
  taskId: string;
  agentRole: string;
  description: string;
  expectedOutput: string;
  output: string;
}

/** What happens to one attempt's memories once its guardrails have spoken. */
export interface StagedAttempt {
  /** The output as accepted (a guardrail may have replaced it) is what gets extracted. */
  accept(output: string): Promise<void>;
  reject(reason: string): Promise<void>;
}

/** A run's memory as the rest of the run sees it (RunMemory implements it). */
export interface RunMemoryAccess extends ToolMemory {
  readonly store: MemoryRecall;
  readonly scope: string;
  readonly policy: MemoryCommitPolicy;
  /** How many memories a task recalls. */
  readonly recallLimit: number;
  /** Waits until no write is in flight. */
  drain(): Promise<void>;
  /** At the end of a crew: drains, then has the store write what recall deferred. */
  finish(): Promise<void>;
  stage(span: Span, attempt: { input: ExtractionInput; attempt: number; extract: boolean }): StagedAttempt;
  discardUnstaged(span: Span, taskId: string, agentRole: string, reason: string): void;
}
