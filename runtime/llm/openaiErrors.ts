import { APIConnectionError, APIError } from 'openai';
import { ContextWindowExceeded, ModelCallFailed, ToolsUnsupported } from './errors';
import { RETRYABLE_STATUSES } from './retryPolicy';

/** A failed attempt, reduced to what the retry loop needs. */
export interface AttemptFailure {
  retryable: boolean;
  message: string;
  status?: number;
  code?: string;
  headers?: { get(name: string): string | null };
}

/**
 * A reply body, or one line of a reply stream, that is not JSON: a proxy's error page, a line cut in
 * two. Transient: retried like a 5xx.
 */
export class ReplyNotJson extends Error {
  constructor(readonly firstBytes: string) {
    super(notJsonMessage(firstBytes));
    this.name = 'ReplyNotJson';
  }
}

const FIRST_BYTES = 200;
/** Credentials a proxy page may echo back (the key in use is cut out by the provider as well). */
const CREDENTIALS = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+|\bsk-[A-Za-z0-9_-]{8,}|\b(api[_-]?key|token|password|secret)(["']?\s*[:=]\s*["']?)[^\s"'&,;}]+/gi;

/** "the model server sent a reply that is not valid JSON (first bytes: …)", at most 200 characters of it, redacted. */
export function notJsonMessage(raw: string): string {
  // Only the start of the body is looked at: it may be megabytes (a whole proxy page, a runaway stream).
  const oneLine = raw.trimStart().slice(0, FIRST_BYTES * 4).replace(/\s+/g, ' ').trim();
  const cut = oneLine.length > FIRST_BYTES ? `${oneLine.slice(0, FIRST_BYTES)}…` : oneLine;
  const redacted = cut.replace(CREDENTIALS, (_match: string, scheme?: string, key?: string, sep?: string) =>
    scheme ? `${scheme} ***` : key ? `${key}${sep}***` : '***',
  );
  return `the model server sent a reply that is not valid JSON (first bytes: ${redacted || '(empty)'})`;
}

const CONTEXT_LENGTH = /context[_ ]length|maximum context|context window|too many tokens/i;
const MENTIONS_TOOLS = /\btools?\b|tool[_ ]c(?:all|hoice)|function[_ ]?call/i;
const SAYS_UNSUPPORTED = /not support|unsupported|n't support|enable-auto-tool-choice/i;

export function describeAttemptFailure(error: unknown): AttemptFailure {
  if (error instanceof ReplyNotJson) return { retryable: true, message: error.message };
  if (error instanceof SyntaxError) {
    // The SDK parsed a body or stream line we could not see: still a broken reply, still transient.
    return { retryable: true, message: `the model server sent a reply that is not valid JSON (${error.message})` };
  }
  if (error instanceof APIConnectionError) {
    // Includes APIConnectionTimeoutError.
    return { retryable: true, message: error.message || 'connection error' };
  }
  if (isApiError(error)) {
    const status = typeof error.status === 'number' ? error.status : undefined;
    const code = typeof error.code === 'string' ? error.code : undefined;
    return {
      retryable: status !== undefined && RETRYABLE_STATUSES.has(status),
      message: errorMessage(error),
      status,
      code,
      headers: error.headers,
    };
  }
  if (error instanceof TypeError && /fetch failed|terminated|socket|ECONN/i.test(`${error.message} ${String(error.cause ?? '')}`)) {
    // undici reports dropped connections mid-stream as TypeError('terminated').
    return { retryable: true, message: `connection error: ${error.message}` };
  }
  return { retryable: false, message: error instanceof Error ? error.message : String(error) };
}

/** `instanceof APIError` alone narrows to APIError<any, any, any>; this keeps the class's own type parameters. */
function isApiError(error: unknown): error is APIError {
  return error instanceof APIError;
}

/** The typed error for a failure that will not be retried (any more). */
export function finalError(failure: AttemptFailure, attempts: number): ModelCallFailed {
  const { status, code, message } = failure;
  if (status === 400 && (code === 'context_length_exceeded' || CONTEXT_LENGTH.test(message))) {
    return new ContextWindowExceeded(message, status, code);
  }
  if ((status === 400 || status === 404 || status === 422) && MENTIONS_TOOLS.test(message) && SAYS_UNSUPPORTED.test(message)) {
    return new ToolsUnsupported(message, status, code);
  }
  const suffix = failure.retryable && attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
  return new ModelCallFailed(message + suffix, status, code);
}

/** The server's message, prefixed with the status as the SDK does. */
function errorMessage(error: APIError): string {
  // Some servers (Ollama) send `{"error": "text"}`; the SDK would show that text JSON-quoted.
  const body: unknown = error.error;
  if (typeof body === 'string' && body) return error.status ? `${error.status} ${body}` : body;
  return error.message || `HTTP ${error.status ?? 'error'}`;
}
