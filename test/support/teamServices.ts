import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { migratePostgres } from '../../runtime/store/postgresSchema';

/**
 * Real PostgreSQL and Redis for the team tests. In CI, `.ci/run` starts one of each and says where in
 * CREWDECK_TEST_DATABASE_URL (the `postgres` database of the server, used to create a database per test
 * file) and CREWDECK_TEST_REDIS_URL; elsewhere the first test file that needs them starts its own, the
 * same way (Debian's packages; initdb as the `postgres` user when we are root). Tests that restart a
 * server start their own, so they never disturb another file's.
 */

/** Debian's newest installed PostgreSQL (bookworm ships 15, trixie 17), unless CREWDECK_PG_BIN says. */
function postgresBin(): string {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v) && existsSync(join('/usr/lib/postgresql', v, 'bin/initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return join('/usr/lib/postgresql', newest ?? '15', 'bin');
}
const PG_BIN = process.env.CREWDECK_PG_BIN ?? postgresBin();

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function asPostgresUser(): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
}

function run(command: string[]): void {
  const [file, ...args] = command;
  execFileSync(file!, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export interface PostgresServer {
  port: number;
  /** A URL of `database` on this server (the admin database `postgres` by default). */
  url(database?: string): string;
  stop(): Promise<void>;
  /** Stops it (fast shutdown: every connection is cut) and starts it again on the same port and data. */
  restart(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'crewdeck-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) {
    chmodSync(dir, 0o755);
    chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
  }
  run([...asPostgresUser(), join(PG_BIN, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  const ctl = (...args: string[]) => run([...asPostgresUser(), join(PG_BIN, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), ...args]);
  const start = () => ctl('-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`, '-w', 'start');
  start();
  return {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: async () => {
      ctl('-m', 'immediate', 'stop');
      rmSync(dir, { recursive: true, force: true });
    },
    restart: async () => {
      ctl('-m', 'fast', 'stop');
      start();
    },
  };
}

export interface RedisServer {
  port: number;
  url: string;
  stop(): Promise<void>;
  /** Kills it and starts a new one on the same port: everything it held is gone (no persistence). */
  restart(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    // Ready in ~0.1 s: try to connect until it answers (each try a fresh client that does not retry by itself).
    for (let attempt = 0; ; attempt++) {
      const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.ping();
        return;
      } catch (error) {
        if (attempt > 100) throw error;
        await new Promise((r) => setTimeout(r, 50));
      } finally {
        client.disconnect();
      }
    }
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, stop, restart: async () => { await stop(); await start(); } };
}

let shared: Promise<{ adminUrl: string; redisUrl: string; stop: () => Promise<void> }> | undefined;

/** The servers this test file shares: CI's (environment) or ones started for this process. */
export function sharedServices(): Promise<{ adminUrl: string; redisUrl: string; stop: () => Promise<void> }> {
  shared ??= (async () => {
    const adminUrl = process.env.CREWDECK_TEST_DATABASE_URL;
    const redisUrl = process.env.CREWDECK_TEST_REDIS_URL;
    if (adminUrl && redisUrl) return { adminUrl, redisUrl, stop: async () => undefined };
    const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    return { adminUrl: postgres.url(), redisUrl: redis.url, stop: async () => { await Promise.all([postgres.stop(), redis.stop()]); } };
  })();
  return shared;
}

export interface TeamTestEnv {
  databaseUrl: string;
  redisUrl: string;
  /** A BullMQ prefix of this test's own, so files sharing one Redis never take each other's jobs. */
  queuePrefix: string;
  dispose(): Promise<void>;
}

/** A fresh, migrated database (and a queue prefix) of this test's own on the shared servers. */
export async function teamTestEnv(services?: { adminUrl: string; redisUrl: string }): Promise<TeamTestEnv> {
  services ??= await sharedServices();
  const name = `crewdeck_t_${randomBytes(5).toString('hex')}`;
  await withAdmin(services.adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const databaseUrl = services.adminUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await migratePostgres(pool);
  await pool.end();
  return {
    databaseUrl,
    redisUrl: services.redisUrl,
    queuePrefix: `t${randomBytes(4).toString('hex')}`,
    dispose: async () => {
      await withAdmin(services!.adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => undefined);
    },
  };
}

async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
