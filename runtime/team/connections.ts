import pg from 'pg';
import { Redis } from 'ioredis';
import { errorMessage } from '../errors';
import { TeamServiceUnavailable } from './teamErrors';

/** A connection URL with its password hidden, for messages and logs. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

export interface PostgresOptions {
  /** Connections in the pool. */
  max?: number;
  /** How long a caller waits for a connection (PostgreSQL down: the request fails with this, never hangs). */
  connectTimeoutMs?: number;
}

/**
 * A pool on the team database, checked with one query: unreachable → TeamServiceUnavailable naming the
 * URL (password hidden). Idle connections that PostgreSQL drops (a restart) are replaced on the next
 * query, without anyone's help.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<pg.Pool> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // A statement that runs this long is a stuck server, not a slow query of ours.
    query_timeout: 30_000,
    application_name: 'crewdeck',
  });
  // An idle client whose server went away: the pool drops it; nothing to do here. A client in use reports
  // the same loss through the query it was running (a restart), so its own 'error' event needs no handler.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new TeamServiceUnavailable('PostgreSQL', displayUrl(url), errorMessage(error));
  }
  return pool;
}

export interface RedisOptions {
  /**
   * Commands wait while the connection is down (BullMQ's workers need this); otherwise they fail at
   * once, so a caller is never held by a Redis outage.
   */
  waitWhileDown: boolean;
  connectTimeoutMs?: number;
}

/**
 * A Redis client (ioredis, as BullMQ wants it: `maxRetriesPerRequest: null`), connected and checked
 * with PING: unreachable → TeamServiceUnavailable. It reconnects by itself after a restart.
 */
export async function openRedis(url: string, options: RedisOptions): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    enableOfflineQueue: options.waitWhileDown,
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    retryStrategy: (times) => Math.min(100 * times, 2_000),
  });
  // Connection errors while it reconnects are expected (a restart): the client retries by itself.
  redis.on('error', () => undefined);
  try {
    await withTimeout(redis.connect(), options.connectTimeoutMs ?? 5_000, 'no answer');
    await withTimeout(redis.ping(), options.connectTimeoutMs ?? 5_000, 'no answer to PING');
  } catch (error) {
    redis.disconnect();
    throw new TeamServiceUnavailable('Redis', displayUrl(url), errorMessage(error));
  }
  return redis;
}

/** Rejects with `message` after `ms` unless `promise` settles first. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
