import { z } from 'zod';
import type { RuntimeEvent, RuntimeEventType } from './events';
import { EVENT_PAYLOAD_SCHEMAS } from './events/eventCatalog';

/**
 * Parsing events that arrive from outside the process: recorded event logs (test/fixtures/*.jsonl), stored
 * events read back. The payload schemas are the catalog's (shared/events/), where the event types are
 * inferred from: strict, so a log written with an older shape (a renamed field) fails here instead of
 * passing a reducer test unnoticed.
 */

export { EVENT_PAYLOAD_SCHEMAS };

const EnvelopeSchema = z.strictObject({ runId: z.string().min(1), seq: z.number().int().min(0), ts: z.number(), spanId: z.string().min(1), parentSpanId: z.string().optional() });
const ENVELOPE_KEYS = new Set(['type', ...Object.keys(EnvelopeSchema.shape)]);

export type EventParse = { ok: true; event: RuntimeEvent } | { ok: false; problem: string };

/** Parses one event: a known type, the envelope, and that type's payload (no unknown fields). */
export function parseRuntimeEvent(value: unknown): EventParse {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, problem: 'an event must be a JSON object' };
  const record = value as Record<string, unknown>;
  const type = record.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(EVENT_PAYLOAD_SCHEMAS, type)) return { ok: false, problem: `unknown event type ${JSON.stringify(type)}` };
  const envelope: Record<string, unknown> = {};
  const payload: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(record)) {
    if (key === 'type') continue;
    (ENVELOPE_KEYS.has(key) ? envelope : payload)[key] = v;
  }
  const problems: string[] = [];
  const e = EnvelopeSchema.safeParse(envelope);
  if (!e.success) problems.push(...e.error.issues.map((i) => `${i.path.join('.') || 'envelope'}: ${i.message}`));
  const p = EVENT_PAYLOAD_SCHEMAS[type as RuntimeEventType].safeParse(payload);
  if (!p.success) problems.push(...p.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`));
  if (problems.length > 0) return { ok: false, problem: `${type}: ${problems.join('; ')}` };
  return { ok: true, event: value as RuntimeEvent };
}
