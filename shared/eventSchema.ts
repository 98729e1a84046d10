import { z } from 'zod';
import type { EventPayloads, RuntimeEvent, RuntimeEventType } from './events';
import { TokenUsageSchema } from './usage';

/**
 * The event union (shared/events.ts) as zod schemas, for what arrives from outside the process: recorded
 * event logs (test/fixtures/*.jsonl), stored events read back. Payloads are strict, so a log written with
 * an older shape (a renamed field) fails here instead of passing a reducer test unnoticed. The registry is
 * typed against the union: an event type without its schema, or a schema that drifted from its type,
 * does not compile.
 */

const str = z.string();
const num = z.number();
const readAs = z.array(
  z.enum([
    'last-final-answer',
    'fenced-final-answer',
    'fenced-json',
    'json-in-prose',
    'repaired-json',
    'json-in-string',
    'outcome-name',
    'outcome-line',
    'outcome-word',
    'text-tool-call',
    'tool-name-cleaned',
    'crewai-tool-name',
    'converted-json',
  ]),
);
const toolCall = z.strictObject({ id: str, name: str, arguments: str });
const message = z.strictObject({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: str, toolCalls: z.array(toolCall).optional(), toolCallId: str.optional() });
const llmPurpose = z.enum(['agent', 'forced_answer', 'summarise', 'guardrail', 'planning', 'memory_extract', 'memory_consolidate', 'flow_llm', 'feedback_outcome', 'feedback_lessons', 'evaluation', 'conversion']);
const humanKind = z.enum(['task_review', 'tool_approval', 'flow_feedback']);
const decision = z.enum(['approve', 'deny', 'always']);
const delegationKind = z.enum(['delegate', 'ask']);
const purpose = z.union([
  z.strictObject({ kind: z.enum(['training', 'test']), sessionId: str, iteration: num, iterations: num }),
  z.strictObject({ kind: z.literal('evaluation'), of: z.enum(['training', 'test']), sessionId: str }),
  z.strictObject({ kind: z.literal('chat'), agentId: str, role: str, sessionId: str.optional() }),
]);

type PayloadSchemas = { [K in RuntimeEventType]: z.ZodType<EventPayloads[K]> };

export const EVENT_PAYLOAD_SCHEMAS = {
  'run.started': z.strictObject({
    documentId: str,
    documentName: str,
    process: z.enum(['sequential', 'hierarchical', 'flow', 'evaluation']),
    inputs: z.record(str, str),
    stepIds: z.array(str),
    replayOf: z
      .union([
        z.strictObject({ runId: str, fromTaskId: str, edits: z.record(str, str).optional() }),
        z.strictObject({ runId: str, fromMethodId: str, edits: z.record(str, z.unknown()).optional() }),
      ])
      .optional(),
    purpose: purpose.optional(),
    offlineFrom: str.optional(),
  }),
  'run.completed': z.strictObject({
    output: str,
    tokenUsage: TokenUsageSchema,
    durationMs: num,
    stubsReached: z.array(z.strictObject({ methodId: str, methodName: str, file: str, line: num, python: str })).optional(),
  }),
  'run.failed': z.strictObject({ error: str, errorName: str, tokenUsage: TokenUsageSchema, durationMs: num }),
  'run.cancelled': z.strictObject({ reason: str, durationMs: num }),
  'run.paused': z.strictObject({ requestId: str, methodId: str, durationMs: num, reason: z.enum(['budget', 'human']).optional() }),
  'run.resumed': z.strictObject({ requestId: str, pausedForMs: num, offlineFrom: str.optional() }),
  'budget.reached': z.strictObject({ which: z.enum(['maxTokens', 'maxCostUsd']), spent: num, limit: num, taskId: str.optional(), methodId: str.optional(), agentRole: str.optional() }),

  'training.started': z.strictObject({ sessionId: str, crewId: str, iterations: num }),
  'training.iteration.started': z.strictObject({ sessionId: str, iteration: num, iterations: num, runId: str }),
  'training.evaluation.started': z.strictObject({ sessionId: str, roles: z.array(str) }),
  'training.evaluated': z.strictObject({ sessionId: str, role: str, quality: num, summary: str }),
  'training.version.created': z.strictObject({ sessionId: str, role: str, version: num, status: str }),
  'training.completed': z.strictObject({ sessionId: str, versions: num, runIds: z.array(str), tokenUsage: TokenUsageSchema }),
  'training.failed': z.strictObject({ sessionId: str, error: str, cancelled: z.boolean() }),
  'test.started': z.strictObject({ sessionId: str, crewId: str, iterations: num }),
  'test.iteration.started': z.strictObject({ sessionId: str, iteration: num, iterations: num, runId: str }),
  'test.evaluated': z.strictObject({ sessionId: str, iteration: num, taskId: str, status: str, score: num.optional(), checkScore: num.optional(), reason: str.optional() }),
  'test.completed': z.strictObject({ sessionId: str, runIds: z.array(str), tokenUsage: TokenUsageSchema }),
  'test.failed': z.strictObject({ sessionId: str, error: str }),

  'flow.method.started': z.strictObject({ methodId: str, methodName: str, bodyType: str, trigger: str, triggeredBy: str.optional(), input: str.optional(), call: num }),
  'flow.route': z.strictObject({ methodId: str, methodName: str, route: str, reason: str, rawReply: str.optional(), readAs: readAs.optional() }),
  'flow.method.completed': z.strictObject({ methodId: str, methodName: str, output: str, route: str.optional(), state: z.record(str, z.unknown()), changed: z.array(str), durationMs: num, restoredFrom: str.optional() }),
  'flow.method.failed': z.strictObject({ methodId: str, methodName: str, error: str, errorName: str, durationMs: num }),
  'flow.method.paused': z.strictObject({ methodId: str, methodName: str, reason: z.literal('budget'), message: str, durationMs: num }),
  'flow.item.started': z.strictObject({ methodId: str, methodName: str, index: num, total: num, item: str }),
  'flow.item.completed': z.strictObject({ methodId: str, methodName: str, index: num, total: num, output: str, durationMs: num, restoredFrom: z.literal('checkpoint').optional() }),
  'flow.item.failed': z.strictObject({ methodId: str, methodName: str, index: num, total: num, error: str, durationMs: num }),
  'flow.item.paused': z.strictObject({ methodId: str, methodName: str, index: num, total: num, reason: z.literal('budget'), message: str, durationMs: num }),
  'flow.stub.reached': z.strictObject({ methodId: str, methodName: str, python: str, file: str, line: num, message: str }),

  'planning.started': z.strictObject({ model: str }),
  'planning.completed': z.strictObject({ plans: z.record(str, str), readAs: readAs.optional() }),
  'planning.failed': z.strictObject({ error: str }),

  'task.started': z.strictObject({ taskId: str, taskName: str.optional(), index: num, agentRole: str, description: str, expectedOutput: str, async: z.boolean(), context: str }),
  'task.completed': z.strictObject({
    taskId: str,
    agentRole: str,
    raw: str,
    json: z.unknown().optional(),
    tokenUsage: TokenUsageSchema,
    durationMs: num,
    outputFile: str.optional(),
    restoredFrom: str.optional(),
    readAs: readAs.optional(),
  }),
  'task.failed': z.strictObject({ taskId: str, agentRole: str, error: str, errorName: str, durationMs: num }),
  'task.paused': z.strictObject({ taskId: str, agentRole: str, reason: z.enum(['budget', 'human']), message: str, durationMs: num }),
  'task.skipped': z.strictObject({ taskId: str, index: num, reason: str }),
  'task.retrying': z.strictObject({ taskId: str, attempt: num, maxRetries: num, reason: str, rejectedOutput: str }),
  'memory.recall': z.strictObject({
    taskId: str,
    agentRole: str,
    query: str,
    scope: str,
    records: z.array(z.strictObject({ id: str, score: num, content: str, reasons: z.array(str) })),
  }),
  'memory.write.staged': z.strictObject({ taskId: str, agentRole: str, attempt: num, policy: z.enum(['after-guardrail', 'immediate']), scope: str, saved: z.array(str), extract: z.boolean() }),
  'memory.write.skipped': z.strictObject({ taskId: str, content: str, reason: str, duplicateOf: str, similarity: num }),
  'memory.write.decision': z.strictObject({
    taskId: str,
    action: z.enum(['insert', 'update', 'delete', 'keep']),
    content: str,
    recordId: str.optional(),
    similar: z.array(z.strictObject({ id: str, similarity: num })),
    reason: str,
    decidedBy: z.enum(['rule', 'model', 'fallback']),
    readAs: readAs.optional(),
  }),
  'memory.write.committed': z.strictObject({ taskId: str, attempt: num, inserted: num, updated: num, deleted: num, skipped: num, recordIds: z.array(str), readAs: readAs.optional() }),
  'memory.write.discarded': z.strictObject({ taskId: str, attempt: num, reason: str, dropped: num }),
  'memory.write.failed': z.strictObject({ taskId: str, attempt: num, error: str }),
  'knowledge.retrieved': z.strictObject({
    taskId: str,
    agentRole: str,
    query: str,
    chunks: z.array(z.strictObject({ id: str, source: str, score: num, content: str })),
  }),

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
  'agent.paused': z.strictObject({ role: str, reason: z.enum(['budget', 'human']), message: str, durationMs: num }),

  'llm.started': z.strictObject({
    model: str,
    provider: str,
    purpose: llmPurpose,
    agentRole: str.optional(),
    messages: z.array(message),
    tools: z.array(z.strictObject({ name: str, description: str, parameters: z.unknown() })),
  }),
  'llm.chunk': z.strictObject({ delta: str }),
  'llm.completed': z.strictObject({ model: str, content: str, toolCalls: z.array(toolCall), finishReason: str, usage: TokenUsageSchema, latencyMs: num }),
  'llm.failed': z.strictObject({ model: str, error: str, status: num.optional(), willRetry: z.boolean(), attempt: num }),
  'embedding.completed': z.strictObject({
    model: str,
    texts: num,
    usage: TokenUsageSchema,
    durationMs: num,
    taskId: str.optional(),
    agentRole: str.optional(),
    methodId: str.optional(),
    tokensEstimated: z.boolean().optional(),
  }),

  'tool.started': z.strictObject({ tool: str, args: z.unknown(), agentRole: str, callId: str, readAs: readAs.optional(), toolId: str.optional() }),
  'tool.completed': z.strictObject({ tool: str, result: str, durationMs: num, resultAsAnswer: z.boolean() }),
  'tool.failed': z.strictObject({ tool: str, error: str, durationMs: num }),
  'tool.blocked': z.strictObject({ tool: str, reason: str, by: z.enum(['hook', 'approval', 'usage_limit', 'repeated_call']) }),
  'tool.cached': z.strictObject({ tool: str, result: str }),
  'tool.output': z.strictObject({ tool: str, stream: z.literal('stderr'), text: str }),

  'delegation.started': z.strictObject({ kind: delegationKind, manager: str, coworker: str, requestedCoworker: str, task: str, context: str }),
  'delegation.completed': z.strictObject({ kind: delegationKind, manager: str, coworker: str, result: str, durationMs: num }),
  'delegation.failed': z.strictObject({ kind: delegationKind, manager: str, requestedCoworker: str, error: str, validRoles: z.array(str) }),

  'guardrail.started': z.strictObject({ taskId: str, index: num, guardrailType: str, attempt: num }),
  'guardrail.passed': z.strictObject({ taskId: str, index: num, guardrailType: str, attempt: num, replaced: z.boolean(), readAs: readAs.optional() }),
  'guardrail.failed': z.strictObject({ taskId: str, index: num, guardrailType: str, attempt: num, reason: str, readAs: readAs.optional() }),

  'human.requested': z.strictObject({
    requestId: str,
    kind: humanKind,
    taskId: str.optional(),
    agentRole: str,
    prompt: str,
    output: str.optional(),
    tool: str.optional(),
    args: z.unknown().optional(),
    outcomes: z.array(str).optional(),
    defaultOutcome: str.optional(),
    methodId: str.optional(),
  }),
  'human.answered': z.strictObject({ requestId: str, kind: humanKind, feedback: str.optional(), decision: decision.optional(), outcome: str.optional() }),
} satisfies PayloadSchemas;

const EnvelopeSchema = z.strictObject({ runId: str.min(1), seq: z.number().int().min(0), ts: num, spanId: str.min(1), parentSpanId: str.optional() });
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
