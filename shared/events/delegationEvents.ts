import { z } from 'zod';
import { num, str } from './eventParts';

const delegationKind = z.enum(['delegate', 'ask']);

/** The `delegation.*` events: their payloads (the envelope is added by the emitter). */
export const DELEGATION_EVENTS = {
  'delegation.started': z.strictObject({ kind: delegationKind, manager: str, coworker: str, requestedCoworker: str, task: str, context: str }),
  'delegation.completed': z.strictObject({ kind: delegationKind, manager: str, coworker: str, result: str, durationMs: num }),
  'delegation.failed': z.strictObject({ kind: delegationKind, manager: str, requestedCoworker: str, error: str, validRoles: z.array(str) }),
};
