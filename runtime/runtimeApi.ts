/** What `createRuntime` (runtime.ts) takes and gives: its options, the runtime's verbs and their options. */
import type { CrewDocument } from '../shared/model/crew';
import type { WorkspaceSettings } from '../shared/model/workspace';
import type { FlowDocument } from '../shared/model/flow';
import type { Budget } from '../shared/model/budget';
import type { RunPurpose, ToolApprovalDecision } from '../shared/events';
import type { EventListener } from './events/span';
import type { HumanChannel } from './human/humanChannel';
import type { RunStore } from './store/types';
import type { AfterToolHook, BeforeToolHook } from './tools/policyGate';
import type { ToolRegistry } from './tools/registry';
import type { CrewRunResult } from './crew/kickoff';
import type { FlowRunResult } from './flow/flowRunTypes';
import type { RunMemoryStore } from './memory/runMemory';
import type { SuggestionSource } from './training/suggestionSource';
import type { RunLifecycle } from './run/runLifecycle';
import type { TrustGate } from './trust/workspaceTrust';
import type { Recording } from './offline/recording';

/** Everything with a side effect is passed in, so tests and hosts choose their own. */
export interface RuntimeOptions {
  workspace: string;
  store?: RunStore;
  human?: HumanChannel;
  settings?: WorkspaceSettings;
  env?: NodeJS.ProcessEnv;
  /** Use this model profile for every model reference. */
  forceProfile?: string;
  tools?: ToolRegistry;
  hooks?: { before?: BeforeToolHook[]; after?: AfterToolHook[] };
  now?: () => number;
  /** Memory for crews that enable it; by default the workspace's store, opened on first use. */
  memory?: RunMemoryStore;
  /** Trained suggestions applied to crews' task prompts; by default the workspace database's active versions. */
  suggestions?: SuggestionSource;
  /**
   * Asked before anything held by workspace trust starts: an MCP stdio server, `${VAR}`s sent to an MCP
   * server, a key sent to a model's or embedder's own baseUrl. By default the user's recorded trust
   * for this workspace (see runtime/trust/).
   */
  trust?: TrustGate;
  /**
   * An offline re-run: models and external tools (http_request, MCP) answer from this recorded run;
   * no model provider is made and nothing goes over the network. Local tools run for real.
   */
  offline?: Recording;
}

export interface RunCrewOptions {
  inputs?: Record<string, string>;
  /** Absolute path of the crew file; relative paths in it (scripts) resolve from its folder. */
  documentPath?: string;
  signal?: AbortSignal;
  onEvent?: EventListener;
  runId?: string;
  /** A training or test run (recorded in `run.started`). */
  purpose?: RunPurpose;
  /** Caps over the document's `budget` (`--max-tokens`, `--max-cost`). */
  budget?: Budget;
}

export interface Runtime {
  runCrew(doc: CrewDocument, options?: RunCrewOptions): Promise<CrewRunResult>;
  /** Re-runs a stored run from a task; earlier tasks' stored outputs are reused, not re-run. */
  replay(runId: string, fromTaskId: string, options?: Omit<RunCrewOptions, 'inputs' | 'documentPath'> & { edits?: Record<string, string> }): Promise<CrewRunResult>;
  /**
   * Forks a stored flow run from a method: calls completed before it first started are taken from the
   * recording (no model call), the state there is the recorded one with `state` set on it, and the method
   * and everything after it run again, as a new run.
   */
  replayFlow(runId: string, fromMethodId: string, options?: Omit<RunCrewOptions, 'inputs' | 'documentPath'> & { state?: Record<string, unknown> }): Promise<FlowRunResult>;
  /** Runs a flow; it may end `paused`, waiting for feedback. */
  runFlow(doc: FlowDocument, options?: RunCrewOptions): Promise<FlowRunResult>;
  /**
   * Continues a paused (or interrupted) flow, answering its pending feedback, or a crew or flow paused at
   * its budget under the higher `budget`. Completed methods and tasks are not run again.
   */
  resume(runId: string, options?: ResumeOptions): Promise<FlowRunResult | CrewRunResult>;
  /** Ends a paused or interrupted run (a flow without answering it, a crew at its budget or whose process died): it becomes `cancelled`. */
  cancelStopped(runId: string, reason: string): void;
  /**
   * Opens a training session's or test's own run (`run.started.purpose.kind: "evaluation"`): the session
   * emits its `training.*` / `test.*` events into it and calls its evaluator through it (traced, metered),
   * then finishes it.
   */
  openSessionRun(doc: CrewDocument, options: { purpose: Extract<RunPurpose, { kind: 'evaluation' }>; documentPath?: string; signal?: AbortSignal; onEvent?: EventListener }): RunLifecycle;
}

/** How a stopped run continues: the answer it waits for (feedback, a tool decision), a higher budget. */
export interface ResumeOptions {
  /** A flow's pending feedback, or a crew's task review (an empty string accepts the answer). */
  feedback?: string;
  /** A crew paused at a tool approval: the person's decision. */
  decision?: ToolApprovalDecision;
  budget?: Budget;
  signal?: AbortSignal;
  onEvent?: EventListener;
}
