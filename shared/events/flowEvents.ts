import { z } from 'zod';
import { num, readAs, str } from './eventParts';

/** The `flow.*` events: their payloads (the envelope is added by the emitter). */
export const FLOW_EVENTS = {
  /** A flow method starts (its span holds the body's events: a crew's tasks, model calls, the feedback request). */
  /** `call`: how many times this method has run in this run, this time included (loops run a method again). */
  'flow.method.started': z.strictObject({ methodId: str, methodName: str, bodyType: str, trigger: str, triggeredBy: str.optional(), input: str.optional(), call: num }),
  /** A router chose a route (before its method completes). */
  'flow.route': z.strictObject({ methodId: str, methodName: str, route: str, reason: str, rawReply: str.optional(), readAs: readAs.optional() }),
  'flow.method.completed': z.strictObject({ methodId: str, methodName: str, output: str, route: str.optional(), state: z.record(str, z.unknown()), changed: z.array(str), durationMs: num, restoredFrom: str.optional() }),
  'flow.method.failed': z.strictObject({ methodId: str, methodName: str, error: str, errorName: str, durationMs: num }),
  /** The method stopped at the run's budget (see `budget.reached`): it runs again, from its start, when the run resumes. */
  'flow.method.paused': z.strictObject({ methodId: str, methodName: str, reason: z.literal('budget'), message: str, durationMs: num }),
  /** One item of a for_each method starts (its span holds the item's body: a crew, an agent, a model call). */
  'flow.item.started': z.strictObject({ methodId: str, methodName: str, index: num, total: num, item: str }),
  /** `restoredFrom`: the item finished in an earlier session of the run and was not run again. */
  'flow.item.completed': z.strictObject({ methodId: str, methodName: str, index: num, total: num, output: str, durationMs: num, restoredFrom: z.literal('checkpoint').optional() }),
  'flow.item.failed': z.strictObject({ methodId: str, methodName: str, index: num, total: num, error: str, durationMs: num }),
  /** The item stopped at the run's budget (see `budget.reached`): its method pauses, and the item runs again when the run resumes. */
  'flow.item.paused': z.strictObject({ methodId: str, methodName: str, index: num, total: num, reason: z.literal('budget'), message: str, durationMs: num }),
  /** A stub stood in for an imported CrewAI method that could not be mapped: it passed its input on unchanged. */
  'flow.stub.reached': z.strictObject({ methodId: str, methodName: str, python: str, file: str, line: num, message: str }),
};
