import { z } from 'zod';
import { WorkspaceSettingsSchema } from './model/workspace';
import { InlineModelSchema } from './model/modelRef';
import type { RuntimeEvent } from './events';
import { problemsFromZod } from './model/problems';
import { TokenUsageSchema } from './usage';
import { RunDiffSchema } from './runDiff';
import { BudgetSchema } from './model/budget';
import { ChatTurnSchema, MAX_CHAT_TURNS } from './model/crew';
import { isSecretEnvName, SECRET_ENV_NAME_RULE } from './model/secretEnvNames';
import {
  SuggestionDiffSchema,
  SuggestionVersionSchema,
  TestReportSchema,
  TestSessionSchema,
  TrainingRecordSchema,
  TrainingSessionSchema,
} from './training';

/**
 * The host contract: everything the renderer may ask of the runtime. Each channel (`domain.verb`) has a
 * request and a response schema; the host validates every request with them on arrival (the renderer is
 * untrusted). Two transports carry it — Electron IPC and a WebSocket in browser mode — and the renderer
 * does not know which one it has. Besides responses, the host pushes `HostPush` messages (live events).
 */

const ProblemSchema = z.object({ path: z.string(), message: z.string() });

/** A document path relative to the workspace, with forward slashes; never absolute, never `..`. */
export const DocumentPathSchema = z
  .string()
  .min(1)
  .max(500)
  .refine((p) => !p.startsWith('/') && !/^[A-Za-z]:/.test(p) && !p.includes('\\') && !p.includes('\0'), 'must be a path relative to the workspace, with forward slashes')
  .refine((p) => !p.split('/').some((s) => s === '..' || s === '' || s === '.'), 'must not contain "..", "." or empty segments')
  // Case-insensitive file systems (macOS, Windows) and Windows' trailing dots and spaces would let
  // `.CrewDeck/` or `.crewdeck./` reach the runtime's own folder.
  .refine((p) => !p.split('/').some((s) => s.replace(/[. ]+$/, '').toLowerCase() === '.crewdeck'), 'must not be inside .crewdeck/')
  .refine((p) => !p.split('/').some((s) => /[. ]$/.test(s)), 'segments must not end in a dot or a space')
  .refine((p) => /\.(crew|flow)\.json$/.test(p), 'must end in .crew.json or .flow.json');

/**
 * Names of API-key variables the app may store and hand to the runtime's environment: an allowlist
 * (`isSecretEnvName`), so variables that change how processes load code or where requests go
 * (`BASH_ENV`, `PYTHONPATH`, `GIT_SSH_COMMAND`…) are refused.
 */
const EnvName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,100}$/, 'must be an environment variable name')
  .refine(isSecretEnvName, SECRET_ENV_NAME_RULE);

const RunId = z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, 'not a run id');
const Id = z.string().regex(/^[A-Za-z0-9_-]{1,120}$/, 'not an id');
const RequestId = z.string().regex(/^[A-Za-z0-9_:.-]{1,200}$/, 'not a request id');
const Inputs = z.record(z.string().max(200), z.string().max(200_000));

export const DocumentKindSchema = z.enum(['crew', 'flow']);
export type DocumentKind = z.infer<typeof DocumentKindSchema>;

export const DocumentEntrySchema = z.object({
  path: z.string(),
  kind: DocumentKindSchema,
  /** From the document when it could be read. */
  id: z.string().optional(),
  name: z.string(),
  problemCount: z.number(),
  modifiedAt: z.number(),
});
export type DocumentEntry = z.infer<typeof DocumentEntrySchema>;

export const RunStatusSchema = z.enum(['running', 'paused', 'completed', 'failed', 'cancelled', 'interrupted']);
export type HostRunStatus = z.infer<typeof RunStatusSchema>;

export const RunSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(['crew', 'flow']),
  documentId: z.string(),
  name: z.string(),
  status: RunStatusSchema,
  startedAt: z.number(),
  endedAt: z.number().optional(),
  durationMs: z.number().optional(),
  tokenUsage: TokenUsageSchema,
  /** A replay (fork): of a crew from a task, or of a flow from a method. */
  replayOf: z.union([z.object({ runId: z.string(), fromTaskId: z.string() }), z.object({ runId: z.string(), fromMethodId: z.string() })]).optional(),
  error: z.string().optional(),
  documentPath: z.string().optional(),
  /** An offline re-run: the recorded run its model replies came from. */
  offlineFrom: z.string().optional(),
  /** A run on the team server (listed with the local ones): the server, and its status there (queued, waiting…). */
  team: z.object({ server: z.string(), status: z.string(), deploymentId: z.string().optional() }).optional(),
});
export type HostRunSummary = z.infer<typeof RunSummarySchema>;

export const TaskOutputSchema = z.object({
  taskId: z.string(),
  index: z.number(),
  agentRole: z.string(),
  raw: z.string(),
  json: z.unknown().optional(),
  skipped: z.boolean(),
  tokenUsage: TokenUsageSchema,
});

export const PendingHumanRequestSchema = z.object({
  requestId: z.string(),
  runId: z.string(),
  kind: z.enum(['task_review', 'tool_approval', 'flow_feedback']),
  taskId: z.string().optional(),
  agentRole: z.string(),
  prompt: z.string(),
  output: z.string().optional(),
  tool: z.string().optional(),
  args: z.unknown().optional(),
  /** Flow feedback: the outcome labels and the one empty feedback picks. */
  outcomes: z.array(z.string()).optional(),
  defaultOutcome: z.string().optional(),
  requestedAt: z.number(),
});
export type PendingHumanRequest = z.infer<typeof PendingHumanRequestSchema>;

export const ConnectionTestSchema = z.object({
  ok: z.boolean(),
  latencyMs: z.number(),
  /** Models the server lists (openai-compatible `GET /models`), when it lists any. */
  models: z.array(z.string()),
  /** How the server was reached: `models` (GET /models), or `chat` (a one-token chat request, for servers without /models). */
  method: z.enum(['models', 'chat', 'script']).optional(),
  error: z.string().optional(),
});

const empty = z.strictObject({});

/** How one row of a batch (`runs.startBatch`) stands: queued until its run opens, then its run's status. */
export const BatchRowStatusSchema = z.enum(['queued', 'running', 'paused', 'completed', 'failed', 'cancelled']);
export type BatchRowStatus = z.infer<typeof BatchRowStatusSchema>;

/** A crew run once per row of inputs, as the host tracks it (in memory: its runs are in the store). */
export const BatchSchema = z.object({
  batchId: z.string(),
  path: z.string(),
  concurrency: z.number(),
  /** Once every row ended: `completed` (all did), `failed` (one failed), else `cancelled` (stopped). */
  status: z.enum(['running', 'completed', 'failed', 'cancelled']),
  /** In row order. */
  rows: z.array(
    z.object({
      /** 0-based. */
      index: z.number(),
      /** Known before the run opens, so a queued row can be linked to the trace once it starts. */
      runId: z.string(),
      inputs: z.record(z.string(), z.string()),
      status: BatchRowStatusSchema,
      /** Whether its run opened (is in the store and can be shown); a row refused before opening has only `error`. */
      opened: z.boolean(),
      tokenUsage: TokenUsageSchema,
      error: z.string().optional(),
    }),
  ),
});
export type HostBatch = z.infer<typeof BatchSchema>;

/** An agent role as suggestions are keyed (the role after input interpolation). */
const RoleName = z.string().min(1).max(500);
const VersionNumber = z.number().int().min(1);
const SuggestionText = z.string().trim().min(1, 'must not be empty').max(2000);

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

/** One held part of the workspace: where it is declared and what it runs, sends where, or reaches. */
export const TrustPartSchema = z.object({
  /** `network`: a model `baseUrl` of its own, or an `allowedHosts` entry / knowledge URL on a local, private or metadata host. */
  kind: z.enum(['command', 'secret', 'network']),
  /** Workspace-relative, e.g. `crewdeck.json mcp.servers.files`. */
  where: z.string(),
  /** `runs: node server.js --root .` or `sends $OPENAI_API_KEY to api.example.com`. */
  summary: z.string(),
  trusted: z.boolean(),
});
export type TrustPart = z.infer<typeof TrustPartSchema>;

export const TrustStatusSchema = z.object({
  /** Whether anything in the workspace needs trust (the examples need none). */
  needed: z.boolean(),
  /** Whether every part that needs trust is trusted. */
  trusted: z.boolean(),
  parts: z.array(TrustPartSchema),
  /** A hash of the untrusted parts: Electron's main process grants exactly what its dialog showed. */
  fingerprint: z.string().optional(),
});
export type TrustStatus = z.infer<typeof TrustStatusSchema>;

/**
 * A grant answers with the status; when a person has not confirmed it yet (the renderer alone cannot),
 * `confirmation` says what is needed: in browser mode, the code printed on the serving terminal.
 */
export const TrustGrantResponseSchema = TrustStatusSchema.extend({
  confirmation: z.object({ codeRequired: z.boolean(), message: z.string() }).optional(),
});
export type TrustGrantResponse = z.infer<typeof TrustGrantResponseSchema>;

export const HOST_CHANNELS = {
  'workspace.info': {
    request: empty,
    response: z.object({
      path: z.string(),
      name: z.string(),
      /** How the host is reached; the renderer shows browser-only hints with it. */
      transport: z.enum(['electron', 'websocket']),
      version: z.string(),
    }),
  },

  /**
   * Workspace trust: what in this workspace runs a command or sends a secret (MCP stdio servers, MCP
   * `${VAR}`s, keys sent to a model's or embedder's own baseUrl), and whether the user trusts exactly
   * that. Until then, runs that need those parts are refused.
   */
  'trust.status': { request: empty, response: TrustStatusSchema },
  /** Trusts the workspace's current held parts (recorded in the user's config folder, not the workspace). */
  'trust.grant': {
    request: z.object({
      /** Browser mode: the one-time code printed on the terminal that serves the app. */
      code: z.string().max(32).optional(),
      /** Set by Electron's main process after its native dialog; a renderer's own value is dropped there. */
      fingerprint: z.string().max(64).optional(),
    }),
    response: TrustGrantResponseSchema,
  },

  'documents.list': { request: empty, response: z.object({ documents: z.array(DocumentEntrySchema) }) },
  'documents.read': {
    request: z.strictObject({ path: DocumentPathSchema }),
    response: z.object({
      path: z.string(),
      /** The parsed JSON as it is on disk (defaults not applied), or null when the file is not JSON. */
      document: z.unknown(),
      /** The file's text, so a document that is not JSON can still be shown and repaired. */
      text: z.string(),
      problems: z.array(ProblemSchema),
      modifiedAt: z.number(),
    }),
  },
  'documents.create': {
    request: z.strictObject({ kind: z.enum(['crew', 'flow']), name: z.string().min(1).max(200) }),
    response: z.object({ path: z.string(), document: z.unknown() }),
  },
  'documents.save': {
    /** Saved even when it does not validate: the problems come back and nothing is lost. */
    request: z.strictObject({ path: DocumentPathSchema, document: z.record(z.string(), z.unknown()) }),
    response: z.object({ path: z.string(), problems: z.array(ProblemSchema), modifiedAt: z.number() }),
  },
  'documents.rename': {
    request: z.strictObject({ path: DocumentPathSchema, newPath: DocumentPathSchema }),
    response: z.object({ path: z.string() }),
  },
  'documents.delete': { request: z.strictObject({ path: DocumentPathSchema }), response: empty },
  'documents.validate': {
    request: z.strictObject({ document: z.unknown() }),
    response: z.object({ problems: z.array(ProblemSchema) }),
  },
  /** Reads (never runs) a CrewAI project and writes it into the workspace as new documents (one crew per @CrewBase class). */
  'documents.importCrewai': {
    /** The project folder, inside the workspace (relative to it, or absolute). */
    request: z.strictObject({ dir: z.string().min(1).max(4096) }),
    response: z.object({
      /** The main document (the one to open). */
      path: z.string(),
      /** Every document written, the main one first. */
      documents: z.array(z.object({ path: z.string(), kind: z.enum(['crew', 'flow']) })),
      /** What has no Crewdeck equivalent: where it is in the project, what it is, and why. */
      unmapped: z.array(z.object({ path: z.string(), item: z.string(), why: z.string() })),
      sourceFiles: z.array(z.string()),
    }),
  },

  'runs.start': {
    request: z.strictObject({ path: DocumentPathSchema, inputs: Inputs.default({}), model: z.string().max(200).optional() }),
    response: z.object({ runId: z.string() }),
  },
  /**
   * One reply of one agent of a crew in a chat (the chat pane): a small run of that agent alone with its
   * model, tools and the crew's memory, answering `message` given the turns before it. Answers once the
   * run has opened; its events are pushed as any run's, its `run.completed` output is the reply.
   */
  'chat.send': {
    request: z.strictObject({
      path: DocumentPathSchema,
      agentId: Id,
      history: z.array(ChatTurnSchema).max(MAX_CHAT_TURNS - 1).default([]),
      message: z.string().trim().min(1).max(100_000),
      inputs: Inputs.optional(),
    }),
    response: z.object({ runId: z.string() }),
  },
  /**
   * A crew once per row of inputs (CrewAI's kickoff_for_each), up to `concurrency` rows at a time. Every
   * row is checked before any runs: a row missing an input is bad_input naming the row and the input.
   * Answers at once with the batch (run ids in row order); `batch.changed` pushes say when to ask
   * `runs.batch` again, and every row's run pushes its events as any run does.
   */
  'runs.startBatch': {
    request: z.strictObject({
      path: DocumentPathSchema,
      rows: z.array(Inputs).min(1).max(1000),
      concurrency: z.number().int().min(1).max(16).default(1),
      model: z.string().max(200).optional(),
    }),
    response: BatchSchema,
  },
  'runs.batch': { request: z.strictObject({ batchId: Id }), response: BatchSchema },
  /** Stops a batch: no further row starts (those rows end cancelled) and its live and paused runs are cancelled. */
  'runs.cancelBatch': { request: z.strictObject({ batchId: Id }), response: z.object({ cancelled: z.number() }) },
  'runs.cancel': { request: z.strictObject({ runId: RunId }), response: z.object({ cancelled: z.boolean() }) },
  /**
   * Runs the document on the workspace's team server (settings `team.server`, key CREWDECK_API_KEY): it is
   * published (an unchanged one keeps its version), the run starts there, and its events are pushed as a
   * local run's are while it goes on.
   */
  'runs.startTeam': {
    request: z.strictObject({ path: DocumentPathSchema, inputs: Inputs.default({}) }),
    response: z.object({ runId: z.string(), server: z.string() }),
  },
  /** Uploads a local run (record, events, task outputs) to the team server for the team to see. */
  'runs.share': { request: z.strictObject({ runId: RunId }), response: z.object({ runId: z.string(), server: z.string() }) },
  /**
   * *Publish to team server…*: publishes the document (with the files it names and the workspace's
   * settings, key names only) as an immutable version on the workspace's team server; an unchanged
   * document keeps its version (`created: false`).
   */
  'team.publish': {
    request: z.strictObject({ path: DocumentPathSchema }),
    response: z.object({ id: z.string(), kind: z.enum(['crew', 'flow']), name: z.string(), version: z.number(), created: z.boolean(), server: z.string(), files: z.array(z.string()) }),
  },
  /** Whether a team server is set up, and whether it answered the last time it was asked. */
  'team.status': {
    request: empty,
    response: z.object({ configured: z.boolean(), server: z.string().optional(), keyPresent: z.boolean(), error: z.string().optional() }),
  },
  'runs.list': {
    request: z.strictObject({
      limit: z.number().int().min(1).max(1000).default(200),
      offset: z.number().int().min(0).default(0),
      documentId: Id.optional(),
    }),
    response: z.object({ runs: z.array(RunSummarySchema) }),
  },
  'runs.get': {
    request: z.strictObject({ runId: RunId }),
    response: z.object({
      run: RunSummarySchema.extend({ document: z.unknown(), inputs: z.record(z.string(), z.string()), output: z.string().optional() }),
      taskOutputs: z.array(TaskOutputSchema),
    }),
  },
  'runs.events': {
    request: z.strictObject({ runId: RunId, afterSeq: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(50_000).default(20_000) }),
    /** `events` are RuntimeEvents (shared/events.ts), in seq order. */
    response: z.object({ events: z.array(z.unknown()), lastSeq: z.number(), more: z.boolean() }),
  },
  'runs.replay': {
    /** `edits`: earlier tasks' outputs replaced before the replay (a fork), task id → text. */
    /**
     * A crew from a task (earlier tasks' outputs edited: task id → text), or a flow from a method (the
     * state there edited: field → JSON value); earlier steps come from the recorded run.
     */
    request: z.union([
      z.strictObject({ runId: RunId, fromTaskId: Id, edits: z.record(Id, z.string().max(1_000_000)).optional() }),
      z.strictObject({ runId: RunId, fromMethodId: Id, state: z.record(z.string().min(1).max(200), z.unknown()).optional() }),
    ]),
    response: z.object({ runId: z.string() }),
  },
  /** Runs the run's document as it is now, answering every model call from that run's recording (no network). */
  'runs.rerunOffline': { request: z.strictObject({ runId: RunId }), response: z.object({ runId: z.string() }) },
  /** Two stored runs compared step by step (see shared/runDiff.ts). */
  'runs.diff': { request: z.strictObject({ runA: RunId, runB: RunId }), response: z.object({ diff: RunDiffSchema }) },
  /**
   * Continues a paused flow with the answer to its pending feedback request (also after a restart), or a
   * crew or flow paused at its budget under a higher `budget` (each field replaces the run's cap).
   */
  'runs.resume': {
    request: z.strictObject({
      runId: RunId,
      /** A flow's feedback, or a crew's task review ('' accepts the answer). */
      feedback: z.string().max(100_000).optional(),
      /** A crew paused at a tool approval (a team run waiting, or one paused for later). */
      decision: z.enum(['approve', 'deny', 'always']).optional(),
      budget: BudgetSchema.optional(),
    }),
    response: z.object({ runId: z.string() }),
  },

  'human.pending': { request: empty, response: z.object({ requests: z.array(PendingHumanRequestSchema) }) },
  /** Request ids are unique within a run; `human.requested` events carry the same ids. */
  'human.answer': {
    request: z.union([
      z.strictObject({ runId: RunId, requestId: RequestId, feedback: z.string().max(100_000) }),
      z.strictObject({ runId: RunId, requestId: RequestId, decision: z.enum(['approve', 'deny', 'always']) }),
    ]),
    response: empty,
  },

  'settings.get': {
    request: empty,
    response: z.object({
      settings: WorkspaceSettingsSchema,
      problems: z.array(ProblemSchema),
      /** Environment variable names the profiles refer to, and whether each is set (values never leave the host). */
      keys: z.array(z.object({ name: z.string(), present: z.boolean() })),
    }),
  },
  'settings.save': {
    request: z.strictObject({ settings: z.unknown() }),
    response: z.object({
      problems: z.array(ProblemSchema),
      /**
       * Loopback base URLs this save recorded as the user's own model servers for this workspace (typed
       * here, on a port the workspace never named): testing and running on them need no trust.
       */
      entered: z.array(z.string()).optional(),
    }),
  },
  'settings.testConnection': {
    request: z.strictObject({ model: z.union([z.string().min(1), InlineModelSchema]) }),
    response: ConnectionTestSchema,
  },
  /**
   * *Connect a model*: which of the usual local model servers answer on 127.0.0.1 (Ollama 11434, LM Studio
   * 1234, vLLM 8000) and the models each lists. Asked only when the user opens that panel; the host probes
   * its fixed list, never a host or port the renderer names.
   */
  'models.probeLocal': {
    request: empty,
    response: z.object({
      servers: z.array(
        z.object({
          id: z.enum(['ollama', 'lmstudio', 'vllm']),
          label: z.string(),
          baseUrl: z.string(),
          /** Something answered on the port. */
          found: z.boolean(),
          models: z.array(z.string()),
          error: z.string().optional(),
        }),
      ),
    }),
  },

  /**
   * API keys. Values go in and never come back out. The desktop app keeps them in the OS keychain
   * (Electron safeStorage); browser mode and the CLI read environment variables and cannot store keys.
   */
  'secrets.list': {
    request: empty,
    response: z.object({
      writable: z.boolean(),
      names: z.array(z.object({ name: z.string(), present: z.boolean(), stored: z.boolean() })),
    }),
  },
  'secrets.set': {
    request: z.strictObject({ name: EnvName, value: z.string().min(1).max(10_000) }),
    response: empty,
  },
  'secrets.delete': { request: z.strictObject({ name: EnvName }), response: empty },

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
  /**
   * Training (SPEC §6). A training session runs the crew `iterations` times with every task reviewed:
   * each review is an ordinary `human.requested` (kind task_review) answered with `human.answer`; the
   * runs' `run.started` carry `purpose: { kind: 'training', sessionId, iteration, iterations }`.
   * Resolves once the first run has opened; progress comes as `training.changed` pushes.
   */
  'training.start': {
    request: z.strictObject({
      path: DocumentPathSchema,
      iterations: z.number().int().min(1).max(50),
      /** A model profile that evaluates every role instead of the agents' own models. */
      evalModel: z.string().min(1).max(200).optional(),
      inputs: Inputs.default({}),
    }),
    response: z.object({ trainingId: z.string(), runId: z.string() }),
  },
  'training.cancel': { request: z.strictObject({ trainingId: Id }), response: z.object({ cancelled: z.boolean() }) },
  /** Training sessions, newest first (optionally one crew's). */
  'training.sessions': {
    request: z.strictObject({ crewId: Id.optional() }),
    response: z.object({ sessions: z.array(TrainingSessionSchema) }),
  },
  /** Suggestion versions of a crew: by role, newest version first. */
  'training.versions': {
    request: z.strictObject({ crewId: Id, role: RoleName.optional() }),
    response: z.object({ versions: z.array(SuggestionVersionSchema) }),
  },
  /** Feedback records (initial output, feedback, improved output), oldest first; `ids` = a version's `recordIds`. */
  'training.records': {
    request: z.strictObject({ crewId: Id, role: RoleName.optional(), trainingId: Id.optional(), ids: z.array(z.number().int()).max(10_000).optional() }),
    response: z.object({ records: z.array(TrainingRecordSchema) }),
  },
  /** Rewords one suggestion (0-based index); the earlier list goes to the version's history. */
  'training.updateSuggestion': {
    request: z.strictObject({ crewId: Id, role: RoleName, version: VersionNumber, index: z.number().int().min(0), text: SuggestionText }),
    response: z.object({ version: SuggestionVersionSchema }),
  },
  /** Replaces a version's whole list (add, remove, reorder); the earlier list goes to its history. */
  'training.setSuggestions': {
    request: z.strictObject({ crewId: Id, role: RoleName, version: VersionNumber, suggestions: z.array(SuggestionText).max(100) }),
    response: z.object({ version: SuggestionVersionSchema }),
  },
  /** Makes a version the role's active one (approves a draft); the role's other active version is disabled. */
  'training.activate': {
    request: z.strictObject({ crewId: Id, role: RoleName, version: VersionNumber }),
    response: z.object({ version: SuggestionVersionSchema }),
  },
  'training.disable': {
    request: z.strictObject({ crewId: Id, role: RoleName, version: VersionNumber }),
    response: z.object({ version: SuggestionVersionSchema }),
  },
  /** The version before the active one becomes active; the active one is disabled. Conflict when there is none. */
  'training.rollback': {
    request: z.strictObject({ crewId: Id, role: RoleName }),
    response: z.object({ version: SuggestionVersionSchema }),
  },
  'training.diff': {
    request: z.strictObject({ crewId: Id, role: RoleName, from: VersionNumber, to: VersionNumber }),
    response: z.object({ diff: SuggestionDiffSchema }),
  },

  /** A crew test: `iterations` unattended runs, each task scored by the evaluator and its checks. Resolves once the first run has opened. */
  'tests.start': {
    request: z.strictObject({
      path: DocumentPathSchema,
      iterations: z.number().int().min(1).max(50),
      evalModel: z.string().min(1).max(200).optional(),
      inputs: Inputs.default({}),
    }),
    response: z.object({ testId: z.string(), runId: z.string() }),
  },
  'tests.cancel': { request: z.strictObject({ testId: Id }), response: z.object({ cancelled: z.boolean() }) },
  'tests.list': {
    request: z.strictObject({ crewId: Id.optional(), limit: z.number().int().min(1).max(1000).default(100) }),
    response: z.object({ tests: z.array(TestSessionSchema) }),
  },
  /** A test's results (per task and iteration) and its score table (per task: scores, averages, duration, tokens). */
  'tests.get': { request: z.strictObject({ testId: Id }), response: TestReportSchema },

  /** The scopes that hold memories, with how many each (private ones included), for filters. */
  'memory.scopes': {
    request: empty,
    response: z.object({ scopes: z.array(z.object({ scope: z.string(), count: z.number() })) }),
  },

  /**
   * Tools documents may use: the built-ins and the tools of the workspace's MCP servers (each server
   * is started, asked for its tools and stopped). A server that cannot start is listed with its error.
   */
  'tools.list': {
    request: empty,
    response: z.object({
      tools: z.array(
        z.object({
          /** As documents name it: `read_file`, `mcp:<server>/<tool>`. */
          name: z.string(),
          description: z.string(),
          parameters: z.record(z.string(), z.unknown()),
          source: z.enum(['builtin', 'mcp']),
          server: z.string().optional(),
        }),
      ),
      servers: z.array(z.object({ name: z.string(), toolCount: z.number(), error: z.string().optional() })),
    }),
  },
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType }>;

export type HostChannel = keyof typeof HOST_CHANNELS;
export type HostRequest<C extends HostChannel> = z.input<(typeof HOST_CHANNELS)[C]['request']>;
export type HostRequestParsed<C extends HostChannel> = z.output<(typeof HOST_CHANNELS)[C]['request']>;
export type HostResponse<C extends HostChannel> = z.infer<(typeof HOST_CHANNELS)[C]['response']>;

export const HOST_CHANNEL_NAMES = Object.keys(HOST_CHANNELS) as HostChannel[];
export function isHostChannel(name: unknown): name is HostChannel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(HOST_CHANNELS, name);
}

/** Failures cross the boundary as data with a code the renderer can act on. */
export const HostErrorCodeSchema = z.enum(['invalid_request', 'unknown_channel', 'not_found', 'conflict', 'bad_input', 'internal']);
export type HostErrorCode = z.infer<typeof HostErrorCodeSchema>;
export const HostErrorSchema = z.object({
  code: HostErrorCodeSchema,
  message: z.string(),
  problems: z.array(ProblemSchema).optional(),
});
export type HostErrorData = z.infer<typeof HostErrorSchema>;

export type HostResult<C extends HostChannel> = { ok: true; response: HostResponse<C> } | { ok: false; error: HostErrorData };

/** Messages the host pushes without being asked: every live event of every run, and change notices. */
export type HostPush =
  | { kind: 'event'; event: RuntimeEvent }
  | { kind: 'documents.changed' }
  | { kind: 'runs.changed' }
  /** Memories were added, changed or removed (through the host, or by a run that just ended). */
  | { kind: 'memory.changed' }
  /** A row of a batch (`runs.startBatch`) changed status or usage: ask `runs.batch`. */
  | { kind: 'batch.changed'; batchId: string }
  /**
   * A crew's suggestion versions were changed by hand (activated, edited, disabled, rolled back). How a
   * training session or a test moves on is told by its events (`training.*`, `test.*`), pushed as `event`.
   */
  | { kind: 'training.changed'; crewId: string };

/**
 * WebSocket framing (browser mode). Electron IPC carries the same request/result shapes. Pushes made
 * in the same turn of the host's event loop travel together (`pushes`, in order; a lone one as `push`),
 * so a fast run's events cost the renderer one message per batch, not one per event.
 */
export type WireRequest = { id: number; channel: string; request: unknown };
export type WireMessage = { id: number; result: HostResult<HostChannel> } | { push: HostPush } | { pushes: HostPush[] };

/** The renderer's view of the host: one function per channel family, whatever the transport. */
export interface HostApi {
  invoke<C extends HostChannel>(channel: C, request: HostRequest<C>): Promise<HostResponse<C>>;
  /** Returns an unsubscribe function. */
  subscribe(listener: (push: HostPush) => void): () => void;
}

export type HostRequestCheck = { ok: true; channel: HostChannel; request: unknown } | { ok: false; error: HostErrorData };

/**
 * The check every host request gets on arrival (the renderer is untrusted): a contract channel, and a
 * request that matches its schema. On success `request` is the parsed value (defaults applied; strict
 * schemas refuse unknown keys). The HostService and Electron's main process both run it.
 */
export function checkHostRequest(channel: unknown, request: unknown): HostRequestCheck {
  if (!isHostChannel(channel)) {
    return { ok: false, error: { code: 'unknown_channel', message: `unknown channel ${JSON.stringify(String(channel)).slice(0, 100)}` } };
  }
  const parsed = HOST_CHANNELS[channel].request.safeParse(request ?? {});
  if (!parsed.success) {
    const problems = problemsFromZod(parsed.error);
    return {
      ok: false,
      error: { code: 'invalid_request', message: `invalid ${channel} request: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, problems },
    };
  }
  return { ok: true, channel, request: parsed.data };
}
