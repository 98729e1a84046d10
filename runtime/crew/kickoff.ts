import type { CrewDocument } from '../../shared/model/crew';
import type { Budget, BudgetPending } from '../../shared/model/budget';
import type { RunPurpose, TaskOutputRecord } from '../../shared/events';
import type { SuggestionSource } from '../agent/suggestions';
import type { TokenUsage } from '../../shared/usage';
import type { EventListener } from '../events/span';
import type { HumanChannel } from '../human/humanChannel';
import type { RunMemoryStore } from '../memory/runMemory';
import type { Embedder } from '../memory/types';
import type { ModelResolver } from '../llm/resolveModel';
import { RunLifecycle } from '../run/runLifecycle';
import { BudgetReached } from '../errors';
import { HumanInputPending, resumingHuman, type HumanPending } from '../human/humanPause';
import { mergeBudget } from '../run/budgetGuard';
import type { RunStore, StoredTaskOutput } from '../store/types';
import type { AfterToolHook, BeforeToolHook } from '../tools/policyGate';
import type { ToolRegistry } from '../tools/registry';
import { toRecord } from './crewOutput';
import { firstUnfinished, markResumed, type CrewCheckpoint, type CrewResume } from './crewCheckpoint';
import { crewContext, executeCrew, prepareCrew, type CrewDeps } from './executeCrew';
import type { ToolServices } from '../tools/tool';
import type { Recording } from '../offline/recording';

export interface CrewRunResult {
  runId: string;
  status: 'completed' | 'failed' | 'cancelled' | 'paused';
  /** A run paused at its budget: what it waits for (`crewdeck resume <runId> --max-tokens N`). */
  pending?: BudgetPending;
  /** A run paused for a person: the review or approval it waits for (`crewdeck resume <runId> --feedback … | --approve`). */
  humanPending?: HumanPending;
  /** The last non-empty task output ('' when the run did not complete). */
  output: string;
  json?: unknown;
  tasks: TaskOutputRecord[];
  tokenUsage: TokenUsage;
  usageByTask: Record<string, TokenUsage>;
  usageByAgent: Record<string, TokenUsage>;
  error?: { name: string; message: string };
}

export interface KickoffRequest {
  runId: string;
  /** The document as written (placeholders intact); it is what the store keeps. */
  doc: CrewDocument;
  inputs: Record<string, string>;
  documentPath?: string;
  workspace: string;
  models: ModelResolver;
  tools: ToolRegistry;
  human: HumanChannel;
  store?: RunStore;
  hooks?: { before?: BeforeToolHook[]; after?: AfterToolHook[] };
  signal?: AbortSignal;
  onEvent?: EventListener;
  now: () => number;
  /** `edits`: earlier tasks' outputs replaced before the replay (already applied to `outputs`), recorded in `run.started`. */
  replay?: { runId: string; fromTaskId: string; fromIndex: number; outputs: Map<string, StoredTaskOutput>; edits?: Record<string, string> };
  /** The workspace's memory; used when the crew has memory enabled. */
  memory?: RunMemoryStore;
  /** Trained suggestions applied to the roles' task prompts. */
  suggestions?: SuggestionSource;
  /** A training or test run (recorded in `run.started`). */
  purpose?: RunPurpose;
  /** An offline re-run of this recorded run (marked in `run.started`). */
  offlineFrom?: string;
  /** The recording of an offline re-run: knowledge answers from it. */
  recording?: Recording;
  /** The workspace's embedder, made on first use (knowledge sources). */
  embedder?: () => Promise<Embedder>;
  /** Keys and the embedder lent to the run's tools. */
  toolServices?: ToolServices;
  /** Caps over the document's `budget` (each field replaces the document's). */
  budget?: Budget;
  /**
   * Continues this run (paused at its budget, or interrupted: its process died) from its first
   * unfinished task; its finished tasks are reused.
   */
  resume?: CrewResume;
}

/**
 * Runs a crew: validate and interpolate, open the run (runtime/run: log, gate, abort chain, end),
 * plan (optional), run the task list, assemble the crew output. Problems found before the run opens
 * (missing input, unknown model or tool) throw; everything after is reported in the result and the events.
 */
export async function kickoffCrew(given: KickoffRequest): Promise<CrewRunResult> {
  // Resumed with a person's answer: the agent that asked goes on with it (humanPause.ts).
  const answered = given.resume?.checkpoint.humanPending;
  const req = answered && given.resume?.answer ? { ...given, human: resumingHuman(given.human, answered, given.resume.answer) } : given;
  const deps: CrewDeps = { workspace: req.workspace, models: req.models, tools: req.tools, human: req.human, hooks: req.hooks, memory: req.memory, suggestions: req.suggestions, embedder: req.embedder, recording: req.recording };
  const crew = prepareCrew(req.doc, req.inputs, deps, req.documentPath ?? `crew "${req.doc.id}"`);
  const { doc } = crew;

  const budget = mergeBudget(req.doc.budget, req.resume?.checkpoint.budget, req.budget);
  const resumed = req.resume;
  const fromIndex = resumed ? firstUnfinished(doc, resumed.outputs) : 0;
  const session = resumed ? resumed.checkpoint.sessions + 1 : 0;
  const earlierUsage = resumed?.interrupted?.usage ?? resumed?.checkpoint.tokenUsage;
  const run = resumed && req.store
    ? RunLifecycle.continue(
        { ...req, store: req.store, budget },
        { rootSpanId: resumed.checkpoint.rootSpanId, session, startedAt: resumed.checkpoint.startedAt, earlierUsage },
      )
    : RunLifecycle.open(
    { ...req, budget },
    { kind: 'crew', documentId: req.doc.id, name: req.doc.name, document: req.doc, documentPath: req.documentPath, inputs: req.inputs, replayOf: req.replay ? { runId: req.replay.runId, fromTaskId: req.replay.fromTaskId } : undefined },
    {
      documentId: doc.id,
      documentName: doc.name,
      process: doc.process,
      inputs: req.inputs,
      stepIds: doc.tasks.map((t) => t.id),
      replayOf: req.replay ? { runId: req.replay.runId, fromTaskId: req.replay.fromTaskId, ...(req.replay.edits ? { edits: req.replay.edits } : {}) } : undefined,
      ...(req.purpose ? { purpose: req.purpose } : {}),
      ...(req.offlineFrom ? { offlineFrom: req.offlineFrom } : {}),
    },
  );
  if (resumed) markResumed(run, resumed, req.now(), req.offlineFrom);
  // Where the run is, for a process that continues it after this one dies. A new run whose caps are
  // its document's needs none: its events say as much (positionFromEvents), and a batch row's run
  // saves a commit's worth of pages. A continued session's replaces the one it continues.
  if (resumed || req.budget) req.store?.saveCheckpoint(req.runId, { version: 1, kind: 'crew', rootSpanId: run.root.id, sessions: session, startedAt: run.startedAt, tokenUsage: run.usage(), ...(budget ? { budget } : {}) } satisfies CrewCheckpoint);
  const ctx = crewContext(crew, deps, run.context());
  const finished: TaskOutputRecord[] = [];
  try {
    const result = await executeCrew(ctx, run.root, crew, {
      models: req.models,
      abort: (reason) => run.abort(reason),
      restored: resumed
        ? { fromRunId: req.runId, fromIndex, outputs: resumed.outputs }
        : req.replay ? { fromRunId: req.replay.runId, fromIndex: req.replay.fromIndex, outputs: req.replay.outputs } : undefined,
      onOutput: (index, output) => {
        finished.push(toRecord(output));
        if (resumed && index < fromIndex) return; // already stored in this run
        req.store?.saveTaskOutput({ runId: req.runId, taskId: output.taskId, index, agentRole: output.agentRole, raw: output.raw, json: output.json, skipped: output.skipped ?? false, tokenUsage: output.tokenUsage });
      },
    });
    const end = run.finish({ kind: 'completed', output: result.raw });
    return { ...end, status: 'completed', output: result.raw, json: result.json, tasks: result.tasks, usageByTask: result.usageByTask, usageByAgent: result.usageByAgent };
  } catch (caught) {
    const usage = { usageByTask: Object.fromEntries(run.meter.byTask), usageByAgent: Object.fromEntries(run.meter.byAgent) };
    const paused = req.store ? pauseOf(caught, run.signal.reason, `${req.runId}:budget:${session}`) : undefined;
    if (paused && req.store) {
      // The task it stopped in is not stored; finished tasks' outputs are. The checkpoint says what the run waits for.
      const store = req.store;
      const end = run.finish({ kind: 'paused', ...paused.ending }, () => {
        const checkpoint: CrewCheckpoint = { version: 1, kind: 'crew', rootSpanId: run.root.id, sessions: session, startedAt: run.startedAt, pausedAt: req.now(), tokenUsage: run.usage(), budget, ...paused.saved };
        store.saveCheckpoint(req.runId, checkpoint);
      });
      return { ...end, status: end.status === 'paused' ? 'paused' : 'failed', ...(paused.saved.pending ? { pending: paused.saved.pending } : {}), ...(paused.saved.humanPending ? { humanPending: paused.saved.humanPending } : {}), output: '', tasks: finished, ...usage };
    }
    const end = run.finish({ kind: 'error', error: caught });
    return { ...end, status: end.status === 'cancelled' ? 'cancelled' : 'failed', output: '', tasks: finished, ...usage };
  } finally {
    run.close();
  }
}

/**
 * Whether what stopped the crew is a pause: its budget reached, or a question to a person who answers
 * later (a pause may surface as the run's abort reason, from a task running beside the one that stopped).
 */
function pauseOf(
  caught: unknown,
  abortReason: unknown,
  budgetRequestId: string,
): { ending: { requestId: string; methodId: string; budget?: BudgetPending; human?: true }; saved: Pick<CrewCheckpoint, 'pending' | 'humanPending'> } | undefined {
  const stop = [caught, abortReason].find((e) => e instanceof BudgetReached || e instanceof HumanInputPending);
  if (stop instanceof HumanInputPending) {
    return { ending: { requestId: stop.pending.requestId, methodId: stop.pending.taskId ?? '', human: true }, saved: { humanPending: stop.pending } };
  }
  if (!(stop instanceof BudgetReached)) return undefined;
  const pending: BudgetPending = { kind: 'budget', which: stop.which, spent: stop.spent, limit: stop.limit, requestId: budgetRequestId, ...(stop.stepId ? { stepId: stop.stepId } : {}) };
  return { ending: { requestId: pending.requestId, methodId: stop.stepId ?? '', budget: pending }, saved: { pending } };
}
