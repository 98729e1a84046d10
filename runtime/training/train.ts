import type { CrewDocument } from '../../shared/model/crew';
import type { SuggestionStatus, SuggestionVersion } from '../../shared/training';
import type { TokenUsage } from '../../shared/usage';
import { errorMessage, errorName, RunCancelled } from '../errors';
import type { ModelResolver } from '../llm/resolveModel';
import { newRunId } from '../runId';
import type { Runtime } from '../runtime';
import { nextIterationRun, openCrewSession, runIteration, type CrewSession, type CrewSessionRequest } from './crewSession';
import { RecordCapture } from './recordCapture';
import { TrainingRunFailed } from './trainingErrors';
import { evaluateRole, type TrainingEvaluation } from './trainingEvaluation';
import type { TrainingStore } from './trainingStore';

export const MAX_TRAINING_ITERATIONS = 50;

export interface TrainRequest extends CrewSessionRequest {
  /** Runs the iterations; its human channel is who gives the feedback. */
  runtime: Runtime;
  store: TrainingStore;
  /** Resolves the evaluator models (the agents' own, or `evalModel`). */
  models: ModelResolver;
  /** A model profile that evaluates every role instead of the agents' own models. */
  evalModel?: string;
  /** Status of the versions this training adds (workspace setting `training.newVersions`). */
  newVersions?: Extract<SuggestionStatus, 'active' | 'draft'>;
  trainingId?: string;
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
  const { store } = req;
  const session = openCrewSession(req, { of: 'training', store, maxIterations: MAX_TRAINING_ITERATIONS, id: req.trainingId, newId: newTrainingId });
  const { id: trainingId, span, run, runIds } = session;
  span.emit({ type: 'training.started', sessionId: trainingId, crewId: req.doc.id, iterations: req.iterations });
  const tally: Tally = { workedRoles: new Set<string>(), recordCount: 0 };
  const fail = (status: 'failed' | 'cancelled', error: { name: string; message: string }, cause: unknown): TrainResult => {
    store.setSessionStatus(trainingId, 'failed', error.message);
    span.emit({ type: 'training.failed', sessionId: trainingId, error: error.message, cancelled: status === 'cancelled' });
    run.finish({ kind: 'error', error: cause });
    return { trainingId, status, runIds, recordCount: tally.recordCount, versions: [], rolesWithoutFeedback: [], evaluationRunId: run.runId, evaluatorUsage: run.usage(), error };
  };

  try {
    const stopped = await runIterations(req, session, tally);
    if (stopped) return fail(stopped.status, stopped.error, stopped.cause);
    const { roles, evaluations } = await evaluateRoles(store, session, req.doc.id);
    return completeTraining(req, session, tally, roles, evaluations);
  } catch (error) {
    const result = fail(req.signal?.aborted ? 'cancelled' : 'failed', { name: errorName(error), message: errorMessage(error) }, error);
    if (result.status === 'cancelled') return result;
    throw error;
  } finally {
    run.close();
  }
}

/** What the iterations found: the roles that worked, and how many feedback records they got. */
interface Tally {
  workedRoles: Set<string>;
  recordCount: number;
}

type RoleEvaluation = { role: string; evaluation: TrainingEvaluation; recordIds: number[] };

/** The training runs, one after the other, each reviewed answer stored as a record; the first that does not complete stops them. */
async function runIterations(
  req: TrainRequest,
  session: CrewSession,
  tally: Tally,
): Promise<{ status: 'failed' | 'cancelled'; error: { name: string; message: string }; cause: Error } | undefined> {
  const { store } = req;
  const { id: trainingId, span } = session;
  const crewId = req.doc.id;
  const doc = trainingCrew(req.doc);
  for (let iteration = 1; iteration <= req.iterations; iteration++) {
    const runId = nextIterationRun(session, store);
    const capture = new RecordCapture((review) => {
      store.addRecord({ trainingId, crewId, iteration, ...review });
      tally.recordCount += 1;
    });
    span.emit({ type: 'training.iteration.started', sessionId: trainingId, iteration, iterations: req.iterations, runId });
    const result = await runIteration(req, doc, { runId, kind: 'training', sessionId: trainingId, iteration }, (event) => {
      if (event.type === 'agent.started') tally.workedRoles.add(event.role);
      capture.handle(event);
    });
    if (result.status !== 'completed') {
      const message = `training run ${iteration} of ${req.iterations} (${runId}) ${result.status}: ${result.error?.message ?? ''}`;
      const error = { name: result.error?.name ?? 'RunFailed', message };
      return result.status === 'cancelled' ? { status: 'cancelled', error, cause: new RunCancelled(message) } : { status: 'failed', error, cause: new TrainingRunFailed(message) };
    }
  }
  return undefined;
}

/** One evaluation per role that got feedback, of its records against its active version. */
async function evaluateRoles(store: TrainingStore, session: CrewSession, crewId: string): Promise<{ roles: string[]; evaluations: RoleEvaluation[] }> {
  const { id: trainingId, span, run } = session;
  store.setSessionStatus(trainingId, 'evaluating');
  const records = store.records({ crewId, trainingId });
  const roles = [...new Set(records.map((r) => r.role))];
  span.emit({ type: 'training.evaluation.started', sessionId: trainingId, roles });
  const evaluations: RoleEvaluation[] = [];
  for (const role of roles) {
    const own = records.filter((r) => r.role === role);
    const current = store.active(crewId, role);
    const { evaluation } = await evaluateRole({ ctx: run.context(), parent: span }, session.evaluator(role), role, own, current);
    span.emit({ type: 'training.evaluated', sessionId: trainingId, role, quality: evaluation.quality, summary: evaluation.summary });
    evaluations.push({ role, evaluation, recordIds: own.map((r) => r.id) });
  }
  return { roles, evaluations };
}

/** Every role evaluated: only now are versions added (all of them, or none), and the session completes. */
function completeTraining(req: TrainRequest, session: CrewSession, tally: Tally, roles: string[], evaluations: RoleEvaluation[]): TrainResult {
  const { store } = req;
  const { id: trainingId, span, run, runIds } = session;
  const crewId = req.doc.id;
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
  span.emit({ type: 'training.completed', sessionId: trainingId, versions: versions.length, runIds, tokenUsage: run.usage() });
  const end = run.finish({ kind: 'completed', output: `${versions.length} suggestion version(s) from ${tally.recordCount} feedback record(s)` });
  return {
    trainingId,
    status: 'completed',
    runIds,
    recordCount: tally.recordCount,
    versions,
    rolesWithoutFeedback: [...tally.workedRoles].filter((r) => !roles.includes(r)),
    evaluationRunId: run.runId,
    evaluatorUsage: end.tokenUsage,
  };
}
