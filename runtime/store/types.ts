import type { RuntimeEvent } from '../../shared/events';
import type { TokenUsage } from '../../shared/usage';

export type RunStatus = 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted';

export interface NewRun {
  id: string;
  kind: 'crew' | 'flow';
  documentId: string;
  name: string;
  /** The document exactly as it was run (after defaults), for history and replay. */
  document: unknown;
  /** Path of the document relative to the workspace, when it came from a file. */
  documentPath?: string;
  inputs: Record<string, string>;
  replayOf?: RunReplayOf;
  startedAt: number;
}

/** What a replay (fork) started from: a crew's task, or a flow's method. */
export type RunReplayOf = { runId: string; fromTaskId: string } | { runId: string; fromMethodId: string };

export interface RunSummary {
  id: string;
  kind: 'crew' | 'flow';
  documentId: string;
  name: string;
  status: RunStatus;
  startedAt: number;
  endedAt?: number;
  durationMs?: number;
  tokenUsage: TokenUsage;
  replayOf?: RunReplayOf;
  error?: string;
  /** Path of the document relative to the workspace (forward slashes), when it came from a file. */
  documentPath?: string;
  /** An offline re-run: the recorded run its model replies came from. */
  offlineFrom?: string;
}

export interface RunRecord extends RunSummary {
  document: unknown;
  inputs: Record<string, string>;
  output?: string;
}

export interface StoredTaskOutput {
  runId: string;
  taskId: string;
  index: number;
  agentRole: string;
  raw: string;
  json?: unknown;
  skipped: boolean;
  tokenUsage: TokenUsage;
}

export interface RunEnd {
  status: Exclude<RunStatus, 'running' | 'interrupted'>;
  output?: string;
  error?: string;
  tokenUsage: TokenUsage;
  endedAt: number;
}

/** Persistent record of runs, their events and task outputs. */
export interface RunStore {
  createRun(run: NewRun): void;
  /**
   * Persists an event. Implementations may group the events of one event-loop turn into one commit,
   * but must commit them before the turn ends, before any other call, and at process exit.
   */
  appendEvent(event: RuntimeEvent): void;
  /** Commits the appended events now (before a tool or script runs); a failure surfaces on the next call, as a grouped commit's would. */
  commitPending(): void;
  /** Persists a task's output; grouped with the events of the same turn, in the same commit, like `appendEvent`. */
  saveTaskOutput(output: StoredTaskOutput): void;
  finishRun(runId: string, end: RunEnd): void;
  getRun(runId: string): RunRecord | undefined;
  /** Newest first; with `documentId`, only that document's runs (all of them, however many others there are). */
  listRuns(options?: { limit?: number; offset?: number; documentId?: string }): RunSummary[];
  /** Events with seq > afterSeq, in order; at most `limit` of them (all when omitted or negative). */
  events(runId: string, afterSeq?: number, limit?: number): RuntimeEvent[];
  taskOutputs(runId: string): StoredTaskOutput[];
  /** The seq of the run's last event (0 when it has none). */
  lastSeq(runId: string): number;
  /**
   * A run's checkpoint (a flow's state, completed methods, pending feedback; a crew's position). Saving
   * one replaces the last and drops the entries appended to it.
   */
  saveCheckpoint(runId: string, checkpoint: unknown): void;
  loadCheckpoint(runId: string): unknown;
  /**
   * Appends a change to the run's checkpoint (a flow's finished item, a method's state operations), so
   * a checkpoint costs what changed, not the whole run each time. Grouped and committed like `appendEvent`.
   */
  appendCheckpointEntry(runId: string, entry: unknown): void;
  /** The entries appended since the checkpoint was last saved, in the order they were appended. */
  checkpointEntries(runId: string): unknown[];
  /** A paused or interrupted run continues in this process: status `running` again, owned by this pid. */
  reopenRun(runId: string): void;
  close(): void;
}
