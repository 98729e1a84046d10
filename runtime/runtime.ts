import { dirname, relative, resolve, sep } from 'node:path';
import { CrewDocumentSchema, type CrewDocument } from '../shared/model/crew';
import { DocumentInvalid, MissingInput, ReplayNotPossible, RunNotFound, TaskNotFound } from './errors';
import { unattendedHuman } from './human/humanChannel';
import { answerOf } from './human/humanPause';
import { ModelResolver } from './llm/resolveModel';
import type { StoredTaskOutput } from './store/types';
import { emptyUsage } from '../shared/usage';
import { createBuiltinRegistry, type ToolRegistry } from './tools/registry';
import { kickoffCrew, type CrewRunResult } from './crew/kickoff';
import { positionFromEvents, type CrewCheckpoint } from './crew/crewCheckpoint';
import { cancelStoppedCrew } from './crew/stoppedCrew';
import { interruptedCrew } from './crew/interruptedCrew';
import { BudgetNotRaised, reachedCap } from './run/budgetGuard';
import { resolveInputs } from './crew/interpolate';
import { newRunId } from './runId';
import { problemsFromZod } from '../shared/model/problems';
import type { RunMemoryStore } from './memory/runMemory';
import { openWorkspaceMemory, workspaceEmbedder } from './memory/workspaceMemory';
import type { Embedder } from './memory/types';
import { FlowDocumentSchema, type FlowDocument } from '../shared/model/flow';
import { cancelStoppedFlow, resumeFlow, startFlow } from './flow/flowRun';
import { FlowNotResumable } from './flow/flowErrors';
import { planFlowFork } from './flow/flowFork';
import type { FlowDeps } from './flow/bodies/types';
import { flowSchemaProblems } from './document/schemaProblems';
import { McpServers } from './mcp/mcpServers';
import { createToolKnowledge } from './knowledge/toolKnowledge';
import { mcpServersIn, mcpServersInFlow } from './mcp/mcpReferences';
import { workspaceSuggestions } from './training/suggestionSource';
import { RunLifecycle } from './run/runLifecycle';
import { WorkspaceTrust, requireTrusted } from './trust/workspaceTrust';
import { documentReachParts } from './trust/networkParts';
import { userModelServers } from './trust/userModelServers';
import { loadCrewFile } from './document/loadDocument';
import { resolveWorkspaceDocument } from './document/workspaceDocument';
import type { Recording } from './offline/recording';
import { recordedExternalTools, recordedMcpTools } from './offline/recordedTools';
import { OfflineMemory } from './offline/offlineMemory';
import { offlineEmbedder } from './offline/offlineEmbedder';
import type { ResumeOptions, Runtime, RuntimeOptions } from './runtimeApi';

export type { ResumeOptions, RunCrewOptions, Runtime, RuntimeOptions } from './runtimeApi';

export function createRuntime(options: RuntimeOptions): Runtime {
  const workspace = resolve(options.workspace);
  const offline = options.offline;
  const tools = options.tools ?? createBuiltinRegistry();
  const human = options.human ?? unattendedHuman;
  const now = options.now ?? Date.now;
  const trust = options.trust ?? new WorkspaceTrust(workspace);
  // Offline, each run answers from its own fresh copy of the recording (its calls counted from 1).
  const resolverFor = (documentPath: string | undefined, recording?: Recording) =>
    new ModelResolver({
      settings: options.settings,
      env: options.env,
      baseDir: documentPath ? dirname(documentPath) : workspace,
      forceProfile: options.forceProfile,
      trust,
      recording,
    });
  const suggestions = options.suggestions ?? workspaceSuggestions(workspace);
  // One embedder for the runs' knowledge, made when a crew with sources first needs it (an OpenAI-compatible
  // embedder asks its server for the vector size).
  let embedding: Promise<Embedder> | undefined;
  // Offline the configured embedder is never made: the offline one, or a refusal naming it.
  const embedder = offline
    ? () => offlineEmbedder(options.settings?.memory?.embedder)
    : () =>
        (embedding ??= workspaceEmbedder(options.settings?.memory?.embedder, options.env, trust, options.settings?.prices).catch((error: unknown) => {
          embedding = undefined; // a server that was down is asked again by the next run
          throw error;
        }));
  // Tools that reach providers read their keys here and search with the workspace's embedder.
  const toolServices = { env: options.env ?? process.env, knowledge: createToolKnowledge(workspace, embedder) };
  const base = { workspace, tools, human, store: options.store, hooks: options.hooks, now, suggestions, embedder, toolServices };
  // MCP servers a run's documents name are started while the run is prepared (their tool schemas
  // must be known before it opens), shared by its tasks and stopped when it ends or is cancelled.
  const mcp = new McpServers(options.settings?.mcp, { workspace, env: options.env ?? process.env, trust });
  const withMcp = async <T>(servers: Set<string>, recording: Recording | undefined, run: (tools: ToolRegistry) => Promise<T>): Promise<T> => {
    if (servers.size === 0) return run(recording ? recordedExternalTools(tools, recording) : tools);
    // Offline no server starts: its tools answer from the recording.
    if (recording) return run(recordedMcpTools(tools, recording, servers));
    const session = mcp.session();
    try {
      return await run(await session.registryFor(tools, servers));
    } finally {
      await session.close();
    }
  };
  // What a document widens the network to (allowedHosts, knowledge URLs, models on hosts of their own)
  // is held until the user trusts it, asked before the run opens: one refusal names every such part.
  const servers = () => userModelServers(process.env, (options.env ?? process.env).OPENAI_BASE_URL);
  // Offline, models, tools and knowledge answer from the recording: nothing is reached, nothing asked for.
  const reachFor = (recording: Recording | undefined) => ({ tools: !recording, knowledge: !recording, servers: recording ? undefined : servers() });
  const requireReach = (doc: unknown, documentPath: string | undefined, recording: Recording | undefined) => {
    const source = documentPath ? relative(workspace, resolve(workspace, documentPath)).split(sep).join('/') : `document "${(doc as { id?: string }).id ?? ''}"`;
    const reach = reachFor(recording);
    const parts = documentReachParts(doc, source, reach);
    // The crew files the flow's methods run (directly or once per for_each item); each is asked again
    // when its method loads it (FlowDeps.requireReach), since the file may change while the run goes on.
    for (const method of (doc as Partial<FlowDocument>).methods ?? []) {
      const body = method.body.type === 'for_each' ? method.body.body : method.body;
      if (body.type !== 'crew') continue;
      try {
        parts.push(...documentReachParts(loadCrewFile(resolveWorkspaceDocument(workspace, body.file).file), body.file, reach));
      } catch {
        // A crew file that cannot be read fails its method later, with its own message.
      }
    }
    requireTrusted(trust, parts);
  };
  let workspaceMemory: Promise<RunMemoryStore> | undefined;
  const memoryFor = async (doc: CrewDocument, recording: Recording | undefined): Promise<RunMemoryStore | undefined> => {
    if (!doc.memory?.enabled) return undefined;
    // Offline, recall answers from the recording and writes reach no store: nothing is embedded by the configured embedder.
    if (recording) return new OfflineMemory(recording);
    if (options.memory) return options.memory;
    workspaceMemory ??= openWorkspaceMemory(workspace, { settings: options.settings, env: options.env ?? process.env, trust });
    return workspaceMemory;
  };

  const flowDeps = async (doc: FlowDocument, tools: ToolRegistry, recording?: Recording): Promise<FlowDeps> => ({
    workspace,
    models: resolverFor(undefined, recording),
    modelsFor: (path) => resolverFor(path ? resolve(workspace, path) : undefined, recording),
    requireReach: (crew, source) => requireTrusted(trust, documentReachParts(crew, source, reachFor(recording))),
    tools,
    human,
    hooks: options.hooks,
    suggestions,
    embedder,
    toolServices,
    recording,
    // Crews and agents inside the flow may remember, and reviews that learn; other methods never touch memory.
    memory: doc.methods.some((m) => m.body.type === 'crew' || (m.body.type === 'agent' && m.body.agent.memory) || (m.body.type === 'human_feedback' && m.body.learn))
      ? recording
        ? new OfflineMemory(recording)
        : (options.memory ?? (await (workspaceMemory ??= openWorkspaceMemory(workspace, { settings: options.settings, env: options.env ?? process.env, trust }))))
      : undefined,
  });
  const relativePath = (path: string | undefined) => (path ? relative(workspace, path).split(sep).join('/') : undefined);

  return {
    async runFlow(doc, run = {}) {
      const problems = flowSchemaProblems(doc);
      if (problems.length > 0) throw new DocumentInvalid(run.documentPath ?? `flow "${doc.id}"`, problems);
      const declared = Object.fromEntries((doc.inputs ?? []).filter((i) => i.default !== undefined).map((i) => [i.name, i.default!]));
      const missing = (doc.inputs ?? []).filter((i) => i.default === undefined && run.inputs?.[i.name] === undefined).map((i) => i.name);
      if (missing.length > 0) throw new MissingInput(missing[0], ['flow inputs']);
      const recording = offline?.fresh();
      requireReach(doc, run.documentPath, recording);
      return withMcp(mcpServersInFlow(doc, workspace), recording, async (runTools) => startFlow(
        { runId: run.runId ?? newRunId(now()), doc, documentPath: relativePath(run.documentPath), deps: await flowDeps(doc, runTools, recording), store: options.store, signal: run.signal, onEvent: run.onEvent, now, offlineFrom: recording?.runId, budget: run.budget },
        { ...declared, ...(run.inputs ?? {}) },
      ));
    },

    async replayFlow(runId, fromMethodId, run = {}) {
      const store = options.store;
      const previous = store?.getRun(runId);
      if (!store || !previous) throw new RunNotFound(runId);
      if (previous.kind !== 'flow') throw new ReplayNotPossible(`run ${runId} is a crew run; replay a crew from a task with --from-task`);
      const parsed = FlowDocumentSchema.safeParse(previous.document);
      if (!parsed.success) throw new DocumentInvalid(`run ${runId} (stored document)`, problemsFromZod(parsed.error));
      const doc = parsed.data;
      const fork = planFlowFork(doc, { runId, inputs: previous.inputs, events: store.events(runId) }, fromMethodId, run.state);
      // Crew files and scripts resolve from the document's folder: it must still be the workspace's.
      if (previous.documentPath) resolveWorkspaceDocument(workspace, previous.documentPath);
      const recording = offline?.fresh();
      requireReach(doc, previous.documentPath, recording);
      return withMcp(mcpServersInFlow(doc, workspace), recording, async (runTools) => startFlow(
        { runId: run.runId ?? newRunId(now()), doc, documentPath: previous.documentPath, deps: await flowDeps(doc, runTools, recording), store, signal: run.signal, onEvent: run.onEvent, now, offlineFrom: recording?.runId, budget: run.budget, fork },
        previous.inputs,
      ));
    },

    cancelStopped(runId, reason) {
      const store = options.store;
      const previous = store?.getRun(runId);
      if (!store || !previous) throw new RunNotFound(runId);
      if (previous.kind === 'crew') return cancelStoppedCrew(store, previous, reason, now);
      if (previous.status !== 'paused' && previous.status !== 'interrupted') {
        throw new FlowNotResumable(`run ${runId} is ${previous.status === 'running' ? 'running' : `a ${previous.kind} run that is ${previous.status}`}; only paused or interrupted flows can be stopped this way`);
      }
      cancelStoppedFlow(store, runId, reason, now, previous.status === 'interrupted' ? { stoppedAt: previous.endedAt ?? now() } : undefined);
    },

    async resume(runId, run = {}) {
      const store = options.store;
      const previous = store?.getRun(runId);
      if (!store || !previous) throw new RunNotFound(runId);
      if (previous.kind === 'crew') return resumeCrew(runId, run);
      if (previous.kind !== 'flow') throw new FlowNotResumable(`run ${runId} is a crew run; only flows can be resumed (replay a crew with crewdeck replay)`);
      if (previous.status !== 'paused' && previous.status !== 'interrupted') {
        throw new FlowNotResumable(`run ${runId} is ${previous.status}; only paused or interrupted flows can be resumed`);
      }
      const parsed = FlowDocumentSchema.safeParse(previous.document);
      if (!parsed.success) throw new DocumentInvalid(`run ${runId} (stored document)`, problemsFromZod(parsed.error));
      // Relative paths (crew files, scripts) resolve from the document's folder: it must still be the workspace's.
      if (previous.documentPath) resolveWorkspaceDocument(workspace, previous.documentPath);
      const recording = offline?.fresh();
      requireReach(parsed.data, previous.documentPath, recording);
      return withMcp(mcpServersInFlow(parsed.data, workspace), recording, async (runTools) => resumeFlow({ runId, doc: parsed.data, documentPath: previous.documentPath, deps: await flowDeps(parsed.data, runTools, recording), store, signal: run.signal, onEvent: run.onEvent, now, budget: run.budget, offlineFrom: recording?.runId }, run.feedback));
    },

    openSessionRun(doc, run) {
      const name = `${doc.name} · ${run.purpose.of} evaluation`;
      return RunLifecycle.open(
        { runId: newRunId(now()), workspace, human, store: options.store, signal: run.signal, onEvent: run.onEvent, now },
        { kind: 'crew', documentId: doc.id, name, document: doc, documentPath: relativePath(run.documentPath), inputs: {} },
        { documentId: doc.id, documentName: name, process: 'evaluation', inputs: {}, stepIds: [], purpose: run.purpose },
      );
    },

    async runCrew(doc, run = {}) {
      const recording = offline?.fresh();
      requireReach(doc, run.documentPath, recording);
      return withMcp(mcpServersIn(doc), recording, async (runTools) => kickoffCrew({
        ...base,
        tools: runTools,
        memory: await memoryFor(doc, recording),
        recording,
        runId: run.runId ?? newRunId(now()),
        doc,
        inputs: resolveInputs(doc, run.inputs ?? {}),
        // Stored with forward slashes on every platform (the host API's document paths).
        documentPath: run.documentPath ? relative(workspace, run.documentPath).split(sep).join('/') : undefined,
        models: resolverFor(run.documentPath, recording),
        signal: run.signal,
        onEvent: run.onEvent,
        purpose: run.purpose,
        offlineFrom: recording?.runId,
        budget: run.budget,
      }));
    },

    async replay(runId, fromTaskId, run = {}) {
      const store = options.store;
      const previous = store?.getRun(runId);
      if (!store || !previous) throw new RunNotFound(runId);
      if (previous.kind === 'flow') throw new ReplayNotPossible(`run ${runId} is a flow run; replay a flow from a method with --from-method`);
      const parsed = CrewDocumentSchema.safeParse(previous.document);
      if (!parsed.success) throw new DocumentInvalid(`run ${runId} (stored document)`, problemsFromZod(parsed.error));
      const doc = parsed.data;
      const fromIndex = doc.tasks.findIndex((t) => t.id === fromTaskId);
      if (fromIndex < 0) throw new TaskNotFound(fromTaskId, doc.tasks.map((t) => t.id));
      const outputs = new Map(store.taskOutputs(runId).map((o) => [o.taskId, o]));
      const edits = run.edits && Object.keys(run.edits).length > 0 ? run.edits : undefined;
      for (const [taskId, text] of Object.entries(edits ?? {})) {
        const index = doc.tasks.findIndex((t) => t.id === taskId);
        if (index < 0) throw new TaskNotFound(taskId, doc.tasks.map((t) => t.id));
        if (index >= fromIndex) throw new ReplayNotPossible(`task "${taskId}" runs again in this replay (it is not before "${fromTaskId}"), so its output cannot be set; set only earlier tasks' outputs`);
        outputs.set(taskId, editedOutput(outputs.get(taskId), runId, taskId, index, doc.agents.find((a) => a.id === doc.tasks[index].agentId)?.role ?? '', text));
      }
      const unfinished = doc.tasks.slice(0, fromIndex).find((t) => !outputs.has(t.id));
      if (unfinished) {
        throw new ReplayNotPossible(
          `task "${unfinished.id}" did not finish in run ${runId}, so there is no output of it to reuse; replay from "${unfinished.id}" or an earlier task`,
        );
      }
      // Scripts resolve from the document's folder: the one document-path check, symlinks included.
      const documentPath = previous.documentPath ? resolveWorkspaceDocument(workspace, previous.documentPath).file : undefined;
      const recording = offline?.fresh();
      requireReach(doc, previous.documentPath, recording);
      return withMcp(mcpServersIn(doc), recording, async (runTools) => kickoffCrew({
        ...base,
        tools: runTools,
        memory: await memoryFor(doc, recording),
        recording,
        runId: run.runId ?? newRunId(now()),
        doc,
        inputs: previous.inputs,
        documentPath: previous.documentPath,
        models: resolverFor(documentPath, recording),
        signal: run.signal,
        onEvent: run.onEvent,
        replay: { runId, fromTaskId, fromIndex, outputs, edits },
        offlineFrom: recording?.runId,
        budget: run.budget,
      }));
    },
  };

  /**
   * A crew paused at its budget continues under a higher cap, and one interrupted (its process died)
   * continues as it was, both from the first task with no stored output; finished tasks are not re-run.
   */
  async function resumeCrew(runId: string, run: ResumeOptions): Promise<CrewRunResult> {
    const store = options.store!;
    // Reading the run marks one whose process died as interrupted.
    const previous = store.getRun(runId)!;
    const checkpoint = (store.loadCheckpoint(runId) as CrewCheckpoint | undefined) ?? (previous.status === 'interrupted' ? positionFromEvents(store, previous) : undefined);
    const waits = checkpoint?.pending !== undefined || checkpoint?.humanPending !== undefined;
    const resumable = checkpoint?.kind === 'crew' && ((previous.status === 'paused' && waits) || previous.status === 'interrupted');
    if (previous.status === 'cancelled') {
      throw new FlowNotResumable(`run ${runId} was cancelled${previous.error ? ` (${previous.error})` : ''}, so it cannot be resumed; run it again from a task with crewdeck replay ${runId} --from-task <taskId>`);
    }
    if (!resumable) {
      const why = previous.status === 'running' ? `running (process still alive)` : `${previous.status}${previous.status === 'paused' || previous.status === 'interrupted' ? ' with no saved position' : ''}`;
      throw new FlowNotResumable(`run ${runId} is a crew run that is ${why}; only crews paused (at their budget, or for a person) or interrupted can be resumed (replay a crew with crewdeck replay)`);
    }
    // Paused for a person: the answer must fit what was asked (feedback for a review, a decision for a tool).
    const asked = previous.status === 'paused' ? checkpoint.humanPending : undefined;
    const answer = asked ? answerOf(asked, run, runId) : undefined;
    const parsed = CrewDocumentSchema.safeParse(previous.document);
    if (!parsed.success) throw new DocumentInvalid(`run ${runId} (stored document)`, problemsFromZod(parsed.error));
    const doc = parsed.data;
    const events = previous.status === 'interrupted' ? store.events(runId) : undefined;
    const interrupted = events ? interruptedCrew(events, previous.endedAt ?? now()) : undefined;
    if (checkpoint.pending) {
      const budget = { ...(checkpoint.budget ?? {}), ...(run.budget ?? {}) };
      const still = reachedCap(budget, checkpoint.tokenUsage);
      if (still) throw new BudgetNotRaised(runId, still.which, still.spent, still.limit);
    }
    const documentPath = previous.documentPath ? resolveWorkspaceDocument(workspace, previous.documentPath).file : undefined;
    const outputs = new Map(store.taskOutputs(runId).map((o) => [o.taskId, o]));
    const recording = offline?.fresh();
    requireReach(doc, previous.documentPath, recording);
    return withMcp(mcpServersIn(doc), recording, async (runTools) => kickoffCrew({
      ...base,
      tools: runTools,
      memory: await memoryFor(doc, recording),
        recording,
      runId,
      doc,
      inputs: previous.inputs,
      documentPath: previous.documentPath,
      models: resolverFor(documentPath, recording),
      signal: run.signal,
      onEvent: run.onEvent,
      budget: run.budget,
      offlineFrom: recording?.runId,
      resume: { checkpoint, outputs, ...(interrupted ? { interrupted } : {}), ...(answer ? { answer } : {}) },
    }));
  }
}

/** A stored task output replaced by an edited text (its JSON too, when the text is JSON). */
function editedOutput(stored: StoredTaskOutput | undefined, runId: string, taskId: string, index: number, agentRole: string, raw: string): StoredTaskOutput {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  return { runId, taskId, index, agentRole: stored?.agentRole ?? agentRole, raw, ...(json !== undefined && typeof json === 'object' ? { json } : {}), skipped: false, tokenUsage: emptyUsage() };
}
