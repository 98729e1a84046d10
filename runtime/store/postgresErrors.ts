import { errorMessage } from '../errors';

/** Another worker took the run over (this one's lease ran out): nothing more is written for it here. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
  constructor(readonly runId: string) {
    super(`the lease on run ${runId} was lost (another worker continues it)`);
  }
}

/** Errors that a restart of PostgreSQL causes (worth trying again), as opposed to a bug's. */
export function isTransientPostgresError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08')) return true; // connection exceptions
    if (['57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  }
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|ECONNREFUSED|ECONNRESET|the database system is (starting|shutting) up|terminating connection|Query read timeout/i.test(
    errorMessage(error),
  );
}

/**
 * PostgreSQL rolled the transaction back because it collided with another one (a deadlock, 40P01, or a
 * serialization failure, 40001): nothing of it was kept, so sending the same transaction again is safe —
 * PostgreSQL's own advice for these two.
 */
export function isTransactionCollision(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '40P01' || code === '40001';
}
