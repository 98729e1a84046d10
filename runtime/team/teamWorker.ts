import { randomBytes } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import type { Pool } from 'pg';
import type { Redis } from 'ioredis';
import { errorMessage } from '../errors';
import { memoryLocationUnder } from '../memory/memoryLocation';
import type { RunMemoryStore } from '../memory/runMemory';
import { workspaceEmbedder } from '../memory/workspaceMemory';
import { requirePostgresSchema } from '../store/postgresSchema';
import type { ResolveAll } from '../tools/guardedFetch';
import { readTeamRun } from '../store/postgresRunReads';
import { advanceRun, type AdvanceContext } from './advanceRun';
import { displayUrl, openPostgres, openRedis } from './connections';
import type { DeploymentContent } from './deployments';
import { reconcileRuns, RunDispatch, RUN_QUEUE, type AdvanceJob } from './dispatch';
import { PgListener } from './pgListener';
import { RunLeases } from './runLease';
import { runningBatches, topUpBatch } from './teamBatches';
import { webhookPolicyFrom, type WebhookPolicy } from './webhookPolicy';
import { webhookSecret, WebhookSender } from './webhooks';

export interface WorkerOptions {
  databaseUrl: string;
  redisUrl: string;
  /** Runs advanced at once by this process. */
  concurrency?: number;
  /** How long a run's lease lasts without renewal: a dead worker's runs continue elsewhere within it. Default 15 s (recovery within about 1.5 leases: the lease, then BullMQ's stalled-job check at half of it). */
  leaseMs?: number;
  /** Where published versions are laid out (default: a folder in the system's temp folder). */
  dataDir?: string;
  /** The LanceDB location shared by every worker, for crews with memory: a folder on a shared filesystem, a file:// URL, or an object-store URI LanceDB opens (s3://, gs://, az://); one store per deployment inside. */
  memoryDir?: string;
  /** BullMQ key prefix (tests keep apart on one Redis). */
  queuePrefix?: string;
  /** Hosts webhooks may reach whatever their address (webhookPolicy.ts); public addresses only otherwise. */
  webhookPolicy?: WebhookPolicy;
  /** How webhook host names are resolved (tests answer without DNS); default the system's. */
  webhookResolve?: ResolveAll;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export interface TeamWorker {
  owner: string;
  stop(): Promise<void>;
}

export const DEFAULT_LEASE_MS = 15_000;

/**
 * `crewdeck worker`: consumes "advance run R" jobs from BullMQ, keeps Redis in line with PostgreSQL
 * (reconciler), tops up batches, delivers webhooks, and hears cancellations. Refuses to start when
 * PostgreSQL or Redis is unreachable or the schema is not this version's.
 */
export async function startWorker(options: WorkerOptions): Promise<TeamWorker> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const concurrency = options.concurrency ?? 2;
  const pool = await openPostgres(options.databaseUrl, { max: concurrency * 2 + 4 });
  const closers: (() => Promise<unknown>)[] = [() => pool.end()];
  try {
    await requirePostgresSchema(pool);
    const jobsRedis = await openRedis(options.redisUrl, { waitWhileDown: true });
    closers.unshift(async () => jobsRedis.disconnect());
    const queueRedis = await openRedis(options.redisUrl, { waitWhileDown: false });
    closers.unshift(async () => queueRedis.disconnect());
    const owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    const dispatch = new RunDispatch(queueRedis, options.queuePrefix);
    closers.unshift(() => dispatch.close());
    const cancels = new Map<string, (reason: string) => void>();
    const webhooks = new WebhookSender(pool, await webhookSecret(pool, options.env ?? process.env), log, {
      policy: options.webhookPolicy ?? webhookPolicyFrom([], options.env),
      ...(options.webhookResolve ? { resolve: options.webhookResolve } : {}),
    });
    const listener = new PgListener(
      options.databaseUrl,
      ['crewdeck_cancel', 'crewdeck_events'],
      (channel, payload) => {
        if (channel === 'crewdeck_events') return webhooks.poke();
        const at = payload.indexOf(':');
        cancels.get(payload.slice(0, at))?.(payload.slice(at + 1));
      },
      () => webhooks.poke(),
    );
    await listener.start();
    closers.unshift(() => listener.close());
    const ctx: AdvanceContext = {
      pool,
      leases: new RunLeases(pool, owner, leaseMs),
      dataDir: options.dataDir ?? join(tmpdir(), 'crewdeck-worker'),
      env: options.env ?? process.env,
      memory: sharedMemory(options, log),
      onCancel: (runId, cancel) => {
        cancels.set(runId, cancel);
        return () => cancels.delete(runId);
      },
      log,
    };
    const worker = startJobs(ctx, pool, dispatch, jobsRedis, { concurrency, leaseMs, prefix: options.queuePrefix });
    closers.unshift(() => worker.close());
    const timer = startUpkeep(pool, dispatch, webhooks, leaseMs, log);
    closers.unshift(async () => clearInterval(timer));
    log(`crewdeck worker ${owner}: ${concurrency} at once, lease ${leaseMs / 1000} s; jobs from Redis ${displayUrl(options.redisUrl)} (queue ${RUN_QUEUE}), runs in PostgreSQL ${displayUrl(options.databaseUrl)}`);
    return { owner, stop: () => closeAll(closers) };
  } catch (error) {
    await closeAll(closers);
    throw error;
  }
}

async function closeAll(closers: (() => Promise<unknown>)[]): Promise<void> {
  for (const close of closers) await close().catch(() => undefined);
}

/** The BullMQ worker: each job advances its run; a batch run that stopped makes room for the batch's next rows. */
function startJobs(ctx: AdvanceContext, pool: Pool, dispatch: RunDispatch, connection: Redis, options: { concurrency: number; leaseMs: number; prefix?: string }): Worker<AdvanceJob> {
  const worker = new Worker<AdvanceJob>(
    RUN_QUEUE,
    async (job) => {
      const outcome = await advanceRun(ctx, job.data.runId);
      if (outcome === 'advanced') {
        const row = await readTeamRun(pool, job.data.runId);
        if (row?.batch_id) await topUpBatch(pool, dispatch, row.batch_id);
      }
      return outcome;
    },
    {
      connection,
      concurrency: options.concurrency,
      // A job whose worker died goes back to the queue within about a lease (the run's own lease in
      // PostgreSQL decides who may advance it; the reconciler covers a job Redis lost).
      lockDuration: options.leaseMs,
      stalledInterval: Math.max(1_000, Math.floor(options.leaseMs / 2)),
      maxStalledCount: 1_000,
      ...(options.prefix ? { prefix: options.prefix } : {}),
    },
  );
  worker.on('error', () => undefined);
  worker.on('failed', (job, error) => ctx.log(`job ${job?.id ?? '?'}: ${errorMessage(error)}`));
  return worker;
}

/** Every quarter lease: queue runs Redis does not have, top up running batches, send due webhooks. */
function startUpkeep(pool: Pool, dispatch: RunDispatch, webhooks: WebhookSender, leaseMs: number, log: (line: string) => void): NodeJS.Timeout {
  let busy = false;
  const timer = setInterval(() => {
    webhooks.poke();
    if (busy) return;
    busy = true;
    (async () => {
      await reconcileRuns(pool, dispatch, leaseMs);
      for (const batchId of await runningBatches(pool)) await topUpBatch(pool, dispatch, batchId);
    })()
      .catch((error: unknown) => log(`reconcile: ${errorMessage(error)}`))
      .finally(() => {
        busy = false;
      });
  }, Math.max(250, Math.min(1_000, Math.floor(leaseMs / 4))));
  timer.unref();
  return timer;
}

/** One LanceDB memory per deployment under the shared location, opened on first use and kept. */
function sharedMemory(options: WorkerOptions, log: (line: string) => void): (content: DeploymentContent) => Promise<RunMemoryStore | undefined> {
  const opened = new Map<string, Promise<RunMemoryStore>>();
  const root = options.memoryDir ?? join(options.dataDir ?? join(tmpdir(), 'crewdeck-worker'), 'memory');
  if (!options.memoryDir) log('crewdeck worker: no --memory location: crews with memory remember on this machine only');
  return async (content) => {
    let store = opened.get(content.deploymentId);
    if (!store) {
      store = (async () => {
        const embedder = await workspaceEmbedder(content.settings?.memory?.embedder, options.env ?? process.env);
        const { MemoryStore } = await import('../memory/memoryStore');
        return MemoryStore.open(memoryLocationUnder(root, content.deploymentId), embedder);
      })();
      store.catch(() => opened.delete(content.deploymentId));
      opened.set(content.deploymentId, store);
    }
    return store;
  };
}
