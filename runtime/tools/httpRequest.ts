import { guardedFetch, RequestRefused } from './guardedFetch';
import { plainNamesTrusted } from '../trust/workspaceTrust';
import { defineTool, ToolError } from './tool';

export const HTTP_DEFAULT_TIMEOUT_MS = 30_000;
/** The response body is cut to this many characters, with a note. */
export const HTTP_MAX_BODY_CHARS = 20_000;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/**
 * `config`: `allowedHosts?: string[]` (exact host names, `host:port`, or `*.example.com`) and
 * `timeoutMs?: number` (default 30 s). Without `allowedHosts`, loopback, private, link-local and
 * metadata addresses are refused, checked on the resolved address of every redirect hop
 * (`guardedFetch.ts`); with it, exactly the listed hosts are reachable. Entries naming such a host
 * (`127.0.0.1:6379`, `localhost`) wait for workspace trust before the run opens (runtime/trust/);
 * until the workspace is trusted as it is now (`plainNamesTrusted`), a listed plain name is reached only at public addresses.
 */
export const httpRequestTool = defineTool({
  name: 'http_request',
  description:
    'Send an HTTP(S) request and return the status line and the response body (cut to ' +
    `${HTTP_MAX_BODY_CHARS} characters). Use it to call web APIs or fetch web pages.`,
  parameters: {
    type: 'object',
    properties: {
      url: { type: 'string', minLength: 1, description: 'Absolute http:// or https:// URL.' },
      method: { type: 'string', enum: [...METHODS], description: 'HTTP method (default GET).' },
      headers: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'Request headers, e.g. {"Authorization": "Bearer …"}.',
      },
      body: { type: 'string', description: 'Request body (not allowed for GET and HEAD). JSON text is sent as application/json.' },
    },
    required: ['url'],
    additionalProperties: false,
  },
  cacheable: false,
  async execute(args, ctx) {
    const url = parseUrl(args.url as string);
    const allowedHosts = Array.isArray(ctx.config.allowedHosts) ? (ctx.config.allowedHosts as unknown[]) : undefined;
    const method = ((args.method as string | undefined) ?? 'GET').toUpperCase();
    const body = args.body as string | undefined;
    if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
      throw new ToolError(`a ${method} request cannot have a body; use POST, PUT or PATCH to send data`);
    }
    const headers = new Headers((args.headers as Record<string, string> | undefined) ?? {});
    if (body !== undefined && !headers.has('content-type') && looksLikeJson(body)) headers.set('content-type', 'application/json');

    const timeoutMs = typeof ctx.config.timeoutMs === 'number' ? ctx.config.timeoutMs : HTTP_DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    try {
      const listedNamesChecked = allowedHosts !== undefined && !plainNamesTrusted(ctx.workspace);
      const response = await guardedFetch(url, { method, headers, body, signal, allowedHosts, listedNamesChecked });
      const text = method === 'HEAD' ? '' : await readLimited(response);
      return `HTTP ${response.status} ${response.statusText}\n\n${text}`;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      if (error instanceof RequestRefused) throw new ToolError(error.message);
      if (timeout.aborted) throw new ToolError(`request to ${url.href} timed out after ${timeoutMs / 1000} s`);
      throw new ToolError(`request to ${url.href} failed: ${describeFetchError(error)}`);
    }
  },
});

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError(`"${raw}" is not a valid absolute URL; include the scheme, e.g. https://example.com/`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(`only http and https URLs are allowed, not ${url.protocol}`);
  }
  return url;
}

function looksLikeJson(body: string): boolean {
  const trimmed = body.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/** Reads only as much of the body as is shown, then cancels the rest. */
async function readLimited(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      text += decoder.decode();
      break;
    }
    text += decoder.decode(value, { stream: true });
    if (text.length > HTTP_MAX_BODY_CHARS) {
      await reader.cancel().catch(() => undefined);
      return `${text.slice(0, HTTP_MAX_BODY_CHARS)}\n\n[truncated: response body longer than ${HTTP_MAX_BODY_CHARS} characters]`;
    }
  }
  return text;
}

function describeFetchError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error as Error).message;
  if (code && message && !message.includes(code)) return `${code} ${message}`;
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  if (cause?.message) return cause.code && !cause.message.includes(cause.code) ? `${cause.code} ${cause.message}` : cause.message;
  return (error as Error).message ?? String(error);
}
