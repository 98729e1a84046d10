import { z } from 'zod';
import { ModelRefSchema } from './modelRef';
import { DeterministicCheckSchema, GuardrailSchema } from './guardrail';
import { TaskConditionSchema } from './condition';
import { ToolRefSchema, BUILTIN_TOOLS, MEMORY_TOOLS } from './tool';
import { BudgetSchema } from './budget';
import { WorkspacePathSchema } from './workspacePath';

export const CREW_DOCUMENT_VERSION = 1;

const id = z.string().regex(/^[A-Za-z0-9_-]+$/, 'ids may only contain letters, digits, _ and -');

/** Knowledge sources are declared here; ingestion belongs to the knowledge module. */
export const KnowledgeSourceSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), name: z.string().min(1), text: z.string().min(1) }),
  /** A .txt, .md, .csv, .json, .pdf, .docx or .xml file in the workspace; `name` defaults to the file name. */
  z.strictObject({ type: z.literal('file'), path: WorkspacePathSchema, name: z.string().min(1).optional() }),
  z.strictObject({ type: z.literal('url'), url: z.string().url(), name: z.string().min(1).optional() }),
]);
export type KnowledgeSource = z.infer<typeof KnowledgeSourceSchema>;

/** How knowledge is chunked and how much of it reaches a task prompt. */
export const KnowledgeSettingsSchema = z.strictObject({
  /** Chunks added to a task prompt (default 5). */
  limit: z.number().int().min(1).max(50).optional(),
  /** Chunks scoring below this (0..1) are left out (default 0.2). */
  minScore: z.number().min(0).max(1).optional(),
  /** Characters per chunk (default 4000). */
  chunkSize: z.number().int().min(100).max(100_000).optional(),
  /** Characters shared by neighbouring chunks (default 200); less than chunkSize. */
  chunkOverlap: z.number().int().min(0).optional(),
});
export type KnowledgeSettings = z.infer<typeof KnowledgeSettingsSchema>;

/** A skill: inline, or the path of a .md file in the workspace (front matter may give name and description). */
export const SkillRefSchema = z.union([
  WorkspacePathSchema.refine((path) => /\.md$/i.test(path), { message: 'a skill file must be a .md file' }),
  z.strictObject({ name: z.string().min(1), description: z.string().default(''), instructions: z.string().min(1) }),
]);

export const AgentSchema = z.strictObject({
  id,
  role: z.string().min(1),
  goal: z.string().min(1),
  backstory: z.string().default(''),
  llm: ModelRefSchema.optional(),
  tools: z.array(ToolRefSchema).default([]),
  allowDelegation: z.boolean().default(false),
  maxIter: z.number().int().positive().default(25),
  maxRpm: z.number().int().positive().optional(),
  maxExecutionTimeMs: z.number().int().positive().optional(),
  /** Defaults to the crew's memory setting. */
  memory: z.boolean().optional(),
  cache: z.boolean().default(true),
  respectContextWindow: z.boolean().default(true),
  skills: z.array(SkillRefSchema).optional(),
  knowledge: z.array(KnowledgeSourceSchema).optional(),
});
export type Agent = z.infer<typeof AgentSchema>;

export const TaskOutputSpecSchema = z.strictObject({
  format: z.enum(['text', 'json', 'markdown']).default('text'),
  schema: z.record(z.string(), z.unknown()).optional(),
  /** Set on import from CrewAI when the task declared output_json (export writes output_pydantic otherwise), so it comes back the same way. */
  crewai: z.enum(['output_json', 'output_pydantic']).optional(),
});

export const TaskSchema = z.strictObject({
  id,
  name: z.string().optional(),
  description: z.string().min(1),
  /** May be empty (CrewAI accepts ""); `crewWarnings` reports it. */
  expectedOutput: z.string(),
  agentId: id.optional(),
  /** Omitted: all prior task outputs. A list: those tasks' outputs. "none": no context. */
  context: z.union([z.array(id), z.literal('none')]).optional(),
  async: z.boolean().default(false),
  humanInput: z.boolean().default(false),
  guardrails: z.array(GuardrailSchema).default([]),
  guardrailMaxRetries: z.number().int().min(0).default(3),
  output: TaskOutputSpecSchema.optional(),
  outputFile: WorkspacePathSchema.optional(),
  condition: TaskConditionSchema.optional(),
  tools: z.array(ToolRefSchema).optional(),
  /** Crew tests (`crewdeck test`): checks of the output that score it without a model's opinion. */
  tests: z.strictObject({ checks: z.array(DeterministicCheckSchema).min(1) }).optional(),
});
export type Task = z.infer<typeof TaskSchema>;

export const ManagerSchema = z.union([
  z.strictObject({
    llm: ModelRefSchema.optional(),
    delegateTo: z.enum(['assigned', 'all']).default('assigned'),
  }),
  z.strictObject({
    agentId: id,
    delegateTo: z.enum(['assigned', 'all']).default('assigned'),
  }),
]);
export type Manager = z.infer<typeof ManagerSchema>;

/** One turn of a conversation with an agent (the chat pane). */
export const ChatTurnSchema = z.strictObject({ role: z.enum(['user', 'agent']), text: z.string().min(1).max(100_000) });
export type ChatTurn = z.infer<typeof ChatTurnSchema>;
export const MAX_CHAT_TURNS = 100;

/**
 * A conversation kept from the chat pane as a test case: a crew test replays its last user turn (with the
 * turns before it as the history) and scores the agent's new reply against the kept last reply.
 */
export const ConversationSchema = z.strictObject({
  id,
  agentId: id,
  name: z.string().min(1).max(200),
  turns: z
    .array(ChatTurnSchema)
    .min(2)
    .max(MAX_CHAT_TURNS)
    .refine((turns) => turns.at(-1)?.role === 'agent' && turns.at(-2)?.role === 'user', { message: 'must end with a user turn and the agent reply kept for it' }),
});
export type Conversation = z.infer<typeof ConversationSchema>;

export const CrewInputSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, 'input names may only contain letters, digits, _ and -'),
  description: z.string().optional(),
  default: z.string().optional(),
});

const CrewObjectSchema = z.strictObject({
  kind: z.literal('crew'),
  version: z.literal(CREW_DOCUMENT_VERSION),
  id,
  name: z.string().min(1),
  description: z.string().optional(),
  process: z.enum(['sequential', 'hierarchical']).default('sequential'),
  manager: ManagerSchema.optional(),
  agents: z.array(AgentSchema).min(1, 'a crew needs at least one agent'),
  tasks: z.array(TaskSchema).min(1, 'a crew needs at least one task'),
  memory: z
    .strictObject({
      enabled: z.boolean().default(true),
      scope: z.string().optional(),
      commit: z.enum(['after-guardrail', 'immediate']).default('after-guardrail'),
      /** Extracts and consolidates memories; defaults to the model of the agent that did the task. */
      llm: ModelRefSchema.optional(),
    })
    .optional(),
  knowledge: z.array(KnowledgeSourceSchema).optional(),
  knowledgeSettings: KnowledgeSettingsSchema.optional(),
  inputs: z.array(CrewInputSchema).optional(),
  maxRpm: z.number().int().positive().optional(),
  planning: z.strictObject({ enabled: z.boolean().default(true), llm: ModelRefSchema.optional() }).optional(),
  /** Pauses the run before a model call once its tokens or cost reached a cap. */
  budget: BudgetSchema.optional(),
  /** Conversations kept from the chat pane as test cases (`crewdeck test` scores them). */
  conversations: z.array(ConversationSchema).max(200).optional(),
  layout: z.record(z.string(), z.strictObject({ x: z.number(), y: z.number() })).optional(),
});

// References are checked even when the shape has problems, so `validate` reports everything at once.
export const CrewDocumentSchema = CrewObjectSchema.superRefine((doc, ctx) => checkCrewReferences(doc, ctx), { when: () => true });

export type CrewDocument = z.infer<typeof CrewDocumentSchema>;
export type CrewDocumentInput = z.input<typeof CrewDocumentSchema>;

function isKnownTool(name: unknown): boolean {
  return typeof name === 'string' && ((BUILTIN_TOOLS as readonly string[]).includes(name) || /^mcp:[^/\s]+\/\S+$/.test(name));
}

type Loose = Record<string, unknown>;
const list = (v: unknown): Loose[] => (Array.isArray(v) ? v.map((x) => (x !== null && typeof x === 'object' ? (x as Loose) : {})) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Cross-references a shape check cannot see: ids, roles, tools, context order, the manager. Runs on
 * possibly invalid input, so it reads defensively.
 */
function checkCrewReferences(input: unknown, ctx: z.RefinementCtx): void {
  const crew = (input ?? {}) as Loose;
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const agents = list(crew.agents);
  const tasks = list(crew.tasks);
  const process = str(crew.process) ?? 'sequential';
  const manager = crew.manager !== null && typeof crew.manager === 'object' ? (crew.manager as Loose) : undefined;

  const memory = crew.memory !== null && typeof crew.memory === 'object' ? (crew.memory as Loose) : undefined;
  const crewMemory = memory !== undefined && memory.enabled !== false;
  const memoryOff = (agent: Loose | undefined) =>
    !crewMemory ? 'the crew has no memory (turn on memory.enabled)' : agent?.memory === false ? 'its agent has memory turned off (memory: false)' : undefined;
  const checkTools = (refs: unknown, path: (string | number)[], agent: Loose | undefined) =>
    list(refs).forEach((ref, j) => {
      if (typeof ref.tool === 'string' && !isKnownTool(ref.tool)) {
        issue([...path, j, 'tool'], `unknown tool "${ref.tool}"; built-in tools are ${BUILTIN_TOOLS.join(', ')}`);
      } else if (typeof ref.tool === 'string' && MEMORY_TOOLS.includes(ref.tool)) {
        const off = memoryOff(agent);
        if (off) issue([...path, j, 'tool'], `"${ref.tool}" needs memory, but ${off}`);
      }
    });

  const agentIds = new Set<string>();
  agents.forEach((agent, i) => {
    const id = str(agent.id);
    if (id !== undefined && agentIds.has(id)) issue(['agents', i, 'id'], `duplicate agent id "${id}"`);
    if (id !== undefined) agentIds.add(id);
    // Duplicate roles are allowed, as in CrewAI (delegation takes the first match); crewWarnings reports them.
    checkTools(agent.tools, ['agents', i, 'tools'], agent);
  });

  const knowledgeSettings = crew.knowledgeSettings !== null && typeof crew.knowledgeSettings === 'object' ? (crew.knowledgeSettings as Loose) : undefined;
  if (knowledgeSettings && typeof knowledgeSettings.chunkOverlap === 'number') {
    const size = typeof knowledgeSettings.chunkSize === 'number' ? knowledgeSettings.chunkSize : 4000;
    if (knowledgeSettings.chunkOverlap >= size) issue(['knowledgeSettings', 'chunkOverlap'], `must be less than chunkSize (${size})`);
  }

  const managerAgentId = manager ? str(manager.agentId) : undefined;
  if (managerAgentId !== undefined && !agentIds.has(managerAgentId)) issue(['manager', 'agentId'], `no agent with id "${managerAgentId}"`);
  if (manager && process !== 'hierarchical') issue(['manager'], 'a manager is only used by the hierarchical process');

  const allTaskIds = new Set(tasks.map((t) => str(t.id)).filter((id): id is string => id !== undefined));
  const seen = new Set<string>();
  tasks.forEach((task, i) => {
    const id = str(task.id);
    if (id !== undefined && seen.has(id)) issue(['tasks', i, 'id'], `duplicate task id "${id}"`);
    const agentId = str(task.agentId);
    if (agentId !== undefined) {
      if (!agentIds.has(agentId)) issue(['tasks', i, 'agentId'], `no agent with id "${agentId}"`);
      else if (agentId === managerAgentId) issue(['tasks', i, 'agentId'], `"${agentId}" is the manager; assign the task to a worker agent`);
    } else if (task.agentId === undefined && process === 'sequential') {
      issue(['tasks', i, 'agentId'], 'a sequential crew needs an agent for every task');
    }
    if (Array.isArray(task.context)) {
      task.context.forEach((ref, j) => {
        if (typeof ref !== 'string') return;
        if (ref === id) issue(['tasks', i, 'context', j], 'a task cannot be its own context');
        else if (!seen.has(ref)) {
          issue(['tasks', i, 'context', j], allTaskIds.has(ref) ? `task "${ref}" runs later; context may only name earlier tasks` : `no task with id "${ref}"`);
        }
      });
    }
    if (i === 0 && task.condition !== undefined) issue(['tasks', i, 'condition'], 'the first task has no previous output to test');
    const output = task.output !== null && typeof task.output === 'object' ? (task.output as Loose) : undefined;
    if (output?.schema !== undefined && output.format !== 'json') issue(['tasks', i, 'output', 'format'], 'an output schema needs format "json"');
    checkTools(task.tools, ['tasks', i, 'tools'], agents.find((a) => agentId !== undefined && a.id === agentId));
    if (id !== undefined) seen.add(id);
  });

  const conversationIds = new Set<string>();
  list(crew.conversations).forEach((conversation, i) => {
    const id = str(conversation.id);
    if (id !== undefined && conversationIds.has(id)) issue(['conversations', i, 'id'], `duplicate conversation id "${id}"`);
    if (id !== undefined) conversationIds.add(id);
    const agentId = str(conversation.agentId);
    if (agentId !== undefined && !agentIds.has(agentId)) issue(['conversations', i, 'agentId'], `no agent with id "${agentId}"`);
  });
}
