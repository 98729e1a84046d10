import { defineTool, ToolError } from './tool';

export const HTTP_DEFAULT_TIMEOUT_MS = 30_000;
/** The response body is cut to this many characters, with a note. */
export const HTTP_MAX_BODY_CHARS = 20_000;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/**
 * `config`: `allowedHosts?: string[]` (exact host names, `host:port`, or `*.example.com`) and
 * `timeoutMs?: number` (default 30 s).
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
    checkAllowedHost(url, ctx.config.allowedHosts);
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
      const response = await fetchFollowingAllowedRedirects(url, { method, headers, body, signal }, ctx.config.allowedHosts);
      const text = method === 'HEAD' ? '' : await readLimited(response);
      return `HTTP ${response.status} ${response.statusText}\n\n${text}`;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      if (timeout.aborted) throw new ToolError(`request to ${url.href} timed out after ${timeoutMs / 1000} s`);
      throw new ToolError(`request to ${url.href} failed: ${describeFetchError(error)}`);
    }
  },
});

const MAX_REDIRECTS = 5;

/**
 * Follows redirects by hand so that every hop is checked against `allowedHosts`: a redirect must not
 * carry a request to a host the configuration does not allow. 303 (and 301/302 after a POST) become GET.
 */
async function fetchFollowingAllowedRedirects(
  start: URL,
  init: { method: string; headers: Headers; body?: string; signal: AbortSignal },
  allowedHosts: unknown,
): Promise<Response> {
  let url = start;
  let { method, body } = init;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { method, headers: init.headers, body, signal: init.signal, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || !location) return response;
    if (hop >= MAX_REDIRECTS) throw new ToolError(`request to ${start.href} was redirected more than ${MAX_REDIRECTS} times`);
    await response.body?.cancel().catch(() => undefined);
    const next = parseUrl(new URL(location, url).href);
    checkAllowedHost(next, allowedHosts);
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    url = next;
  }
}

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

function checkAllowedHost(url: URL, allowedHosts: unknown): void {
  if (!Array.isArray(allowedHosts)) return;
  const hostname = url.hostname.toLowerCase();
  const host = url.host.toLowerCase();
  const allowed = allowedHosts.some((entry) => {
    if (typeof entry !== 'string') return false;
    const pattern = entry.toLowerCase();
    if (pattern.startsWith('*.')) return hostname.endsWith(pattern.slice(1));
    return pattern === hostname || pattern === host;
  });
  if (!allowed) {
    const list = allowedHosts.filter((h) => typeof h === 'string').join(', ') || '(none)';
    throw new ToolError(`host "${url.host}" is not allowed for http_request; allowed hosts: ${list}`);
  }
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
  const reader = response.body.getReader();
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
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  if (cause?.message) return cause.code && !cause.message.includes(cause.code) ? `${cause.code} ${cause.message}` : cause.message;
  return (error as Error).message ?? String(error);
}
