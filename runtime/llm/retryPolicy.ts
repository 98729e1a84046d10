/** When and how long to wait before retrying a failed model call. */

/** Statuses worth retrying: rate limits, server errors, overload (529 is Anthropic-style "overloaded"). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 20_000;
/** A server asking for a longer pause than this is clamped: a run should not hang for hours. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The wait a server asked for: `retry-after-ms` (milliseconds), else `Retry-After` (seconds or an HTTP
 * date). Undefined when neither is present or parseable.
 */
export function retryAfterMs(headers: HeaderSource | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.min(value, MAX_RETRY_AFTER_MS);
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

/** Exponential backoff with jitter for the retry after failed attempt `attempt` (1-based). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  // "Equal jitter": at least half the ceiling, so retries never hammer the server back-to-back.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export function retryDelayMs(attempt: number, headers: HeaderSource | undefined, random?: () => number): number {
  return retryAfterMs(headers) ?? backoffMs(attempt, random);
}
