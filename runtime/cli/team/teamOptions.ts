import { UsageError } from '../usage';

/** `--database` / `--redis`, or CREWDECK_DATABASE_URL / CREWDECK_REDIS_URL. */
export const CONNECTION_OPTIONS = {
  database: { type: 'string' },
  redis: { type: 'string' },
} as const;

export function databaseUrl(values: { database?: string }): string {
  const url = values.database ?? process.env.CREWDECK_DATABASE_URL;
  if (!url) throw new UsageError('give the PostgreSQL database with --database postgres://user@host:5432/db (or CREWDECK_DATABASE_URL)');
  if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError(`--database must be a postgres:// URL, got "${url}"`);
  return url;
}

export function redisUrl(values: { redis?: string }): string {
  const url = values.redis ?? process.env.CREWDECK_REDIS_URL;
  if (!url) throw new UsageError('give Redis with --redis redis://host:6379 (or CREWDECK_REDIS_URL)');
  if (!/^rediss?:\/\//.test(url)) throw new UsageError(`--redis must be a redis:// URL, got "${url}"`);
  return url;
}

/** A whole number option in a range, or undefined when absent. */
export function intOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${value}`);
  return n;
}

/** Seconds (fractions allowed) as milliseconds. */
export function secondsOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${name} must be a number of seconds from ${min} to ${max}, got ${value}`);
  return Math.round(n * 1000);
}

/** Waits for SIGINT / SIGTERM, then runs `stop` and resolves (rejects with its error, for the command to report). */
export function untilStopped(stop: () => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.stderr.write('Stopping…\n');
      stop().then(resolve, reject);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
