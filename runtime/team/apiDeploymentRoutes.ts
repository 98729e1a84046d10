import { guessInputRowsFormat, InputRowsInvalid, parseInputRows } from '../../shared/inputRows';
import type { TeamRunRequest } from '../store/postgresRunReads';
import { ApiError, readJsonBody, sendJson } from './apiHttp';
import { allowedWebhook, BatchSchema, parseBody, StartRunSchema } from './apiSchemas';
import type { ApiContext, Route } from './apiRoute';
import type { DeploymentBundle } from './deploymentBundle';
import { deploymentContent, getDeployment, listDeployments, publishDeployment } from './deployments';
import { cancelBatch, createBatch } from './teamBatches';
import { listTeamBatches, readTeamBatch } from '../store/postgresBatches';
import { queueRun } from './teamRuns';

const ID = '([^/]+)';

async function publish(ctx: ApiContext): Promise<void> {
  const body = await readJsonBody(ctx.req);
  const result = await publishDeployment(ctx.pool, body as unknown as DeploymentBundle, ctx.key.id);
  sendJson(ctx.res, result.created ? 201 : 200, { ...result.deployment, id: result.deployment.id, version: result.version, created: result.created });
}

async function startRun(ctx: ApiContext): Promise<void> {
  const body = parseBody(StartRunSchema, await readJsonBody(ctx.req));
  allowedWebhook(body.webhook, ctx.webhookPolicy);
  const content = await deploymentContent(ctx.pool, ctx.params[0]!, body.version);
  const request: TeamRunRequest = { kind: 'start', ...(body.profile ? { profile: body.profile } : {}), ...(body.budget ? { budget: body.budget } : {}) };
  const doc = content.document as { name: string };
  const run = await queueRun(ctx.pool, ctx.dispatch, {
    deploymentId: content.deploymentId,
    version: content.version,
    kind: content.kind,
    name: doc.name,
    inputs: body.inputs,
    request,
    keyId: ctx.key.id,
    ...(body.idempotencyKey ? { idempotencyKey: body.idempotencyKey } : {}),
    ...(body.webhook ? { webhook: body.webhook } : {}),
  });
  sendJson(ctx.res, 202, { runId: run.runId, status: run.status, ...(run.existing ? { idempotent: true } : {}) });
}

async function startBatch(ctx: ApiContext): Promise<void> {
  const body = parseBody(BatchSchema, await readJsonBody(ctx.req));
  allowedWebhook(body.webhook, ctx.webhookPolicy);
  const content = await deploymentContent(ctx.pool, ctx.params[0]!, body.version);
  let rows = body.rows;
  if (body.csv !== undefined) {
    try {
      rows = parseInputRows(body.csv, guessInputRowsFormat(body.csv));
    } catch (error) {
      if (error instanceof InputRowsInvalid) throw new ApiError(400, 'invalid_request', `csv: ${error.message}`, 'csv');
      throw error;
    }
    if (rows.length === 0) throw new ApiError(400, 'invalid_request', 'csv: no rows under the header', 'csv');
  }
  const batchId = await createBatch(ctx.pool, ctx.dispatch, {
    deploymentId: content.deploymentId,
    version: content.version,
    kind: content.kind,
    name: (content.document as { name: string }).name,
    rows: rows ?? [],
    concurrency: body.concurrency,
    keyId: ctx.key.id,
    request: { kind: 'start', ...(body.profile ? { profile: body.profile } : {}), ...(body.budget ? { budget: body.budget } : {}) },
    ...(body.webhook ? { webhook: body.webhook } : {}),
  });
  sendJson(ctx.res, 202, { batchId, rows: rows?.length ?? 0, concurrency: body.concurrency });
}

export const DEPLOYMENT_ROUTES: Route[] = [
  {
    method: 'GET',
    path: /^\/v1\/deployments$/,
    scope: 'run',
    handle: async (ctx) => sendJson(ctx.res, 200, { deployments: await listDeployments(ctx.pool) }),
  },
  { method: 'POST', path: /^\/v1\/deployments$/, scope: 'deploy', handle: publish },
  {
    method: 'GET',
    path: new RegExp(`^/v1/deployments/${ID}$`),
    scope: 'run',
    handle: async (ctx) => {
      const deployment = await getDeployment(ctx.pool, ctx.params[0]!);
      if (!deployment) throw new ApiError(404, 'not_found', `no deployment "${ctx.params[0]!}"`);
      sendJson(ctx.res, 200, deployment);
    },
  },
  { method: 'POST', path: new RegExp(`^/v1/deployments/${ID}/runs$`), scope: 'run', handle: startRun },
  { method: 'POST', path: new RegExp(`^/v1/deployments/${ID}/batches$`), scope: 'run', handle: startBatch },
  {
    method: 'GET',
    path: /^\/v1\/batches$/,
    scope: 'run',
    handle: async (ctx) => {
      const limit = Number(ctx.query.get('limit') ?? 50);
      const offset = Number(ctx.query.get('offset') ?? 0);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new ApiError(400, 'invalid_request', `limit must be a whole number from 1 to 500, got "${ctx.query.get('limit') ?? ''}"`, 'limit');
      if (!Number.isInteger(offset) || offset < 0) throw new ApiError(400, 'invalid_request', `offset must be a whole number from 0, got "${ctx.query.get('offset') ?? ''}"`, 'offset');
      sendJson(ctx.res, 200, { batches: await listTeamBatches(ctx.pool, { limit, offset }) });
    },
  },
  {
    method: 'GET',
    path: new RegExp(`^/v1/batches/${ID}$`),
    scope: 'run',
    handle: async (ctx) => {
      const batch = await readTeamBatch(ctx.pool, ctx.params[0]!);
      if (!batch) throw new ApiError(404, 'not_found', `no batch "${ctx.params[0]!}"`);
      sendJson(ctx.res, 200, batch);
    },
  },
  {
    method: 'POST',
    path: new RegExp(`^/v1/batches/${ID}/cancel$`),
    scope: 'run',
    handle: async (ctx) => {
      const result = await cancelBatch(ctx.pool, ctx.params[0]!, 'the batch was cancelled');
      if (!result.cancelled) throw new ApiError(409, 'conflict', `batch ${ctx.params[0]!} has ended; there is nothing to cancel`);
      sendJson(ctx.res, 202, { batchId: ctx.params[0], status: 'cancelled', stopping: result.running });
    },
  },
];
