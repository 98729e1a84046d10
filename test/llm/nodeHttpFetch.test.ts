import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from '../../runtime/llm/nodeHttpFetch';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string> {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

async function errorOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('nodeHttpFetch', () => {
  it('sends the method, headers and body, and returns status, headers and a streamed body', async () => {
    const base = await serve((req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-seen': `${req.method} ${req.headers['authorization']} ${req.headers['content-length']}` });
      res.write('{"echo":');
      setTimeout(() => res.end(`${JSON.stringify(body)}}`), 5);
    });
    const response = await nodeHttpFetch(`${base}/v1/x`, { method: 'post', headers: new Headers({ authorization: 'Bearer k' }), body: 'héllo' });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-seen')).toBe('POST Bearer k 6');
    expect(await response.json()).toEqual({ echo: 'héllo' });
  });

  it('decodes a gzip reply', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync('data: {"a":1}\n\n'));
    });
    expect(await (await nodeHttpFetch(base, { method: 'POST', body: '{}' })).text()).toBe('data: {"a":1}\n\n');
  });

  it('errors the body with TypeError("terminated") when the connection drops before the reply ends', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"partial":true}\n\n');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const response = await nodeHttpFetch(base, { method: 'POST', body: '{}' });
    const error = await errorOf(response.text());
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('terminated');
  });

  it('rejects a refused connection with TypeError("fetch failed") carrying the socket error', async () => {
    const base = await serve((_req, res) => res.end());
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const error = await errorOf(nodeHttpFetch(base, { method: 'POST', body: '{}' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('aborts with an AbortError before the reply, and while its body streams', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.writeHead(200);
      res.write('first part');
    });
    const before = new AbortController();
    const pending = nodeHttpFetch(`${base}/slow`, { method: 'POST', body: '{}', signal: before.signal });
    setTimeout(() => before.abort(), 20);
    expect((await errorOf(pending)).name).toBe('AbortError');

    const during = new AbortController();
    const response = await nodeHttpFetch(base, { method: 'POST', body: '{}', signal: during.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first part');
    during.abort();
    expect((await errorOf(reader.read())).name).toBe('AbortError');
    expect((await errorOf(nodeHttpFetch(base, { method: 'POST', body: '{}', signal: during.signal }))).name).toBe('AbortError');
  });

  it('retries once on a new connection when a kept-alive one turns out closed, and not twice', async () => {
    const served = new WeakMap<object, number>();
    let resets = 0;
    const base = await serve((req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      // A connection's second request finds it closed (a server's idle timeout racing the reuse).
      if (n > 1 || req.url === '/always') {
        resets++;
        req.socket.destroy();
        return;
      }
      res.end(`reply ${resets}`);
    });
    expect(await (await nodeHttpFetch(base, { method: 'POST', body: '1' })).text()).toBe('reply 0');
    expect(await (await nodeHttpFetch(base, { method: 'POST', body: '2' })).text()).toBe('reply 1');
    expect(resets).toBe(1);
    // A fresh connection reset is an error, reported once.
    const error = await errorOf(nodeHttpFetch(`${base}/always`, { method: 'POST', body: '3' }));
    expect(error).toBeInstanceOf(TypeError);
    // Its reused connection reset, then the one retry on a new connection: not retried again.
    expect(resets).toBe(3);
  });

  it('hands what it does not handle (a Request object) to the global fetch', async () => {
    const base = await serve((req, res) => res.end(`got ${req.method}`));
    expect(await (await nodeHttpFetch(new Request(base, { method: 'PUT', body: 'x' }))).text()).toBe('got PUT');
  });
});
