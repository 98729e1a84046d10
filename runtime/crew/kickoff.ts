import type { CrewDocument } from '../../shared/model/crew';
import type { RunPurpose, TaskOutputRecord } from '../../shared/events';
import type { SuggestionSource } from '../training/suggestionSource';
import type { TokenUsage } from '../../shared/usage';
import { UsageMeter } from '../agent/usageMeter';
import { errorMessage, errorName, RunCancelled } from '../errors';
import { RunEventLog, type EventListener } from '../events/span';
import type { HumanChannel } from '../human/humanChannel';
import type { RunMemoryStore } from '../memory/runMemory';
import type { Embedder } from '../memory/types';
import type { ModelResolver } from '../llm/resolveModel';
import { ModelCallAborted } from '../llm/errors';
import type { RunEnd, RunStore, StoredTaskOutput } from '../store/types';
import { PolicyGate, type AfterToolHook, type BeforeToolHook } from '../tools/policyGate';
import type { ToolRegistry } from '../tools/registry';
import { toRecord } from './crewOutput';
import { crewContext, executeCrew, prepareCrew, type CrewDeps } from './executeCrew';

export interface CrewRunResult {
  runId: string;
  status: 'completed' | 'failed' | 'cancelled';
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
  replay?: { runId: string; fromTaskId: string; fromIndex: number; outputs: Map<string, StoredTaskOutput> };
  /** The workspace's memory; used when the crew has memory enabled. */
  memory?: RunMemoryStore;
  /** Trained suggestions applied to the roles' task prompts. */
  suggestions?: SuggestionSource;
  /** A training or test run (recorded in `run.started`). */
  purpose?: RunPurpose;
  /** The workspace's embedder, made on first use (knowledge sources). */
  embedder?: () => Promise<Embedder>;
}

/**
 * Runs a crew: validate and interpolate, open the run, plan (optional), run the task list, assemble
 * the crew output. Problems found before the run opens (missing input, unknown model or tool) throw;
 * everything after is reported in the result and the events.
 */
export async function kickoffCrew(req: KickoffRequest): Promise<CrewRunResult> {
  const deps: CrewDeps = { workspace: req.workspace, models: req.models, tools: req.tools, human: req.human, hooks: req.hooks, memory: req.memory, suggestions: req.suggestions, embedder: req.embedder };
  const crew = prepareCrew(req.doc, req.inputs, deps, req.documentPath ?? `crew "${req.doc.id}"`);
  const { doc } = crew;

  const log = new RunEventLog(req.runId, req.now);
  if (req.store) {
    const store = req.store;
    log.listen((e) => store.appendEvent(e));
  }
  if (req.onEvent) log.listen(req.onEvent);
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(req.signal?.reason ?? new RunCancelled());
  req.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const meter = new UsageMeter();
  let requestCounter = 0;
  const root = log.root();
  const newId = (prefix: string) => `${req.runId}:${prefix}${++requestCounter}`;
  const gate = new PolicyGate({ workspace: req.workspace, human: req.human, before: req.hooks?.before, after: req.hooks?.after, newRequestId: () => newId('h') });
  const ctx = crewContext(crew, deps, { runId: req.runId, signal: controller.signal, meter, root, newId, gate });

  const started = req.now();
  req.store?.createRun({
    id: req.runId,
    kind: 'crew',
    documentId: req.doc.id,
    name: req.doc.name,
    document: req.doc,
    documentPath: req.documentPath,
    inputs: req.inputs,
    replayOf: req.replay ? { runId: req.replay.runId, fromTaskId: req.replay.fromTaskId } : undefined,
    startedAt: started,
  });
  root.emit({
    type: 'run.started',
    crewId: doc.id,
    crewName: doc.name,
    process: doc.process,
    inputs: req.inputs,
    taskIds: doc.tasks.map((t) => t.id),
    replayOf: req.replay ? { runId: req.replay.runId, fromTaskId: req.replay.fromTaskId } : undefined,
    ...(req.purpose ? { purpose: req.purpose } : {}),
  });

  const finished: TaskOutputRecord[] = [];
  try {
    const result = await executeCrew(ctx, root, crew, {
      models: req.models,
      abort: (reason) => controller.abort(reason),
      restored: req.replay ? { fromRunId: req.replay.runId, fromIndex: req.replay.fromIndex, outputs: req.replay.outputs } : undefined,
      onOutput: (index, output) => {
        finished.push(toRecord(output));
        req.store?.saveTaskOutput({
          runId: req.runId,
          taskId: output.taskId,
          index,
          agentRole: output.agentRole,
          raw: output.raw,
          json: output.json,
          skipped: output.skipped ?? false,
          tokenUsage: output.tokenUsage,
        });
      },
    });
    root.emit({ type: 'run.completed', output: result.raw, tokenUsage: meter.total, durationMs: req.now() - started });
    const unrecorded = recordEnd(req, { status: 'completed', output: result.raw, tokenUsage: meter.total, endedAt: req.now() });
    return {
      runId: req.runId,
      status: 'completed',
      output: result.raw,
      json: result.json,
      tasks: result.tasks,
      tokenUsage: meter.total,
      usageByTask: result.usageByTask,
      usageByAgent: result.usageByAgent,
      ...(unrecorded ? { error: { name: 'RunNotRecorded', message: `the run completed${unrecorded}` } } : {}),
    };
  } catch (caught) {
    const cancelled = controller.signal.aborted && (caught instanceof ModelCallAborted || caught instanceof RunCancelled || req.signal?.aborted);
    const error = cancelled ? new RunCancelled(errorMessage(controller.signal.reason ?? caught)) : caught;
    const durationMs = req.now() - started;
    if (cancelled) root.emit({ type: 'run.cancelled', reason: errorMessage(error), durationMs });
    else root.emit({ type: 'run.failed', error: errorMessage(error), errorName: errorName(error), tokenUsage: meter.total, durationMs });
    const unrecorded = recordEnd(req, {
      status: cancelled ? 'cancelled' : 'failed',
      error: errorMessage(error),
      tokenUsage: meter.total,
      endedAt: req.now(),
    });
    return {
      runId: req.runId,
      status: cancelled ? 'cancelled' : 'failed',
      output: '',
      tasks: finished,
      tokenUsage: meter.total,
      usageByTask: Object.fromEntries(meter.byTask),
      usageByAgent: Object.fromEntries(meter.byAgent),
      error: { name: errorName(error), message: `${errorMessage(error)}${unrecorded}` },
    };
  } finally {
    controller.abort(new RunCancelled('run ended'));
    req.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/**
 * Writes the run's end to the store. A store that fails here (disk full, database locked for good)
 * must not turn a finished run into an exception: the caller still gets the result, told why it was
 * not recorded. Returns that explanation, or ''.
 */
function recordEnd(req: KickoffRequest, end: RunEnd): string {
  try {
    req.store?.finishRun(req.runId, end);
    return '';
  } catch (error) {
    return ` (but could not be recorded: ${errorMessage(error)})`;
  }
}
