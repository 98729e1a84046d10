import { z } from 'zod';
import { TokenUsageSchema } from '../usage';
import { num, str } from './eventParts';

/** The `training.*` events: their payloads (the envelope is added by the emitter). */
export const TRAINING_EVENTS = {
  /** A training session (SPEC §6) starts; its events are in its evaluation run, under one session span. */
  'training.started': z.strictObject({ sessionId: str, crewId: str, iterations: num }),
  /** One iteration's crew run opened (`runId`, a run of its own). */
  'training.iteration.started': z.strictObject({ sessionId: str, iteration: num, iterations: num, runId: str }),
  /** The runs are done: the evaluator turns each role's feedback records into suggestions. */
  'training.evaluation.started': z.strictObject({ sessionId: str, roles: z.array(str) }),
  'training.evaluated': z.strictObject({ sessionId: str, role: str, quality: num, summary: str }),
  'training.version.created': z.strictObject({ sessionId: str, role: str, version: num, status: str }),
  'training.completed': z.strictObject({ sessionId: str, versions: num, runIds: z.array(str), tokenUsage: TokenUsageSchema }),
  'training.failed': z.strictObject({ sessionId: str, error: str, cancelled: z.boolean() }),
};
