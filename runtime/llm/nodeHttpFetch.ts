import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * The `fetch` the openai SDK is given: a request on node:http(s) with keep-alive agents, answered as a
 * WHATWG `Response` whose body streams the reply. Node's own fetch (undici) costs ~1.3 ms of CPU per
 * streamed chat call here beyond node:http (request cloning and teeing, spec header lists, web streams
 * on both sides; bench/peers: bare SDK 1.72 ms vs raw node:http 0.41 ms CPU per call), more than the
 * rest of a Crewdeck task. What the SDK relies on behaves as with Node's fetch: an abort rejects (or
 * ends the body) with an `AbortError`; a refused or dropped connection is `TypeError('fetch failed' /
 * 'terminated')` with the socket error as its cause; gzip, deflate and br replies are decoded.
 * Anything else (a `Request` object, a streamed or form body, another scheme) goes to the global fetch.
 */
export const nodeHttpFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const body = init.body;
  const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  if (href === undefined || !plainBody || !/^https?:/i.test(href)) return fetch(input, init);
  return request(new URL(href), init, body as string | Uint8Array | null | undefined);
};

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

function abortError(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name === 'AbortError' ? reason : new DOMException('This operation was aborted', 'AbortError');
}

/** A kept-alive connection the server had already closed: the request never reached it. */
function staleConnection(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

function request(url: URL, init: RequestInit, body: string | Uint8Array | null | undefined, retryStale = true): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => {
    headers[key] = value;
  });
  if (body !== undefined && body !== null) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  const secure = url.protocol === 'https:';
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let reply: Readable | undefined;
    const onAbort = () => {
      const error = abortError(signal!);
      req.destroy(error as Error);
      reply?.destroy(error as Error);
      if (!settled) {
        settled = true;
        reject(error);
      }
    };
    const done = () => signal?.removeEventListener('abort', onAbort);
    const req = (secure ? https : http).request(url, { method: (init.method ?? 'GET').toUpperCase(), headers, agent: secure ? agents.https : agents.http }, (res) => {
      settled = true;
      const responseHeaders = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      const status = res.statusCode ?? 0;
      const noBody = status === 204 || status === 205 || status === 304 || init.method?.toUpperCase() === 'HEAD';
      reply = decoded(res, String(res.headers['content-encoding'] ?? ''));
      res.once('close', done);
      let response: Response;
      try {
        response = new Response(noBody ? null : bodyStream(reply, signal), { status, statusText: res.statusMessage ?? '', headers: responseHeaders });
      } catch (error) {
        // A status a Response cannot carry (1xx, > 599).
        res.destroy();
        reject(new TypeError('fetch failed', { cause: error }));
        return;
      }
      if (noBody) res.resume();
      resolve(response);
    });
    req.once('error', (error) => {
      done();
      if (settled) return;
      settled = true;
      // Node's documented pattern: a reused socket reset before any reply is retried once on a new one.
      if (retryStale && req.reusedSocket && !signal?.aborted && staleConnection(error)) {
        resolve(request(url, init, body, false));
        return;
      }
      reject(signal?.aborted ? abortError(signal) : new TypeError('fetch failed', { cause: error }));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    req.end(body ?? undefined);
  });
}

function decoded(res: http.IncomingMessage, encoding: string): Readable {
  const codings = encoding.toLowerCase().split(',').map((c) => c.trim()).filter((c) => c !== '' && c !== 'identity');
  let stream: Readable = res;
  // Decoded in the reverse order of application.
  for (const coding of codings.reverse()) {
    const decoder = coding === 'gzip' || coding === 'x-gzip' ? zlib.createGunzip() : coding === 'deflate' ? zlib.createInflate() : coding === 'br' ? zlib.createBrotliDecompress() : undefined;
    if (!decoder) return res;
    const source = stream;
    source.once('error', (error) => decoder.destroy(error));
    stream = source.pipe(decoder);
  }
  return stream;
}

/** The reply as a web stream, with backpressure; a connection lost before the end errors it as fetch does. */
function bodyStream(reply: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let finished = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: unknown) => {
        if (finished) return;
        finished = true;
        controller.error(signal?.aborted ? abortError(signal) : new TypeError('terminated', { cause: error }));
      };
      reply.on('data', (chunk: Buffer) => {
        if (finished) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) reply.pause();
      });
      reply.once('end', () => {
        if (finished) return;
        finished = true;
        controller.close();
      });
      reply.once('error', fail);
      reply.once('close', () => fail(new Error('the connection closed before the reply ended')));
    },
    pull() {
      reply.resume();
    },
    cancel() {
      finished = true;
      reply.destroy();
    },
  });
}
