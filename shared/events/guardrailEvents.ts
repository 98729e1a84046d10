import { z } from 'zod';
import { num, readAs, str } from './eventParts';

/** The `guardrail.*` events: their payloads (the envelope is added by the emitter). */
export const GUARDRAIL_EVENTS = {
  'guardrail.started': z.strictObject({ taskId: str, index: num, guardrailType: str, attempt: num }),
  'guardrail.passed': z.strictObject({ taskId: str, index: num, guardrailType: str, attempt: num, replaced: z.boolean(), readAs: readAs.optional() }),
  'guardrail.failed': z.strictObject({ taskId: str, index: num, guardrailType: str, attempt: num, reason: str, readAs: readAs.optional() }),
};
