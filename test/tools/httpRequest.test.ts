import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_MAX_BODY_CHARS, httpRequestTool } from '../../runtime/tools/httpRequest';
import type { ToolContext } from '../../runtime/tools/tool';

interface Seen {
  method?: string;
  body: string;
  headers: http.IncomingHttpHeaders;
}
const seen: Seen[] = [];
let server: http.Server;
let base: string;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method, body, headers: req.headers });
      if (req.url === '/hello') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('hello world');
      } else if (req.url === '/echo') {
        res.writeHead(201, 'Created', { 'content-type': 'application/json' }).end(JSON.stringify({ got: body }));
      } else if (req.url === '/big') {
        res.writeHead(200).end('x'.repeat(HTTP_MAX_BODY_CHARS * 3));
      } else if (req.url === '/to-hello') {
        res.writeHead(302, { location: '/hello' }).end();
      } else if (req.url?.startsWith('/to-other-host')) {
        res.writeHead(302, { location: `http://localhost:${port}/hello` }).end();
      } else if (req.url === '/post-then-see-other') {
        res.writeHead(303, { location: '/echo' }).end();
      } else if (req.url === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' }).end(gzipSync('compressed hello'));
      } else if (req.url === '/slow') {
        setTimeout(() => res.writeHead(200).end('late'), 2_000);
      } else {
        res.writeHead(404, 'Not Found').end('no such page');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The test server is on loopback, which http_request reaches only when it is listed (test/security/networkPolicy.test.ts). */
function ctx(config: Record<string, unknown> = { allowedHosts: ['127.0.0.1'] }, signal = new AbortController().signal): ToolContext {
  return { workspace: '/nonexistent', signal, agentRole: 'Researcher', config };
}

describe('http_request', () => {
  it('GETs by default and returns the status line and body', async () => {
    expect(await httpRequestTool.execute({ url: `${base}/hello` }, ctx())).toBe('HTTP 200 OK\n\nhello world');
    expect(seen.at(-1)?.method).toBe('GET');
  });

  it('POSTs a body with headers; JSON bodies get a JSON content type', async () => {
    const out = await httpRequestTool.execute(
      { url: `${base}/echo`, method: 'POST', body: '{"q":1}', headers: { 'X-Trace': 'abc' } },
      ctx(),
    );
    expect(out).toBe('HTTP 201 Created\n\n{"got":"{\\"q\\":1}"}');
    expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{"q":1}' });
    expect(seen.at(-1)?.headers['content-type']).toBe('application/json');
    expect(seen.at(-1)?.headers['x-trace']).toBe('abc');
  });

  it('decodes a gzip-encoded body', async () => {
    expect(await httpRequestTool.execute({ url: `${base}/gzip` }, ctx())).toBe('HTTP 200 OK\n\ncompressed hello');
    expect(seen.at(-1)?.headers['accept-encoding']).toContain('gzip');
  });

  it('returns error statuses as observations, not failures', async () => {
    expect(await httpRequestTool.execute({ url: `${base}/missing` }, ctx())).toBe('HTTP 404 Not Found\n\nno such page');
  });

  it(`truncates bodies to ${HTTP_MAX_BODY_CHARS} characters with a note`, async () => {
    const out = await httpRequestTool.execute({ url: `${base}/big` }, ctx());
    const [status, body] = out.split('\n\n');
    expect(status).toBe('HTTP 200 OK');
    expect(body).toBe('x'.repeat(HTTP_MAX_BODY_CHARS));
    expect(out.endsWith(`[truncated: response body longer than ${HTTP_MAX_BODY_CHARS} characters]`)).toBe(true);
  });

  it('refuses hosts outside allowedHosts before sending anything', async () => {
    const count = seen.length;
    await expect(
      httpRequestTool.execute({ url: `${base}/hello` }, ctx({ allowedHosts: ['api.example.com'] })),
    ).rejects.toThrow(`host "127.0.0.1:${port}" is not allowed for http_request; allowed hosts: api.example.com`);
    expect(seen.length).toBe(count);
    expect(await httpRequestTool.execute({ url: `${base}/hello` }, ctx({ allowedHosts: ['127.0.0.1'] }))).toContain('hello world');
  });

  it('follows redirects, but only to allowed hosts', async () => {
    expect(await httpRequestTool.execute({ url: `${base}/to-hello` }, ctx({ allowedHosts: ['127.0.0.1'] }))).toContain('hello world');
    await expect(httpRequestTool.execute({ url: `${base}/to-other-host` }, ctx({ allowedHosts: ['127.0.0.1'] }))).rejects.toThrow(
      'host "localhost:' + port + '" is not allowed',
    );
    // Every hop is checked against the list: with both names listed the redirect is followed.
    expect(await httpRequestTool.execute({ url: `${base}/to-other-host` }, ctx({ allowedHosts: ['127.0.0.1', 'localhost'] }))).toContain('hello world');
    // 303 after a POST becomes a GET without the body.
    seen.length = 0;
    const out = await httpRequestTool.execute({ url: `${base}/post-then-see-other`, method: 'POST', body: 'data' }, ctx());
    expect(out).toMatch(/^HTTP 201/);
    expect(seen.map((r) => [r.method, r.body])).toEqual([
      ['POST', 'data'],
      ['GET', ''],
    ]);
  });

  it('refuses non-http schemes and malformed URLs', async () => {
    await expect(httpRequestTool.execute({ url: 'file:///etc/passwd' }, ctx())).rejects.toThrow(
      'only http and https URLs are allowed, not file:',
    );
    await expect(httpRequestTool.execute({ url: 'example.com/x' }, ctx())).rejects.toThrow(/not a valid absolute URL/);
  });

  it('times out after config.timeoutMs', async () => {
    await expect(httpRequestTool.execute({ url: `${base}/slow` }, ctx({ timeoutMs: 100, allowedHosts: ['127.0.0.1'] }))).rejects.toThrow(
      `request to ${base}/slow timed out after 0.1 s`,
    );
  });

  it('rejects with the abort when the run is cancelled', async () => {
    const controller = new AbortController();
    const pending = httpRequestTool.execute({ url: `${base}/slow` }, ctx(undefined, controller.signal));
    setTimeout(() => controller.abort(new Error('run cancelled')), 50);
    await expect(pending).rejects.toThrow('run cancelled');
  });

  it('reports connection failures', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(httpRequestTool.execute({ url: `http://127.0.0.1:${closedPort}/` }, ctx())).rejects.toThrow(
      /failed: .*ECONNREFUSED/,
    );
  });

  it('is not cacheable', () => {
    expect(httpRequestTool.cacheable).toBe(false);
  });
});
