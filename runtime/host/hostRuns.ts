import type { RuntimeEvent, ToolApprovalDecision } from '../../shared/events';
import type { CrewDocument } from '../../shared/model/crew';
import type { CrewRunResult } from '../crew/kickoff';
import type { FlowRunResult } from '../flow/flowRunTypes';
import { loadWorkspaceDocument } from '../document/workspaceDocument';
import { ReplayNotPossible, RunNotFound } from '../errors';
import { Recording } from '../offline/recording';
import { FlowNotResumable } from '../flow/flowErrors';
import { newRunId } from '../runId';
import { createRuntime, type Runtime } from '../runtime';
import type { SuggestionSource } from '../training/suggestionSource';
import type { Budget } from '../../shared/model/budget';
import { BackgroundRuns, hostRuntime, pushEvent, runMemory, type HostRunOptions } from './backgroundRuns';
import { chatCrew, type ChatRequest } from '../chat/chatCrew';
import { flowAgentCrew } from '../chat/flowAgentCrew';

type StartRun = (runtime: Runtime, run: { runId: string; signal: AbortSignal; onEvent: (e: RuntimeEvent) => void }) => Promise<CrewRunResult | FlowRunResult>;

/**
 * Runs hosted for the app. A run starts in the background: `start` resolves with its id once it has
 * opened (its `run.started` event), or rejects with the bad input that kept it from opening. Every
 * event is pushed to the subscribers as it happens; the store keeps them.
 */
export class HostRuns {
  private readonly active = new BackgroundRuns();
  /** Runs being resumed whose launch has not registered them in `active` yet (a second resume must not slip in). */
  private readonly resuming = new Set<string>();

  constructor(private readonly options: HostRunOptions) {}

  start(path: string, inputs: Record<string, string>, model?: string): Promise<string> {
    // The same check as documents.* (symlinks included); its errors name the workspace-relative path.
    const loaded = loadWorkspaceDocument(this.options.workspace, path);
    const file = loaded.file;
    return loaded.kind === 'flow'
      ? this.launch(model, (runtime, run) => runtime.runFlow(loaded.doc, { ...run, inputs, documentPath: file }))
      : this.launch(model, (runtime, run) => runtime.runCrew(loaded.doc, { ...run, inputs, documentPath: file }));
  }

  /**
   * One reply in a chat with an agent (runtime/chat/chatCrew.ts): of the crew at `path`, or of the
   * flow at `path` (`agentId` is then the id of an agent method).
   */
  chat(path: string, request: ChatRequest): Promise<string> {
    const loaded = loadWorkspaceDocument(this.options.workspace, path);
    const chat = chatCrew(loaded.kind === 'flow' ? flowAgentCrew(loaded.doc, request.agentId) : loaded.doc, request);
    return this.launch(undefined, (runtime, run) => runtime.runCrew(chat.doc, { ...run, inputs: chat.inputs, purpose: chat.purpose, documentPath: loaded.file }));
  }

  /**
   * One row of a batch (hostBatches.ts): the crew `doc`, read from `file`, with these inputs under a
   * run id chosen beforehand. `opened` resolves once the run has opened and rejects with what kept it
   * from opening; `ended` resolves with the run's result (and rejects as `opened` does).
   */
  runCrewRow(doc: CrewDocument, file: string, inputs: Record<string, string>, model: string | undefined, runId: string, suggestions?: SuggestionSource): { opened: Promise<string>; ended: Promise<CrewRunResult> } {
    let result: Promise<CrewRunResult> | undefined;
    const opened = this.launch(model, (runtime, run) => (result = runtime.runCrew(doc, { ...run, inputs, documentPath: file })), runId, undefined, suggestions);
    return { opened, ended: opened.then(() => result!) };
  }

  /** Runs a stored run's document as it is now, every model reply (and http_request result) from that run's recording. */
  rerunOffline(runId: string): Promise<string> {
    const { store, workspace } = this.options;
    const recorded = store.getRun(runId);
    if (!recorded) return Promise.reject(new RunNotFound(runId));
    if (!recorded.documentPath) return Promise.reject(new ReplayNotPossible(`run ${runId} did not come from a document file, so there is no current version of it to re-run`));
    const loaded = loadWorkspaceDocument(workspace, recorded.documentPath);
    const file = loaded.file;
    const offline = Recording.fromStore(store, runId);
    const inputs = recorded.inputs;
    return loaded.kind === 'flow'
      ? this.launch(undefined, (runtime, run) => runtime.runFlow(loaded.doc, { ...run, inputs, documentPath: file }), undefined, offline)
      : this.launch(undefined, (runtime, run) => runtime.runCrew(loaded.doc, { ...run, inputs, documentPath: file }), undefined, offline);
  }

  replay(runId: string, fromTaskId: string, edits?: Record<string, string>): Promise<string> {
    return this.launch(undefined, (runtime, run) => runtime.replay(runId, fromTaskId, { ...run, edits }));
  }

  /** Forks a flow run from a method, the state there edited. */
  replayFlow(runId: string, fromMethodId: string, state?: Record<string, unknown>): Promise<string> {
    return this.launch(undefined, (runtime, run) => runtime.replayFlow(runId, fromMethodId, { ...run, state }));
  }

  /**
   * Continues a paused run (paused in this process or an earlier one): a flow with the feedback it waits
   * for, a crew paused for a person with its review's feedback or a tool decision, a run at its budget
   * with a higher cap.
   */
  resume(runId: string, feedback: string | undefined, budget?: Budget, decision?: ToolApprovalDecision): Promise<string> {
    if (this.active.has(runId) || this.resuming.has(runId)) return Promise.reject(new FlowNotResumable(`run ${runId} is running; only paused or interrupted flows can be resumed`));
    this.resuming.add(runId);
    return this.launch(undefined, (runtime, run) => runtime.resume(runId, { ...run, feedback, budget, ...(decision ? { decision } : {}) }), runId).finally(() => this.resuming.delete(runId));
  }

  /** Cancels a live run; a paused or interrupted one (no process behind it) is ended as cancelled where it is stored. */
  cancel(runId: string): boolean {
    if (this.active.cancel(runId)) return true;
    // Reading the run marks one whose process died as interrupted: it is ended where it is stored too.
    const stored = this.options.store.getRun(runId);
    if ((stored?.kind !== 'flow' && stored?.kind !== 'crew') || (stored.status !== 'paused' && stored.status !== 'interrupted') || this.resuming.has(runId)) return false;
    const { workspace, store, push, now } = this.options;
    const runtime = createRuntime({ workspace, store, now });
    const before = store.lastSeq(runId);
    runtime.cancelStopped(runId, stored.status === 'interrupted' ? 'cancelled from the app after its process stopped' : 'cancelled from the app while it waited for feedback');
    for (const event of store.events(runId, before)) push({ kind: 'event', event });
    push({ kind: 'runs.changed' });
    return true;
  }

  /** Cancels every run and waits until each has recorded its end. */
  closeAll(): Promise<void> {
    return this.active.closeAll();
  }

  /** `suggestions`: a batch's, read once for all its rows (default: the workspace's, read when the run opens). */
  private async launch(model: string | undefined, startRun: StartRun, existingRunId?: string, offline?: Recording, suggestions?: SuggestionSource): Promise<string> {
    const memory = await runMemory(this.options);
    const { human, push, now } = this.options;
    const runId = existingRunId ?? newRunId(now());
    const runtime = hostRuntime(this.options, memory, { human: human.forRun(runId), forceProfile: model, offline, ...(suggestions ? { suggestions } : {}) });
    return this.active.start<string>(
      runId,
      (signal, open) => {
        const onEvent = (event: RuntimeEvent) => {
          if ((event.type === 'run.started' || event.type === 'run.resumed') && open(runId)) push({ kind: 'runs.changed' });
          pushEvent(push, event);
        };
        return startRun(runtime, { runId, signal, onEvent });
      },
      'the run ended without starting',
      (opened) => {
        if (opened) push({ kind: 'runs.changed' });
      },
    );
  }
}
