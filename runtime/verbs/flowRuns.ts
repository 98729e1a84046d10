import type { FlowDocument } from '../../shared/model/flow';
import { flowSchemaProblems } from '../document/schemaProblems';
import { DocumentInvalid, MissingInput, ReplayNotPossible } from '../errors';
import { FlowNotResumable } from '../flow/flowErrors';
import { planFlowFork } from '../flow/flowFork';
import { resumeFlow, startFlow } from '../flow/flowRun';
import type { FlowRunResult } from '../flow/flowRunTypes';
import { mcpServersInFlow } from '../mcp/mcpReferences';
import { newRunId } from '../runId';
import { flowDeps, prepareRun, type RunPreparation } from '../prepare/runPreparation';
import { workspaceRelative } from '../prepare/runtimeSetup';
import { storedDocumentFile, storedFlow, storedRun, type StoredRun } from '../prepare/storedRun';
import type { ResumeOptions, RunCrewOptions } from '../runtimeApi';

type ReplayFlowOptions = Omit<RunCrewOptions, 'inputs' | 'documentPath'> & { state?: Record<string, unknown> };

/** Runs a flow; it may end `paused`, waiting for feedback. */
export async function runFlow(prep: RunPreparation, doc: FlowDocument, run: RunCrewOptions): Promise<FlowRunResult> {
  const problems = flowSchemaProblems(doc);
  if (problems.length > 0) throw new DocumentInvalid(run.documentPath ?? `flow "${doc.id}"`, problems);
  const inputs = doc.inputs ?? [];
  const declared = Object.fromEntries(inputs.flatMap((i): [string, string][] => (i.default === undefined ? [] : [[i.name, i.default]])));
  const [missing] = inputs.filter((i) => i.default === undefined && run.inputs?.[i.name] === undefined).map((i) => i.name);
  if (missing !== undefined) throw new MissingInput(missing, ['flow inputs']);
  const parts = prepareRun(prep, doc, run.documentPath);
  const { store, now } = prep.setup;
  return parts.withTools(mcpServersInFlow(doc, prep.setup.workspace), async (tools) => startFlow(
    { runId: run.runId ?? newRunId(now()), doc, documentPath: workspaceRelative(prep.setup.workspace, run.documentPath), deps: await flowDeps(prep, parts, doc, tools), store, signal: run.signal, onEvent: run.onEvent, now, offlineFrom: parts.recording?.runId, budget: run.budget },
    { ...declared, ...(run.inputs ?? {}) },
  ));
}

/**
 * Forks a stored flow run from a method: calls completed before it first started are taken from the
 * recording, the state there is the recorded one with `state` set on it, and the rest runs again, as a new run.
 */
export async function replayFlow(prep: RunPreparation, runId: string, fromMethodId: string, run: ReplayFlowOptions): Promise<FlowRunResult> {
  const { store, previous } = storedRun(prep.setup.store, runId);
  if (previous.kind !== 'flow') throw new ReplayNotPossible(`run ${runId} is a crew run; replay a crew from a task with --from-task`);
  const doc = storedFlow(runId, previous);
  const fork = planFlowFork(doc, { runId, inputs: previous.inputs, events: store.events(runId) }, fromMethodId, run.state);
  storedDocumentFile(prep.setup.workspace, previous);
  const parts = prepareRun(prep, doc, previous.documentPath);
  const { now } = prep.setup;
  return parts.withTools(mcpServersInFlow(doc, prep.setup.workspace), async (tools) => startFlow(
    { runId: run.runId ?? newRunId(now()), doc, documentPath: previous.documentPath, deps: await flowDeps(prep, parts, doc, tools), store, signal: run.signal, onEvent: run.onEvent, now, offlineFrom: parts.recording?.runId, budget: run.budget, fork },
    previous.inputs,
  ));
}

/** Continues a paused (or interrupted) flow, answering its pending feedback; completed methods are not run again. */
export async function resumeStoppedFlow(prep: RunPreparation, runId: string, { store, previous }: StoredRun, run: ResumeOptions): Promise<FlowRunResult> {
  if (previous.kind !== 'flow') throw new FlowNotResumable(`run ${runId} is a crew run; only flows can be resumed (replay a crew with crewdeck replay)`);
  if (previous.status !== 'paused' && previous.status !== 'interrupted') {
    throw new FlowNotResumable(`run ${runId} is ${previous.status}; only paused or interrupted flows can be resumed`);
  }
  const doc = storedFlow(runId, previous);
  storedDocumentFile(prep.setup.workspace, previous);
  const parts = prepareRun(prep, doc, previous.documentPath);
  const { now } = prep.setup;
  return parts.withTools(mcpServersInFlow(doc, prep.setup.workspace), async (tools) => resumeFlow(
    { runId, doc, documentPath: previous.documentPath, deps: await flowDeps(prep, parts, doc, tools), store, signal: run.signal, onEvent: run.onEvent, now, budget: run.budget, offlineFrom: parts.recording?.runId },
    run.feedback,
  ));
}
