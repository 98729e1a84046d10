import { classifyHostName } from '../tools/addressPolicy';
import { guardedFetch, RequestRefused } from '../tools/guardedFetch';
import { htmlToText } from './htmlText';

export const URL_TIMEOUT_MS = 15_000;
export const URL_MAX_BYTES = 5 * 1024 * 1024;

export interface FetchedUrl {
  /** The media type without parameters (`text/html`), or '' when the server sent none. */
  contentType: string;
  bytes: Uint8Array;
  /** With `cut`: the body was longer than `maxBytes` and only its start was read. */
  cut?: boolean;
}

export interface UrlLimits {
  timeoutMs?: number;
  maxBytes?: number;
  signal?: AbortSignal;
  /**
   * The person named this URL (a command-line argument) or trusted the workspace that does: its host is
   * fetched whatever its address. Otherwise only a host that names a local address itself (`localhost`,
   * `127.0.0.1:8080`, held for trust before the run opens) is; any other must resolve to public addresses.
   */
  trustNamedHost?: boolean;
  /**
   * The URL comes from a model (scrape_website, website_search without a pinned URL): it gets the address
   * policy of model-chosen URLs (public addresses only, as http_request without allowedHosts), never the
   * trust a document-named host gets.
   */
  modelChosen?: boolean;
  /** A body over `maxBytes` is cut there (the start is kept) instead of refused. */
  cut?: boolean;
}

/** Why a URL could not be fetched; the message says what went wrong (status, size, timeout). */
export class UrlFetchFailed extends Error {
  override name = 'UrlFetchFailed';
}

/**
 * GETs a URL with a timeout, refusing bodies over `maxBytes` (checked while reading, not only by Content-Length).
 * The host the document names is fetched whatever its address when it names a local host itself (a
 * docs server on localhost is a fair source, once the workspace is trusted: runtime/trust/) or
 * `trustNamedHost`; otherwise it must resolve to public addresses. A redirect to any other host must
 * lead to a public address, checked as for http_request.
 */
export async function fetchUrl(url: string, limits: UrlLimits = {}): Promise<FetchedUrl> {
  const timeoutMs = limits.timeoutMs ?? URL_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? URL_MAX_BYTES;
  if (!/^https?:$/.test(new URL(url).protocol)) throw new UrlFetchFailed('only http and https URLs can be fetched');
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = limits.signal ? AbortSignal.any([limits.signal, timeout]) : timeout;
  try {
    const start = new URL(url);
    const headers = new Headers({ accept: 'text/html, text/plain, text/markdown, text/csv, application/json, application/pdf;q=0.9, */*;q=0.5' });
    const named = !limits.modelChosen && (limits.trustNamedHost || classifyHostName(start.hostname) !== undefined);
    const response = await guardedFetch(start, { signal, headers, trustedHosts: named ? [start.host] : [] });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new UrlFetchFailed(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > maxBytes && !limits.cut) {
      await response.body?.cancel().catch(() => undefined);
      throw new UrlFetchFailed(`the response is ${declared} bytes, over the limit of ${maxBytes}`);
    }
    const parts: Uint8Array[] = [];
    let total = 0;
    let cut = false;
    if (response.body) {
      const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (total + value.byteLength > maxBytes) {
          await reader.cancel().catch(() => undefined);
          if (!limits.cut) throw new UrlFetchFailed(`the response is over the limit of ${maxBytes} bytes`);
          parts.push(value.subarray(0, maxBytes - total));
          total = maxBytes;
          cut = true;
          break;
        }
        total += value.byteLength;
        parts.push(value);
      }
    }
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.byteLength;
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return { contentType, bytes, ...(cut ? { cut } : {}) };
  } catch (error) {
    if (error instanceof UrlFetchFailed) throw error;
    if (error instanceof RequestRefused) throw new UrlFetchFailed(error.message);
    if (timeout.aborted) throw new UrlFetchFailed(`no complete response within ${timeoutMs} ms`);
    if (limits.signal?.aborted) throw error;
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as NodeJS.ErrnoException).code;
    throw new UrlFetchFailed(`could not be fetched: ${cause ?? (error as Error).message}`);
  }
}

/** What a fetched page says as text: HTML is stripped to text, other text types are kept as they are. */
export function fetchedText(page: FetchedUrl): string {
  const text = new TextDecoder('utf-8').decode(page.bytes);
  const looksHtml = page.contentType === 'text/html' || page.contentType === 'application/xhtml+xml' || (page.contentType === '' && /^\s*<(!doctype html|html)\b/i.test(text));
  return looksHtml ? htmlToText(text) : text;
}
