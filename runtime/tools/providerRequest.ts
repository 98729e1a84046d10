import { abortableSleep } from '../llm/abortableSleep';
import { backoffMs, retryAfterMs } from '../llm/retryPolicy';
import { redactSecrets } from '../redactSecrets';
import { guardedFetch, RequestRefused } from './guardedFetch';
import type { SearchRequest } from './searchProviders';
import { ToolError } from './tool';

/** Tries of a call the provider rate-limits (HTTP 429), each after the wait its Retry-After asks for. */
export const PROVIDER_ATTEMPTS = 3;
/** A provider asking for a longer wait than this fails the call instead (a tool call should not hang for minutes). */
export const PROVIDER_MAX_WAIT_MS = 30_000;
export const PROVIDER_TIMEOUT_MS = 30_000;
/** A provider's JSON answer larger than this is refused. */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

export interface ProviderCall {
  /** The provider as a person knows it ("Serper (Google results)"). */
  label: string;
  /** Where its key comes from (for messages). */
  keyVariable: string;
  key: string;
  request: SearchRequest;
  signal: AbortSignal;
  /** A base URL the workspace's owner set (held by trust before the run opened): reached whatever its address. */
  trustedHost?: string;
  timeoutMs?: number;
}

/**
 * Sends a provider request through the guarded fetch and returns its JSON answer. A refused key (401,
 * 403) and a rate limit (429, retried as its Retry-After asks, up to PROVIDER_ATTEMPTS tries) are
 * ToolErrors that say so; so is any other failure. The key never appears in a message.
 */
export async function callProvider(call: ProviderCall): Promise<unknown> {
  const timeoutMs = call.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([call.signal, timeout]);
  const clean = (text: string) => redactSecrets(text, [call.key]);
  for (let attempt = 1; ; attempt += 1) {
    let response: Response;
    try {
      const { url, method, headers, body } = call.request;
      response = await guardedFetch(url, { method, headers: new Headers(headers), body, signal, trustedHosts: call.trustedHost ? [call.trustedHost] : [] });
    } catch (error) {
      if (call.signal.aborted) throw error;
      if (error instanceof RequestRefused) throw new ToolError(clean(error.message));
      if (timeout.aborted) throw new ToolError(`${call.label} did not answer within ${timeoutMs / 1000} s`);
      throw new ToolError(`${call.label} could not be reached: ${clean(causeOf(error))}`);
    }
    if (response.status === 429) {
      const wait = retryAfterMs(response.headers) ?? backoffMs(attempt);
      await response.body?.cancel().catch(() => undefined);
      if (wait > PROVIDER_MAX_WAIT_MS) {
        throw new ToolError(`${call.label} is rate-limiting this key (HTTP 429) and asks to wait ${Math.ceil(wait / 1000)} s, longer than a tool call waits; try again later`);
      }
      if (attempt >= PROVIDER_ATTEMPTS) throw new ToolError(`${call.label} is rate-limiting this key (HTTP 429): still limited after ${attempt} tries, waiting as its Retry-After asked; try again later`);
      await abortableSleep(wait, signal).catch((error: unknown) => {
        if (call.signal.aborted) throw error;
        throw new ToolError(`${call.label} did not answer within ${timeoutMs / 1000} s (it rate-limited the call)`);
      });
      continue;
    }
    const text = await readBody(response, signal);
    if (response.status === 401 || response.status === 403) {
      throw new ToolError(`${call.label} refused the key in ${call.keyVariable} (HTTP ${response.status}${detail(text, clean)}); check that the key is right and active`);
    }
    if (!response.ok) throw new ToolError(`${call.label} answered HTTP ${response.status}${detail(text, clean)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ToolError(`${call.label} did not answer JSON (it sent ${JSON.stringify(clean(text.slice(0, 80)))}…); is the base URL right?`);
    }
  }
}

async function readBody(response: Response, signal: AbortSignal): Promise<string> {
  if (!response.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    signal.throwIfAborted();
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new ToolError(`the provider's answer is over ${MAX_ANSWER_BYTES} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** The provider's own error message, when its body has one (`{"message": …}`, `{"error": …}`, `{"detail": …}`), else the start of the body. */
function detail(text: string, clean: (t: string) => string): string {
  let message: unknown = text.trim();
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const error = body.error;
    message = body.message ?? body.detail ?? (error !== null && typeof error === 'object' ? (error as Record<string, unknown>).message ?? (error as Record<string, unknown>).detail : error) ?? message;
  } catch {
    // not JSON: the text itself
  }
  const shown = typeof message === 'string' ? message : JSON.stringify(message);
  return shown ? `: ${clean(shown.length > 200 ? `${shown.slice(0, 200)}…` : shown)}` : '';
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  return cause?.message ?? (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}
