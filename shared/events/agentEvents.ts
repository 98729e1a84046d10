import { z } from 'zod';
import { TokenUsageSchema } from '../usage';
import { num, readAs, str } from './eventParts';

/** The `agent.*` events: their payloads (the envelope is added by the emitter). */
export const AGENT_EVENTS = {
  'agent.started': z.strictObject({
    agentId: str,
    role: str,
    taskId: str,
    tools: z.array(str),
    model: str,
    mode: z.enum(['native', 'react', 'none']),
    delegatedBy: str.optional(),
    suggestions: z.strictObject({ version: num, count: num }).optional(),
  }),
  'agent.completed': z.strictObject({ role: str, output: str, iterations: num, tokenUsage: TokenUsageSchema, durationMs: num, readAs: readAs.optional() }),
  'agent.failed': z.strictObject({ role: str, error: str, errorName: str, durationMs: num }),
  /** The agent's next model call found the run's budget reached: it stops with its task (`task.paused`). */
  'agent.paused': z.strictObject({ role: str, reason: z.enum(['budget', 'human']), message: str, durationMs: num }),
};
