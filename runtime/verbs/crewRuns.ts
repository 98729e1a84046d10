import type { CrewDocument } from '../../shared/model/crew';
import { kickoffCrew, type CrewRunResult, type KickoffRequest } from '../crew/kickoff';
import { resolveInputs } from '../crew/interpolate';
import { ReplayNotPossible } from '../errors';
import { mcpServersIn } from '../mcp/mcpReferences';
import { RunLifecycle } from '../run/runLifecycle';
import { newRunId } from '../runId';
import { crewReplayPlan } from '../prepare/crewReplayPlan';
import { interruptionOf, pausedAnswer, requireRaisedBudget, resumableCheckpoint } from '../prepare/crewResumePlan';
import { crewKickoffBase, prepareRun, type RunPreparation } from '../prepare/runPreparation';
import type { RunParts } from '../prepare/runStrategy';
import { workspaceRelative } from '../prepare/runtimeSetup';
import { storedCrew, storedDocumentFile, storedRun } from '../prepare/storedRun';
import type { ResumeOptions, RunCrewOptions, Runtime } from '../runtimeApi';
import type { RunRecord } from '../store/types';

type ReplayOptions = Omit<RunCrewOptions, 'inputs' | 'documentPath'> & { edits?: Record<string, string> };
type SessionRunOptions = Parameters<Runtime['openSessionRun']>[1];

export async function runCrew(prep: RunPreparation, doc: CrewDocument, run: RunCrewOptions): Promise<CrewRunResult> {
  const parts = prepareRun(prep, doc, run.documentPath);
  const { workspace, now } = prep.setup;
  return parts.withTools(mcpServersIn(doc), async (tools) => kickoffCrew({
    ...(await crewKickoffBase(prep, parts, doc, tools)),
    runId: run.runId ?? newRunId(now()),
    doc,
    inputs: resolveInputs(doc, run.inputs ?? {}),
    documentPath: workspaceRelative(workspace, run.documentPath),
    models: parts.models(run.documentPath),
    signal: run.signal,
    onEvent: run.onEvent,
    purpose: run.purpose,
    offlineFrom: parts.recording?.runId,
    budget: run.budget,
  }));
}

/** Re-runs a stored crew run from a task; earlier tasks' stored outputs are reused, not re-run. */
export async function replayCrew(prep: RunPreparation, runId: string, fromTaskId: string, run: ReplayOptions): Promise<CrewRunResult> {
  const { store, previous } = storedRun(prep.setup.store, runId);
  if (previous.kind === 'flow') throw new ReplayNotPossible(`run ${runId} is a flow run; replay a flow from a method with --from-method`);
  const doc = storedCrew(runId, previous);
  const replay = crewReplayPlan(store, runId, doc, fromTaskId, run.edits);
  const documentPath = storedDocumentFile(prep.setup.workspace, previous);
  const parts = prepareRun(prep, doc, previous.documentPath);
  const { now } = prep.setup;
  return parts.withTools(mcpServersIn(doc), async (tools) => kickoffCrew({
    ...(await crewKickoffBase(prep, parts, doc, tools)),
    ...storedRunKickoff(parts, previous, documentPath, run),
    runId: run.runId ?? newRunId(now()),
    doc,
    replay,
  }));
}

/**
 * What a kickoff of a stored run (replayed or resumed) takes from it: its inputs and document path, the
 * models for its document file (`documentFile`), and the new call's signal, events and budget.
 */
function storedRunKickoff(
  parts: RunParts,
  previous: RunRecord,
  documentFile: string | undefined,
  run: Pick<RunCrewOptions, 'signal' | 'onEvent' | 'budget'>,
): Pick<KickoffRequest, 'inputs' | 'documentPath' | 'models' | 'signal' | 'onEvent' | 'budget' | 'offlineFrom'> {
  return {
    inputs: previous.inputs,
    documentPath: previous.documentPath,
    models: parts.models(documentFile),
    signal: run.signal,
    onEvent: run.onEvent,
    budget: run.budget,
    offlineFrom: parts.recording?.runId,
  };
}

/**
 * A crew paused at its budget continues under a higher cap, one paused for a person with the answer,
 * and one interrupted (its process died) as it was, all from the first task with no stored output;
 * finished tasks are not re-run.
 */
export async function resumeCrew(prep: RunPreparation, runId: string, run: ResumeOptions): Promise<CrewRunResult> {
  const { workspace, now } = prep.setup;
  // Reading the run marks one whose process died as interrupted.
  const { store, previous } = storedRun(prep.setup.store, runId);
  const checkpoint = resumableCheckpoint(store, previous, runId);
  const answer = pausedAnswer(previous, checkpoint, run, runId);
  const doc = storedCrew(runId, previous);
  const interrupted = interruptionOf(store, previous, runId, now);
  requireRaisedBudget(runId, checkpoint, run.budget);
  const documentPath = storedDocumentFile(workspace, previous);
  const outputs = new Map(store.taskOutputs(runId).map((o) => [o.taskId, o]));
  const parts = prepareRun(prep, doc, previous.documentPath);
  return parts.withTools(mcpServersIn(doc), async (tools) => kickoffCrew({
    ...(await crewKickoffBase(prep, parts, doc, tools)),
    ...storedRunKickoff(parts, previous, documentPath, run),
    runId,
    doc,
    resume: { checkpoint, outputs, ...(interrupted ? { interrupted } : {}), ...(answer ? { answer } : {}) },
  }));
}

/**
 * A training session's or test's own run (`run.started.purpose.kind: "evaluation"`): the session emits
 * its events into it and calls its evaluator through it, then finishes it.
 */
export function openSessionRun(prep: RunPreparation, doc: CrewDocument, run: SessionRunOptions): RunLifecycle {
  const { workspace, human, store, now } = prep.setup;
  const name = `${doc.name} · ${run.purpose.of} evaluation`;
  return RunLifecycle.open(
    { runId: newRunId(now()), workspace, human, store, signal: run.signal, onEvent: run.onEvent, now },
    { kind: 'crew', documentId: doc.id, name, document: doc, documentPath: workspaceRelative(workspace, run.documentPath), inputs: {} },
    { documentId: doc.id, documentName: name, process: 'evaluation', inputs: {}, stepIds: [], purpose: run.purpose },
  );
}
