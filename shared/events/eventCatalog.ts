import type { z } from 'zod';
import { AGENT_EVENTS } from './agentEvents';
import { BUDGET_EVENTS } from './budgetEvents';
import { DELEGATION_EVENTS } from './delegationEvents';
import { EMBEDDING_EVENTS } from './embeddingEvents';
import { FLOW_EVENTS } from './flowEvents';
import { GUARDRAIL_EVENTS } from './guardrailEvents';
import { HUMAN_EVENTS } from './humanEvents';
import { KNOWLEDGE_EVENTS } from './knowledgeEvents';
import { LLM_EVENTS } from './llmEvents';
import { MEMORY_EVENTS } from './memoryEvents';
import { PLANNING_EVENTS } from './planningEvents';
import { RUN_EVENTS } from './runEvents';
import { TASK_EVENTS } from './taskEvents';
import { TEST_EVENTS } from './testEvents';
import { TOOL_EVENTS } from './toolEvents';
import { TRAINING_EVENTS } from './trainingEvents';

/**
 * Every event the runtime emits, by family: the family's module holds its payload schemas (zod, strict,
 * so a stored or recorded event with an unknown field fails to parse), and every type of the event union
 * is inferred from them (shared/events.ts). Adding an event is one entry in its family's module; the
 * registries that show events (the run view's folds, the CLI's live tree, the trace's details) are typed
 * against this catalog, so a family or event they lack does not compile (test/events/eventCatalog.test.ts).
 */
export const EVENT_CATALOG = {
  run: RUN_EVENTS,
  budget: BUDGET_EVENTS,
  training: TRAINING_EVENTS,
  test: TEST_EVENTS,
  flow: FLOW_EVENTS,
  planning: PLANNING_EVENTS,
  task: TASK_EVENTS,
  memory: MEMORY_EVENTS,
  knowledge: KNOWLEDGE_EVENTS,
  agent: AGENT_EVENTS,
  llm: LLM_EVENTS,
  embedding: EMBEDDING_EVENTS,
  tool: TOOL_EVENTS,
  delegation: DELEGATION_EVENTS,
  guardrail: GUARDRAIL_EVENTS,
  human: HUMAN_EVENTS,
};

export type EventCatalog = typeof EVENT_CATALOG;
export type EventFamily = keyof EventCatalog;
/** The event types of one family (`'tool.started' | 'tool.completed' | …`). */
export type EventTypeOf<F extends EventFamily> = keyof EventCatalog[F] & string;

/** Every payload schema by event type (the catalog's families merged). */
export const EVENT_PAYLOAD_SCHEMAS = {
  ...RUN_EVENTS,
  ...BUDGET_EVENTS,
  ...TRAINING_EVENTS,
  ...TEST_EVENTS,
  ...FLOW_EVENTS,
  ...PLANNING_EVENTS,
  ...TASK_EVENTS,
  ...MEMORY_EVENTS,
  ...KNOWLEDGE_EVENTS,
  ...AGENT_EVENTS,
  ...LLM_EVENTS,
  ...EMBEDDING_EVENTS,
  ...TOOL_EVENTS,
  ...DELEGATION_EVENTS,
  ...GUARDRAIL_EVENTS,
  ...HUMAN_EVENTS,
};

type Schemas = typeof EVENT_PAYLOAD_SCHEMAS;
/** Each event type's payload, inferred from its schema. */
export type EventPayloads = { [K in keyof Schemas]: z.infer<Schemas[K]> };

/** The family an event type belongs to: the part of its name before the first dot. */
export function familyOf(type: string): string {
  return type.slice(0, type.indexOf('.'));
}

/**
 * A registry entry for a family whose events a view shows nothing for: every event type of the family
 * mapped to null, from the catalog, so the registry still names the family on purpose.
 */
export function ignoredFamily<F extends EventFamily>(family: F): { [K in EventTypeOf<F>]: null } {
  return Object.fromEntries(Object.keys(EVENT_CATALOG[family]).map((type) => [type, null])) as { [K in EventTypeOf<F>]: null };
}
