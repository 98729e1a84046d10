import type { CrewDocument } from '../../shared/model/crew';
import type { RunContext } from '../agent/runContext';
import type { Span } from '../events/span';
import type { HumanChannel } from '../human/humanChannel';
import { prepareRunKnowledge } from '../knowledge/runKnowledge';
import type { ModelResolver } from '../llm/resolveModel';
import { RunMemory, type RunMemoryStore } from '../memory/runMemory';
import type { Embedder } from '../memory/types';
import type { StoredTaskOutput } from '../store/types';
import type { AfterToolHook, BeforeToolHook } from '../tools/policyGate';
import type { ToolRegistry } from '../tools/registry';
import { assignTask } from './assignTask';
import { crewOutput, type CrewOutput } from './crewOutput';
import { interpolateCrew } from './interpolate';
import { planTasks } from './planning';
import { preflight } from './preflight';
import { buildRoster, memberModel } from './roster';
import { runTaskList } from './scheduler';
import type { CompletedTask } from './taskRunner';
import type { SuggestionSource } from '../agent/suggestions';
import { currentEmbeddingScope, withEmbeddingScope } from '../memory/embeddingScope';
import type { Recording } from '../offline/recording';
import { recordedKnowledge } from '../offline/recordedKnowledge';

/** What a crew needs from around it, whether it is a run of its own or a step of a flow. */
export interface CrewDeps {
  workspace: string;
  models: ModelResolver;
  tools: ToolRegistry;
  human: HumanChannel;
  hooks?: { before?: BeforeToolHook[]; after?: AfterToolHook[] };
  /** The workspace's memory; used when the crew has memory enabled. */
  memory?: RunMemoryStore;
  /** Trained suggestions: each role's active version is read once when the crew's context is made. */
  suggestions?: SuggestionSource;
  /** The workspace's embedder, made on first use (knowledge sources); the offline one when absent. */
  embedder?: () => Promise<Embedder>;
  /** An offline re-run: its crews' knowledge answers from this recorded run. */
  recording?: Recording;
}

/** A crew checked and ready: interpolated, its members' models and tools resolved. Throws bad input. */
export function prepareCrew(doc: CrewDocument, inputs: Record<string, string>, deps: CrewDeps, source: string) {
  const interpolated = interpolateCrew(doc, inputs);
  const roster = buildRoster(interpolated, deps.models, deps.tools, deps.workspace);
  const taskTools = preflight(interpolated, deps.models, deps.tools, source);
  const memoryModel = interpolated.memory?.llm ? deps.models.resolve(interpolated.memory.llm) : undefined;
  return { doc: interpolated, roster, taskTools, memoryModel };
}
export type PreparedCrew = ReturnType<typeof prepareCrew>;

/**
 * The context a crew's tasks share: its own memory, inside a run's log, signal, meter and policy gate
 * (the run's one gate, so a crew inside a flow keeps the flow's approvals, usage counts and cache).
 */
export function crewContext(
  crew: PreparedCrew,
  deps: CrewDeps,
  run: Pick<RunContext, 'runId' | 'signal' | 'meter' | 'root' | 'newId' | 'gate' | 'budget'>,
  options: { recallLimit?: number } = {},
): RunContext {
  const { doc, roster, memoryModel } = crew;
  const memory =
    deps.memory && doc.memory?.enabled
      ? new RunMemory(() => ctx, deps.memory, doc.memory.scope ?? `/crew/${doc.id}`, doc.memory.commit, (role) => memoryModel ?? memberModel(roster, role), options)
      : undefined;
  const ctx: RunContext = {
    ...run,
    workspace: deps.workspace,
    human: deps.human,
    memory,
    suggestions: deps.suggestions?.activeSuggestions(doc.id),
    embedder: deps.embedder,
    ...(deps.recording ? { offline: deps.recording } : {}),
  };
  return ctx;
}

/**
 * Runs a prepared crew's tasks under `span`: knowledge, planning, the task list, pending memory
 * writes, and the crew output. The caller opens and closes the span (a run, or a flow method).
 */
export async function executeCrew(
  ctx: RunContext,
  span: Span,
  crew: PreparedCrew,
  options: {
    models: ModelResolver;
    abort(reason: unknown): void;
    restored?: { fromRunId: string; fromIndex: number; outputs: Map<string, StoredTaskOutput> };
    onOutput?(index: number, output: CompletedTask): void;
  },
): Promise<CrewOutput> {
  // Embedding requests made for the crew (knowledge, memory, search tools) are metered into its run.
  return withEmbeddingScope({ ...currentEmbeddingScope(), span, meter: ctx.meter, budget: ctx.budget }, () => runCrewTasks(ctx, span, crew, options));
}

async function runCrewTasks(ctx: RunContext, span: Span, crew: PreparedCrew, options: Parameters<typeof executeCrew>[3]): Promise<CrewOutput> {
  let doc = crew.doc;
  try {
    // Offline no source is read or fetched and nothing embedded: the recorded run's chunks answer.
    ctx.knowledge = ctx.offline ? recordedKnowledge(ctx.offline, doc) : await prepareRunKnowledge(ctx.workspace, doc, { signal: ctx.signal, embedder: ctx.embedder });
    if (doc.planning?.enabled) doc = await planTasks(ctx, span, doc, options.models.resolve(doc.planning.llm));
    const planned = doc;
    const outputs = await runTaskList(ctx, span, {
      doc: planned,
      assign: (task, index, context) => assignTask({ ctx, doc: planned, roster: crew.roster, taskTools: crew.taskTools, models: options.models }, task, index, context),
      abort: options.abort,
      restored: options.restored,
      onOutput: options.onOutput ?? (() => {}),
    });
    await ctx.memory?.finish();
    return crewOutput(outputs, ctx.meter);
  } catch (error) {
    await ctx.memory?.finish(); // a write still in flight (an async task's) ends before the crew does
    throw error;
  } finally {
    ctx.knowledge?.close();
  }
}
