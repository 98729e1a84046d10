import type { RuntimeEvent, StubReached } from '../../shared/events';
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
  /** A flow's imported CrewAI stubs that ran (from its `flow.stub.reached` events), one per method; absent when none. */
  stubsReached?: StubReached[];
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

/** A batch as stored: `interrupted` when it was running in a process that died (its rows not started are resumable). */
export type BatchStatus = 'running' | 'completed' | 'failed' | 'cancelled' | 'interrupted';
export type BatchRowStatus = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

/** A crew run once per row of inputs (`crewdeck run --inputs-file`, the app's *Run for each row…*). */
export interface NewBatch {
  id: string;
  documentId: string;
  name: string;
  /** The crew's path relative to the workspace (a resume runs the file as it is then). */
  documentPath: string;
  concurrency: number;
  /** Where the rows came from (an inputs file), for messages. */
  source?: string;
  /** A model profile used over the crew's own. */
  model?: string;
  /** Inputs every row gets (`--input`); a row's own values win. */
  inputs?: Record<string, string>;
  /** In row order, each with the id its run will have. */
  rows: { inputs: Record<string, string>; runId: string }[];
  createdAt: number;
}

export interface BatchRowRecord {
  /** 0-based. */
  index: number;
  inputs: Record<string, string>;
  status: BatchRowStatus;
  /** The row's run (its latest, after a resume ran the row again). */
  runId: string;
  error?: string;
}

export interface BatchSummary {
  id: string;
  documentId: string;
  name: string;
  documentPath: string;
  status: BatchStatus;
  concurrency: number;
  source?: string;
  model?: string;
  createdAt: number;
  endedAt?: number;
  /** Rows by status. */
  rows: { total: number } & Record<BatchRowStatus, number>;
}

export interface BatchRecord extends Omit<BatchSummary, 'rows'> {
  inputs: Record<string, string>;
  rows: BatchRowRecord[];
}

/** Stored batches: the rows, each row's status and run, so a batch outlives the process running it. */
export interface BatchStore {
  createBatch(batch: NewBatch): void;
  /** A row moved (its run opened, paused, ended; a resume gave it a new run). Grouped and committed like `appendEvent`. */
  updateBatchRow(batchId: string, index: number, change: { status: BatchRowStatus; runId?: string; error?: string }): void;
  /** Every row ended (or the batch was stopped). */
  finishBatch(batchId: string, status: Exclude<BatchStatus, 'running' | 'interrupted'>, endedAt: number): void;
  /** A resume: `running` again, owned by this process. Refused (BatchNotResumable) while another live process runs it. */
  reopenBatch(batchId: string): void;
  getBatch(batchId: string): BatchRecord | undefined;
  /** Newest first. */
  listBatches(options?: { limit?: number; offset?: number }): BatchSummary[];
}

/** Persistent record of runs, their events and task outputs. */
export interface RunStore extends BatchStore {
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
