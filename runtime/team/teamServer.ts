import type { Server } from 'node:http';
import { requirePostgresSchema } from '../store/postgresSchema';
import { createApiServer, listen } from './apiServer';
import { displayUrl, openPostgres, openRedis } from './connections';
import { RunDispatch } from './dispatch';
import { PgListener } from './pgListener';
import { RateLimiter } from './rateLimit';
import { RunStreams } from './runStreams';
import { startWorker, type TeamWorker, type WorkerOptions } from './teamWorker';
import { webhookPolicyFrom, type WebhookPolicy } from './webhookPolicy';

export interface ServerOptions {
  databaseUrl: string;
  redisUrl: string;
  port?: number;
  host?: string;
  /** Also run a worker in this process (one machine, one command). */
  withWorker?: Omit<WorkerOptions, 'databaseUrl' | 'redisUrl' | 'queuePrefix' | 'log' | 'webhookPolicy'>;
  queuePrefix?: string;
  /** Hosts webhooks may reach whatever their address (webhookPolicy.ts); public addresses only otherwise. */
  webhookPolicy?: WebhookPolicy;
  log?: (line: string) => void;
}

export interface TeamServer {
  url: string;
  server: Server;
  worker?: TeamWorker;
  stop(): Promise<void>;
}

/**
 * `crewdeck server`: the /v1 API. Refuses to start when PostgreSQL or Redis is unreachable or the schema
 * is not this version's (TeamServiceUnavailable, TeamSchemaTooNew / TeamSchemaOutdated).
 */
export async function startTeamServer(options: ServerOptions): Promise<TeamServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const pool = await openPostgres(options.databaseUrl, { max: 20 });
  const closers: (() => Promise<unknown>)[] = [() => pool.end()];
  try {
    await requirePostgresSchema(pool);
    // Fails fast while Redis is down: a caller is never held by it (runs wait in PostgreSQL meanwhile).
    const redis = await openRedis(options.redisUrl, { waitWhileDown: false });
    closers.unshift(async () => redis.disconnect());
    const dispatch = new RunDispatch(redis, options.queuePrefix);
    closers.unshift(() => dispatch.close());
    const streams = new RunStreams(pool);
    closers.unshift(async () => streams.close());
    const listener = new PgListener(options.databaseUrl, ['crewdeck_events', 'crewdeck_runs'], (_channel, payload) => streams.notify(payload.slice(0, payload.indexOf(':'))), () => streams.pokeAll());
    await listener.start();
    closers.unshift(() => listener.close());
    const webhookPolicy = options.webhookPolicy ?? webhookPolicyFrom([]);
    const server = createApiServer({ pool, dispatch, streams, limiter: new RateLimiter(redis), webhookPolicy });
    const url = await listen(server, options.port ?? 8787, options.host ?? '127.0.0.1');
    closers.unshift(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    let worker: TeamWorker | undefined;
    if (options.withWorker) {
      worker = await startWorker({ ...options.withWorker, databaseUrl: options.databaseUrl, redisUrl: options.redisUrl, log, webhookPolicy, ...(options.queuePrefix ? { queuePrefix: options.queuePrefix } : {}) });
      closers.unshift(() => worker!.stop());
    }
    log(`crewdeck server: the API listens on ${url}/v1 (PostgreSQL ${displayUrl(options.databaseUrl)}, Redis ${displayUrl(options.redisUrl)})${worker ? ', with a worker' : ''}`);
    return { url, server, ...(worker ? { worker } : {}), stop: async () => { for (const close of closers) await close().catch(() => undefined); } };
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined);
    throw error;
  }
}
