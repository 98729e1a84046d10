import { z } from 'zod';
import { empty, Id, RunId, type ChannelSchemas } from './requestFields';

/** A memory scope: a path such as `/crew/<crewId>/agent/<role>`; `/` is every scope. */
const MemoryScope = z
  .string()
  .min(1)
  .max(500)
  .refine((s) => s.startsWith('/'), 'must start with "/"')
  .refine((s) => !s.includes('\0'), 'must not contain NUL');
const MemoryCategory = z.string().trim().min(1).max(100);
const MemoryContent = z.string().max(50_000).refine((s) => s.trim().length > 0, 'must not be empty');

/** A memory record as it crosses the wire (SPEC §5): everything but its vector. */
export const MemoryRecordSchema = z.object({
  id: z.string(),
  content: z.string(),
  scope: z.string(),
  categories: z.array(z.string()),
  importance: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
  lastAccessedAt: z.number(),
  source: z.object({
    kind: z.enum(['task', 'tool', 'manual', 'lesson']),
    runId: z.string().optional(),
    taskId: z.string().optional(),
    agentRole: z.string().optional(),
  }),
  private: z.boolean(),
  metadata: z.record(z.string(), z.unknown()),
  status: z.enum(['active', 'pending_review']),
  /** Earlier contents, oldest first, each with why it changed. */
  history: z.array(z.object({ content: z.string(), updatedAt: z.number(), reason: z.string() })),
});
export type HostMemoryRecord = z.infer<typeof MemoryRecordSchema>;

/** One recall result: the weighted score, its parts (each 0..1) and why it matched. */
export const MemoryMatchSchema = z.object({
  record: MemoryRecordSchema,
  score: z.number(),
  semantic: z.number(),
  recency: z.number(),
  importance: z.number(),
  reasons: z.array(z.string()),
});
export type HostMemoryMatch = z.infer<typeof MemoryMatchSchema>;

export const MEMORY_CHANNELS = {
  /** The workspace's memories (SPEC §5, §10 memory browser), newest first. */
  'memory.list': {
    request: z.strictObject({
      /** This scope and everything below it. */
      scope: MemoryScope.optional(),
      category: MemoryCategory.optional(),
      /** Only memories written by this run. */
      runId: RunId.optional(),
      includePrivate: z.boolean().default(false),
      limit: z.number().int().min(1).max(1000).default(100),
      offset: z.number().int().min(0).default(0),
    }),
    response: z.object({ records: z.array(MemoryRecordSchema), total: z.number() }),
  },
  /** The recall a run would do, as a preview: matches with score parts and reasons. */
  'memory.search': {
    request: z.strictObject({
      query: z.string().min(1).max(2000),
      scope: MemoryScope.optional(),
      categories: z.array(MemoryCategory).max(50).optional(),
      includePrivate: z.boolean().default(false),
      limit: z.number().int().min(1).max(50).default(10),
    }),
    response: z.object({ matches: z.array(MemoryMatchSchema) }),
  },
  /** Adds a memory by hand (source kind `manual`). */
  'memory.add': {
    request: z.strictObject({
      content: MemoryContent,
      scope: MemoryScope,
      categories: z.array(MemoryCategory).max(50).optional(),
      importance: z.number().min(0).max(1).optional(),
      private: z.boolean().optional(),
    }),
    response: z.object({ record: MemoryRecordSchema }),
  },
  /** Edits a memory; a new content keeps the old one in its history ("edited by hand"). */
  'memory.update': {
    request: z.strictObject({
      id: Id,
      content: MemoryContent.optional(),
      categories: z.array(MemoryCategory).max(50).optional(),
      importance: z.number().min(0).max(1).optional(),
      private: z.boolean().optional(),
    }),
    response: z.object({ record: MemoryRecordSchema }),
  },
  'memory.forget': {
    request: z.strictObject({ ids: z.array(Id).min(1).max(1000) }),
    response: z.object({ removed: z.number() }),
  },
  /** Empties one scope (and the scopes below it) and nothing else; `/` empties every scope. */
  'memory.reset': {
    request: z.strictObject({ scope: MemoryScope }),
    response: z.object({ removed: z.number() }),
  },
  /** The scopes that hold memories, with how many each (private ones included), for filters. */
  'memory.scopes': {
    request: empty,
    response: z.object({ scopes: z.array(z.object({ scope: z.string(), count: z.number() })) }),
  },
} as const satisfies ChannelSchemas;
