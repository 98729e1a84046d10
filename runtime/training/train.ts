import type { CrewDocument } from '../../shared/model/crew';
import type { RuntimeEvent } from '../../shared/events';
import type { SuggestionStatus, SuggestionVersion } from '../../shared/training';
import type { TokenUsage } from '../../shared/usage';
import { errorMessage, errorName, RunCancelled } from '../errors';
import { interpolateCrew, resolveInputs } from '../crew/interpolate';
import type { ModelResolver } from '../llm/resolveModel';
import { newRunId } from '../runId';
import type { Runtime } from '../runtime';
import { evaluatorFor } from './evaluatorModel';
import { RecordCapture } from './recordCapture';
import { TrainingInvalid, TrainingRunFailed } from './trainingErrors';
import { evaluateRole, type TrainingEvaluation } from './trainingEvaluation';
import type { TrainingStore } from './trainingStore';

export const MAX_TRAINING_ITERATIONS = 50;

export interface TrainRequest {
  doc: CrewDocument;
  iterations: number;
  /** Runs the iterations; its human channel is who gives the feedback. */
  runtime: Runtime;
  store: TrainingStore;
  /** Resolves the evaluator models (the agents' own, or `evalModel`). */
  models: ModelResolver;
  /** A model profile that evaluates every role instead of the agents' own models. */
  evalModel?: string;
  /** Status of the versions this training adds (workspace setting `training.newVersions`). */
  newVersions?: Extract<SuggestionStatus, 'active' | 'draft'>;
  inputs?: Record<string, string>;
  /** Absolute path of the crew file. */
  documentPath?: string;
  /** The same path relative to the workspace, as stored with the session. */
  storedPath?: string;
  signal?: AbortSignal;
  /** The events of the iterations' crew runs. */
  onEvent?: (event: RuntimeEvent) => void;
  /** The events of the session's own evaluation run: `training.*` progress and the evaluator's `llm.*` calls. */
  onSessionEvent?: (event: RuntimeEvent) => void;
  trainingId?: string;
  now?: () => number;
}

export interface TrainResult {
  trainingId: string;
  status: 'completed' | 'failed' | 'cancelled';
  runIds: string[];
  recordCount: number;
  versions: SuggestionVersion[];
  /** Roles that worked but got no feedback: no version for them. */
  rolesWithoutFeedback: string[];
  /** The session's own run: its `training.*` events and the evaluator's calls, whose tokens are `evaluatorUsage`. */
  evaluationRunId: string;
  evaluatorUsage: TokenUsage;
  error?: { name: string; message: string };
}

/** The crew as a training run runs it: every task reviewed by a human, no delegation. */
export function trainingCrew(doc: CrewDocument): CrewDocument {
  return {
    ...doc,
    agents: doc.agents.map((a) => ({ ...a, allowDelegation: false })),
    tasks: doc.tasks.map((t) => ({ ...t, humanInput: true })),
  };
}

export function newTrainingId(now: number): string {
  return newRunId(now).replace(/^run_/, 'train_');
}

/**
 * Trains a crew (SPEC §6): N ordinary runs of the crew with human review of every task (marked as
 * training runs in `run.started`), a record per reviewed answer, then one evaluation per role that
 * turns its records into a new suggestion version. A run that fails or is cancelled stops the
 * training (its records stay); an evaluation that cannot be read stores no version at all.
 */
export async function train(req: TrainRequest): Promise<TrainResult> {
  const now = req.now ?? Date.now;
  if (!Number.isInteger(req.iterations) || req.iterations < 1 || req.iterations > MAX_TRAINING_ITERATIONS) {
    throw new TrainingInvalid(`iterations must be a whole number from 1 to ${MAX_TRAINING_ITERATIONS} (got ${req.iterations})`);
  }
  // Bad input (a missing input, an unknown evaluator profile) is reported before anything runs.
  const interpolated = interpolateCrew(req.doc, resolveInputs(req.doc, req.inputs ?? {}));
  const evaluator = evaluatorFor(interpolated, req.models, req.evalModel);
  const trainingId = req.trainingId ?? newTrainingId(now());
  const crewId = req.doc.id;
  const { store } = req;
  store.createSession({ id: trainingId, crewId, name: req.doc.name, documentPath: req.storedPath, iterations: req.iterations, evalModel: req.evalModel });
  const session = req.runtime.openSessionRun(req.doc, { purpose: { kind: 'evaluation', of: 'training', sessionId: trainingId }, documentPath: req.documentPath, signal: req.signal, onEvent: req.onSessionEvent });
  store.setEvaluationRun(trainingId, session.runId);
  const span = session.root.child();
  span.emit({ type: 'training.started', sessionId: trainingId, crewId, iterations: req.iterations });

  const runIds: string[] = [];
  const workedRoles = new Set<string>();
  let recordCount = 0;
  const fail = (status: 'failed' | 'cancelled', error: { name: string; message: string }, cause: unknown): TrainResult => {
    store.setSessionStatus(trainingId, 'failed', error.message);
    span.emit({ type: 'training.failed', sessionId: trainingId, error: error.message, cancelled: status === 'cancelled' });
    session.finish({ kind: 'error', error: cause });
    return { trainingId, status, runIds, recordCount, versions: [], rolesWithoutFeedback: [], evaluationRunId: session.runId, evaluatorUsage: session.usage(), error };
  };

  try {
    const doc = trainingCrew(req.doc);
    for (let iteration = 1; iteration <= req.iterations; iteration++) {
      const runId = newRunId(now());
      runIds.push(runId);
      store.addSessionRun(trainingId, runId);
      const capture = new RecordCapture((review) => {
        store.addRecord({ trainingId, crewId, iteration, ...review });
        recordCount += 1;
      });
      span.emit({ type: 'training.iteration.started', sessionId: trainingId, iteration, iterations: req.iterations, runId });
      const result = await req.runtime.runCrew(doc, {
        runId,
        inputs: req.inputs,
        documentPath: req.documentPath,
        signal: req.signal,
        purpose: { kind: 'training', sessionId: trainingId, iteration, iterations: req.iterations },
        onEvent: (event) => {
          if (event.type === 'agent.started') workedRoles.add(event.role);
          capture.handle(event);
          req.onEvent?.(event);
        },
      });
      if (result.status !== 'completed') {
        const message = `training run ${iteration} of ${req.iterations} (${runId}) ${result.status}: ${result.error?.message ?? ''}`;
        const error = { name: result.error?.name ?? 'RunFailed', message };
        return fail(result.status === 'cancelled' ? 'cancelled' : 'failed', error, result.status === 'cancelled' ? new RunCancelled(message) : new TrainingRunFailed(message));
      }
    }

    store.setSessionStatus(trainingId, 'evaluating');
    const records = store.records({ crewId, trainingId });
    const roles = [...new Set(records.map((r) => r.role))];
    span.emit({ type: 'training.evaluation.started', sessionId: trainingId, roles });
    const evaluations: { role: string; evaluation: TrainingEvaluation; recordIds: number[] }[] = [];
    for (const role of roles) {
      const own = records.filter((r) => r.role === role);
      const current = store.active(crewId, role);
      const { evaluation } = await evaluateRole({ ctx: session.context(), parent: span }, evaluator(role), role, own, current);
      span.emit({ type: 'training.evaluated', sessionId: trainingId, role, quality: evaluation.quality, summary: evaluation.summary });
      evaluations.push({ role, evaluation, recordIds: own.map((r) => r.id) });
    }
    // Every role evaluated: only now are versions added (all of them, or none).
    const versions = evaluations.map(({ role, evaluation, recordIds }) =>
      store.addVersion({
        crewId,
        role,
        status: req.newVersions ?? 'active',
        suggestions: evaluation.suggestions,
        quality: evaluation.quality,
        summary: evaluation.summary,
        trainingId,
        runIds,
        recordIds,
      }),
    );
    for (const v of versions) span.emit({ type: 'training.version.created', sessionId: trainingId, role: v.role, version: v.version, status: v.status });
    store.setSessionStatus(trainingId, 'completed');
    span.emit({ type: 'training.completed', sessionId: trainingId, versions: versions.length, runIds, tokenUsage: session.usage() });
    const end = session.finish({ kind: 'completed', output: `${versions.length} suggestion version(s) from ${recordCount} feedback record(s)` });
    return {
      trainingId,
      status: 'completed',
      runIds,
      recordCount,
      versions,
      rolesWithoutFeedback: [...workedRoles].filter((r) => !roles.includes(r)),
      evaluationRunId: session.runId,
      evaluatorUsage: end.tokenUsage,
    };
  } catch (error) {
    const result = fail(req.signal?.aborted ? 'cancelled' : 'failed', { name: errorName(error), message: errorMessage(error) }, error);
    if (result.status === 'cancelled') return result;
    throw error;
  } finally {
    session.close();
  }
}
