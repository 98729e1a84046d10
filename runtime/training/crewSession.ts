import type { CrewDocument } from '../../shared/model/crew';
import type { RuntimeEvent } from '../../shared/events';
import { interpolateCrew, resolveInputs } from '../crew/interpolate';
import type { CrewRunResult } from '../crew/kickoff';
import type { Span } from '../events/span';
import type { ChatModel } from '../llm/chatModel';
import type { ModelResolver } from '../llm/resolveModel';
import type { RunLifecycle } from '../run/runLifecycle';
import { newRunId } from '../runId';
import type { Runtime } from '../runtime';
import { evaluatorFor } from './evaluatorModel';
import { TrainingInvalid } from './trainingErrors';

/**
 * What a training session and a crew test are both asked (SPEC §6): N runs of a crew, each marked as one
 * iteration of the session, and the session's own run, where an evaluator model gives its verdicts.
 */
export interface CrewSessionRequest {
  doc: CrewDocument;
  iterations: number;
  runtime: Runtime;
  models: ModelResolver;
  evalModel?: string;
  inputs?: Record<string, string>;
  /** Absolute path of the crew file. */
  documentPath?: string;
  /** The same path relative to the workspace, as stored with the session. */
  storedPath?: string;
  signal?: AbortSignal;
  /** The events of the iterations' crew runs. */
  onEvent?: (event: RuntimeEvent) => void;
  /** The events of the session's own evaluation run: its progress events and the evaluator's `llm.*` calls. */
  onSessionEvent?: (event: RuntimeEvent) => void;
  now?: () => number;
}

/** Where a session's rows are kept (TrainingStore, TestStore). */
export interface CrewSessionStore {
  createSession(session: { id: string; crewId: string; name: string; documentPath?: string; iterations: number; evalModel?: string }): void;
  addSessionRun(id: string, runId: string): void;
  setEvaluationRun(id: string, runId: string): void;
}

/** A session opened: stored, its own run started. */
export interface CrewSession {
  id: string;
  now: () => number;
  /** The crew with its inputs filled in. */
  interpolated: CrewDocument;
  evaluator: (role: string) => ChatModel;
  /** The session's own run. */
  run: RunLifecycle;
  /** Where the session's progress events go, under its run's root. */
  span: Span;
  /** The iterations' crew runs so far. */
  runIds: string[];
}

/**
 * Opens a training session or a test: bad input (iterations out of range, a missing input, an unknown
 * evaluator profile) is reported before anything runs; then the session is stored and its own run opened.
 */
export function openCrewSession(
  req: CrewSessionRequest,
  session: { of: 'training' | 'test'; store: CrewSessionStore; maxIterations: number; id: string | undefined; newId: (now: number) => string },
): CrewSession {
  const now = req.now ?? Date.now;
  const { maxIterations, store } = session;
  if (!Number.isInteger(req.iterations) || req.iterations < 1 || req.iterations > maxIterations) {
    throw new TrainingInvalid(`iterations must be a whole number from 1 to ${maxIterations} (got ${req.iterations})`);
  }
  const interpolated = interpolateCrew(req.doc, resolveInputs(req.doc, req.inputs ?? {}));
  const evaluator = evaluatorFor(interpolated, req.models, req.evalModel);
  const id = session.id ?? session.newId(now());
  store.createSession({ id, crewId: req.doc.id, name: req.doc.name, documentPath: req.storedPath, iterations: req.iterations, evalModel: req.evalModel });
  const run = req.runtime.openSessionRun(req.doc, { purpose: { kind: 'evaluation', of: session.of, sessionId: id }, documentPath: req.documentPath, signal: req.signal, onEvent: req.onSessionEvent });
  store.setEvaluationRun(id, run.runId);
  return { id, now, interpolated, evaluator, run, span: run.root.child(), runIds: [] };
}

/** The id of an iteration's crew run, chosen now and stored with the session before the run starts. */
export function nextIterationRun(session: CrewSession, store: CrewSessionStore): string {
  const runId = newRunId(session.now());
  session.runIds.push(runId);
  store.addSessionRun(session.id, runId);
  return runId;
}

/** Runs one iteration's crew run: `watch` sees its events before the request's `onEvent` does. */
export function runIteration(
  req: CrewSessionRequest,
  doc: CrewDocument,
  iteration: { runId: string; kind: 'training' | 'test'; sessionId: string; iteration: number },
  watch: (event: RuntimeEvent) => void,
): Promise<CrewRunResult> {
  const { runId, kind, sessionId } = iteration;
  return req.runtime.runCrew(doc, {
    runId,
    inputs: req.inputs,
    documentPath: req.documentPath,
    signal: req.signal,
    purpose: { kind, sessionId, iteration: iteration.iteration, iterations: req.iterations },
    onEvent: (event) => {
      watch(event);
      req.onEvent?.(event);
    },
  });
}
