import { readTeamEvents, readTeamRun, TEAM_RUN_STATUSES, type TeamRunStatus } from '../store/postgresRunReads';
import type { TeamPending } from '../store/postgresRunWrites';
import { ApiError, readJsonBody, sendJson } from './apiHttp';
import { allowedWebhook, CancelSchema, parseBody, ReplaySchema, ResumeSchema } from './apiSchemas';
import type { ApiContext, Route } from './apiRoute';
import { shareRun } from './teamShare';
import { cancelRun, listTeamRuns, queueRun, resumeRun, viewRun } from './teamRuns';

const ID = '([^/]+)';
const DEFAULT_PAGE = 1_000;

function intParam(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const text = query.get(name);
  if (text === null) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > max) throw new ApiError(400, 'invalid_request', `${name} must be a whole number from 0 to ${max}, got "${text}"`, name);
  return value;
}

async function requireRun(ctx: ApiContext) {
  const row = await readTeamRun(ctx.pool, ctx.params[0]!);
  if (!row) throw new ApiError(404, 'not_found', `no run "${ctx.params[0]!}"`);
  return row;
}

async function events(ctx: ApiContext): Promise<void> {
  const row = await requireRun(ctx);
  const after = intParam(ctx.query, 'after', 0, Number.MAX_SAFE_INTEGER);
  const limit = Math.max(1, intParam(ctx.query, 'limit', DEFAULT_PAGE, 10_000));
  const page = await readTeamEvents(ctx.pool, row.id, after, limit + 1);
  const list = page.slice(0, limit);
  sendJson(ctx.res, 200, { events: list, lastSeq: list.at(-1)?.seq ?? after, more: page.length > limit });
}

async function stream(ctx: ApiContext): Promise<void> {
  const row = await requireRun(ctx);
  const header = ctx.req.headers['last-event-id'];
  const fromHeader = typeof header === 'string' && /^\d+$/.test(header.trim()) ? Number(header.trim()) : undefined;
  ctx.streams.open(row.id, ctx.res, fromHeader ?? intParam(ctx.query, 'after', 0, Number.MAX_SAFE_INTEGER));
}

async function resume(ctx: ApiContext): Promise<void> {
  const body = parseBody(ResumeSchema, await readJsonBody(ctx.req));
  const budget = body.maxTokens !== undefined || body.maxCostUsd !== undefined ? { ...(body.maxTokens ? { maxTokens: body.maxTokens } : {}), ...(body.maxCostUsd ? { maxCostUsd: body.maxCostUsd } : {}) } : undefined;
  const row = await requireRun(ctx);
  if (row.pending && row.pending.requestId === body.requestId) checkAnswerFits(row.pending, body);
  const { maxTokens: _t, maxCostUsd: _c, ...answer } = body;
  sendJson(ctx.res, 202, await resumeRun(ctx.pool, ctx.dispatch, row.id, { ...answer, ...(budget ? { budget } : {}) }));
}

/** The answer must fit the question (400 naming the field): an outcome of the feedback's, a decision for a tool. */
function checkAnswerFits(pending: TeamPending, body: { feedback?: string; approve?: boolean; outcome?: string }): void {
  if (pending.kind === 'feedback' && pending.outcomes && body.outcome !== undefined && !pending.outcomes.includes(body.outcome)) {
    throw new ApiError(400, 'invalid_request', `outcome "${body.outcome}" is not one of ${pending.outcomes.join(', ')}`, 'outcome');
  }
  if (pending.kind === 'tool_approval' && body.approve === undefined && body.outcome !== 'always') {
    throw new ApiError(400, 'invalid_request', `request ${pending.requestId} asks to approve the tool "${pending.tool ?? ''}": answer with approve: true or false (or outcome: "always" to allow it for the rest of the run)`, 'approve');
  }
  if (pending.kind === 'task_review' && body.feedback === undefined && body.approve !== true) {
    throw new ApiError(400, 'invalid_request', `request ${pending.requestId} is a review of ${pending.agentRole ?? 'an agent'}'s answer: accept it with approve: true, or ask for changes with feedback`, 'feedback');
  }
}

async function replay(ctx: ApiContext): Promise<void> {
  const body = parseBody(ReplaySchema, await readJsonBody(ctx.req));
  const source = await requireRun(ctx);
  if (source.deployment_id === null || source.version === null) throw new ApiError(409, 'conflict', `run ${source.id} was shared from a desktop; only runs of a deployment can be replayed on the server`);
  if (source.kind === 'crew' && body.fromTaskId === undefined) throw new ApiError(400, 'invalid_request', `run ${source.id} is a crew run: replay it from a task (fromTaskId)`, 'fromTaskId');
  if (source.kind === 'flow' && body.fromMethodId === undefined) throw new ApiError(400, 'invalid_request', `run ${source.id} is a flow run: replay it from a method (fromMethodId)`, 'fromMethodId');
  const { webhook: given, ...rest } = body;
  const webhook = allowedWebhook(given, ctx.webhookPolicy);
  const run = await queueRun(ctx.pool, ctx.dispatch, {
    deploymentId: source.deployment_id,
    version: source.version,
    kind: source.kind,
    name: source.name,
    inputs: source.inputs,
    request: { kind: 'replay', sourceRunId: source.id, ...rest },
    keyId: ctx.key.id,
    replayOf: { runId: source.id, from: body.fromTaskId ?? body.fromMethodId ?? '' },
    ...(webhook ? { webhook } : {}),
  });
  sendJson(ctx.res, 202, { runId: run.runId, status: run.status, replayOf: source.id });
}

async function list(ctx: ApiContext): Promise<void> {
  const status = ctx.query.get('status') ?? undefined;
  if (status !== undefined && !TEAM_RUN_STATUSES.includes(status as TeamRunStatus)) {
    throw new ApiError(400, 'invalid_request', `status must be one of ${TEAM_RUN_STATUSES.join(', ')}, got "${status}"`, 'status');
  }
  const page = await listTeamRuns(ctx.pool, {
    ...(ctx.query.get('deployment') ? { deploymentId: ctx.query.get('deployment')! } : {}),
    ...(status ? { status: status as TeamRunStatus } : {}),
    ...(ctx.query.get('cursor') ? { cursor: ctx.query.get('cursor')! } : {}),
    limit: Math.max(1, intParam(ctx.query, 'limit', 50, 500)),
  });
  sendJson(ctx.res, 200, page);
}

export const RUN_ROUTES: Route[] = [
  { method: 'GET', path: /^\/v1\/runs$/, scope: 'run', handle: list },
  {
    method: 'POST',
    path: /^\/v1\/runs$/,
    scope: 'run',
    handle: async (ctx) => sendJson(ctx.res, 201, await shareRun(ctx.pool, await readJsonBody(ctx.req), ctx.key.id)),
  },
  {
    method: 'GET',
    path: new RegExp(`^/v1/runs/${ID}$`),
    scope: 'run',
    handle: async (ctx) => sendJson(ctx.res, 200, await viewRun(ctx.pool, ctx.params[0]!, new Set((ctx.query.get('include') ?? '').split(',').filter(Boolean)))),
  },
  { method: 'GET', path: new RegExp(`^/v1/runs/${ID}/events$`), scope: 'run', handle: events },
  { method: 'GET', path: new RegExp(`^/v1/runs/${ID}/stream$`), scope: 'run', handle: stream },
  { method: 'POST', path: new RegExp(`^/v1/runs/${ID}/resume$`), scope: 'run', handle: resume },
  {
    method: 'POST',
    path: new RegExp(`^/v1/runs/${ID}/cancel$`),
    scope: 'run',
    handle: async (ctx) => {
      const body = parseBody(CancelSchema, await readJsonBody(ctx.req));
      sendJson(ctx.res, 202, await cancelRun(ctx.pool, ctx.dispatch, ctx.params[0]!, body.reason ?? 'cancelled through the API'));
    },
  },
  { method: 'POST', path: new RegExp(`^/v1/runs/${ID}/replay$`), scope: 'run', handle: replay },
];
