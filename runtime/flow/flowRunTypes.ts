import type { StubReached } from '../../shared/events';
import type { Budget, BudgetPending } from '../../shared/model/budget';
import type { FlowDocument } from '../../shared/model/flow';
import type { TokenUsage } from '../../shared/usage';
import type { EventListener } from '../events/span';
import type { RunStore } from '../store/types';
import type { FlowDeps } from './bodies/types';
import type { FlowFork } from './flowFork';

export interface FlowRunResult {
  runId: string;
  status: 'completed' | 'failed' | 'cancelled' | 'paused';
  output: string;
  state: Record<string, unknown>;
  tokenUsage: TokenUsage;
  /** What a paused flow is waiting for: feedback, or (`kind: "budget"`) a higher cap. */
  pending?: { kind?: undefined; requestId: string; methodId: string; methodName: string; message: string; output: string; outcomes?: string[]; defaultOutcome?: string } | BudgetPending;
  error?: { name: string; message: string };
  /** Imported CrewAI stubs the run reached (in any of its sessions), one per method; absent when none. */
  stubsReached?: StubReached[];
}

export interface FlowRunRequest {
  runId: string;
  doc: FlowDocument;
  documentPath?: string;
  deps: FlowDeps;
  store?: RunStore;
  signal?: AbortSignal;
  onEvent?: EventListener;
  now: () => number;
  /** An offline re-run of this recorded run (marked in `run.started`). */
  offlineFrom?: string;
  /** Caps over the document's `budget` (each field replaces the document's; a resume's, the saved ones). */
  budget?: Budget;
  /** A fork of a recorded run from one of its methods (recorded in `run.started.replayOf`). */
  fork?: FlowFork;
}
