import { z } from 'zod';
import { readAs, str } from './eventParts';

/** The `planning.*` events: their payloads (the envelope is added by the emitter). */
export const PLANNING_EVENTS = {
  'planning.started': z.strictObject({ model: str }),
  'planning.completed': z.strictObject({ plans: z.record(str, str), readAs: readAs.optional() }),
  'planning.failed': z.strictObject({ error: str }),
};
