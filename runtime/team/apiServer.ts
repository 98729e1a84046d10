import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { ApiError, sendError } from './apiHttp';
import { hasScope, verifyApiKey, type ApiKey } from './apiKeys';
import { DEPLOYMENT_ROUTES } from './apiDeploymentRoutes';
import { RUN_ROUTES } from './apiRunRoutes';
import type { RunDispatch } from './dispatch';
import type { RateLimiter } from './rateLimit';
import type { RunStreams } from './runStreams';
import type { Route } from './apiRoute';
import type { WebhookPolicy } from './webhookPolicy';

const ROUTES: readonly Route[] = [...DEPLOYMENT_ROUTES, ...RUN_ROUTES];

export interface ApiServerDeps {
  pool: Pool;
  dispatch: RunDispatch;
  streams: RunStreams;
  limiter: RateLimiter;
  webhookPolicy: WebhookPolicy;
}

/**
 * The /v1 HTTP API. Stateless (everything is in PostgreSQL, jobs in Redis): any number of these run
 * behind a load balancer. Every route but /v1/health needs `Authorization: Bearer <key>`; a missing or
 * unknown key gets 401, a key without the route's scope 403, a key over its rate 429 with Retry-After.
 */
export function createApiServer(deps: ApiServerDeps): Server {
  return createServer((req, res) => {
    handle(deps, req, res).catch((error: unknown) => sendError(res, error));
  });
}

async function handle(deps: ApiServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/v1/health') {
    await deps.pool.query('SELECT 1');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    return;
  }
  const candidates = ROUTES.filter((r) => r.path.test(url.pathname));
  if (candidates.length === 0) throw new ApiError(404, 'not_found', `no route ${url.pathname} (the API is under /v1)`);
  const route = candidates.find((r) => r.method === req.method);
  if (!route) throw new ApiError(405, 'method_not_allowed', `${req.method ?? ''} is not allowed on ${url.pathname}; use ${candidates.map((r) => r.method).join(' or ')}`, undefined, { allow: candidates.map((r) => r.method).join(', ') });
  const key = await authenticate(deps.pool, req);
  if (!hasScope(key, route.scope)) throw new ApiError(403, 'forbidden', `this key (scope ${key.scopes.join(', ')}) may not do this: it needs the "${route.scope}" scope`);
  const wait = await deps.limiter.check(key.id, key.ratePerMinute);
  if (wait > 0) throw new ApiError(429, 'rate_limited', `this key made more than ${key.ratePerMinute} requests a minute; try again in ${wait} s`, undefined, { 'retry-after': String(wait) });
  const params = route.path.exec(url.pathname)!.slice(1).map((p) => decodeURIComponent(p));
  await route.handle({ pool: deps.pool, dispatch: deps.dispatch, streams: deps.streams, webhookPolicy: deps.webhookPolicy, key, req, res, params, query: url.searchParams });
}

async function authenticate(pool: Pool, req: IncomingMessage): Promise<ApiKey> {
  const header = req.headers.authorization;
  if (!header) throw new ApiError(401, 'unauthorized', 'an API key is required: send "Authorization: Bearer <key>" (crewdeck server keys create)', undefined, { 'www-authenticate': 'Bearer' });
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const key = token ? await verifyApiKey(pool, token) : undefined;
  if (!key) throw new ApiError(401, 'unauthorized', 'the API key is not valid (unknown, revoked or malformed)', undefined, { 'www-authenticate': 'Bearer error="invalid_token"' });
  return key;
}

/** Starts listening; resolves with the URL. */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}
