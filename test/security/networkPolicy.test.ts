import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchUrl } from '../../runtime/knowledge/fetchUrlText';
import { guardedFetch, type ResolveAll } from '../../runtime/tools/guardedFetch';
import { httpRequestTool } from '../../runtime/tools/httpRequest';
import type { ToolContext } from '../../runtime/tools/tool';

/**
 * http_request's network policy, against loopback only: every server here listens on 127.0.0.1, and
 * every "public" name is answered by an injected resolver, so no test sends traffic anywhere else.
 */

const seen: string[] = [];
// Every socket this file opens is watched: one to anything but loopback fails the test (the refused
// addresses below, 169.254.169.254 and 10.1.2.3, must be refused by the policy before any connection).
const offLoopback: string[] = [];
const realConnect = net.Socket.prototype.connect;
beforeAll(() => {
  net.Socket.prototype.connect = function watchedConnect(this: net.Socket, ...args: unknown[]) {
    const first = args[0] as { host?: string; path?: string } | number | undefined;
    const host = typeof first === 'object' && first !== null ? first.host : (args[1] as string | undefined);
    if (!(typeof first === 'object' && first?.path) && host && !['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1'].includes(host)) {
      offLoopback.push(String(host));
      throw new Error(`test tried to connect to ${host}`);
    }
    return (realConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
});
afterAll(() => {
  net.Socket.prototype.connect = realConnect;
  expect(offLoopback, 'connections off loopback').toEqual([]);
});
let server: http.Server;
let port: number;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.headers.host} ${req.url}`);
    if (req.url === '/hello') res.writeHead(200, { 'content-type': 'text/plain' }).end('hello from loopback');
    else if (req.url === '/to-localhost') res.writeHead(302, { location: `http://localhost:${port}/hello` }).end();
    else if (req.url === '/to-ipv6-loopback') res.writeHead(307, { location: `http://[::1]:${port}/hello` }).end();
    else if (req.url === '/to-metadata') res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else if (req.url === '/to-decimal') res.writeHead(302, { location: `http://2130706433:${port}/hello` }).end();
    else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else res.writeHead(404).end('missing');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
});

function ctx(config: Record<string, unknown> = {}): ToolContext {
  return { workspace: '/nonexistent', signal: new AbortController().signal, agentRole: 'Researcher', config };
}

describe('http_request without allowedHosts', () => {
  it('refuses a loopback server, and the server sees no request', async () => {
    await expect(httpRequestTool.execute({ url: `${base}/hello` }, ctx())).rejects.toThrow(
      `request to ${base}/hello refused: 127.0.0.1 is a loopback address`,
    );
    for (const url of [`http://localhost:${port}/hello`, `http://[::1]:${port}/hello`, `http://2130706433:${port}/hello`, `http://0x7f.1:${port}/hello`, `http://[::ffff:127.0.0.1]:${port}/hello`]) {
      await expect(httpRequestTool.execute({ url }, ctx()), url).rejects.toThrow(/refused: .* is a loopback address/);
    }
    await expect(httpRequestTool.execute({ url: 'http://metadata.google.internal/computeMetadata/v1/' }, ctx())).rejects.toThrow(
      'metadata.google.internal is a metadata address',
    );
    await expect(httpRequestTool.execute({ url: 'http://169.254.169.254/latest/meta-data/' }, ctx())).rejects.toThrow(
      '169.254.169.254 is a metadata address',
    );
    await expect(httpRequestTool.execute({ url: 'http://10.1.2.3/' }, ctx())).rejects.toThrow('10.1.2.3 is a private address');
    expect(seen).toEqual([]);
  });

  it('checks the resolved address: a public-looking name that resolves to loopback is refused before connecting', async () => {
    const resolve: ResolveAll = async (name) => (name === 'rebind.example' ? [{ address: '127.0.0.1', family: 4 }] : []);
    await expect(guardedFetch(new URL(`http://rebind.example:${port}/hello`), { resolve })).rejects.toThrow(
      `refused: rebind.example (127.0.0.1) is a loopback address`,
    );
    // One refused address among several is enough to refuse the name.
    const mixed: ResolveAll = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '::ffff:10.0.0.7', family: 6 },
    ];
    await expect(guardedFetch(new URL('http://mixed.example/'), { resolve: mixed })).rejects.toThrow(
      'mixed.example (::ffff:10.0.0.7) is a private address',
    );
    expect(seen).toEqual([]);
  });

  it('connects to the address it checked, never resolving the name again', async () => {
    // A name the system cannot resolve (.invalid), answered once by the injected resolver with loopback;
    // the injected policy calls that address public, so the request goes through — to that address.
    let calls = 0;
    const resolve: ResolveAll = async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : []);
    const response = await guardedFetch(new URL(`http://service.invalid:${port}/hello`), { resolve, classify: () => undefined });
    expect(await response.text()).toBe('hello from loopback');
    expect(calls).toBe(1);
    expect(seen).toEqual([`service.invalid:${port} /hello`]);
  });
});

describe('http_request with allowedHosts', () => {
  it('reaches exactly the listed host:port', async () => {
    expect(await httpRequestTool.execute({ url: `${base}/hello` }, ctx({ allowedHosts: [`127.0.0.1:${port}`] }))).toBe(
      'HTTP 200 OK\n\nhello from loopback',
    );
    expect(seen).toEqual([`127.0.0.1:${port} /hello`]);
    await expect(httpRequestTool.execute({ url: `${base}/hello` }, ctx({ allowedHosts: ['127.0.0.1:1'] }))).rejects.toThrow(
      `host "127.0.0.1:${port}" is not allowed for http_request; allowed hosts: 127.0.0.1:1`,
    );
    expect(seen).toHaveLength(1);
  });

  it('refuses a redirect from an allowed host to a refused address, on every hop', async () => {
    const allowed = ctx({ allowedHosts: [`127.0.0.1:${port}`] });
    for (const [path, target] of [
      ['/to-localhost', `localhost:${port}`],
      ['/to-ipv6-loopback', `[::1]:${port}`],
      ['/to-metadata', '169.254.169.254'],
    ]) {
      await expect(httpRequestTool.execute({ url: `${base}${path}` }, allowed), path).rejects.toThrow(`host "${target}" is not allowed`);
    }
    // The decimal form is the same host once parsed, so it is followed.
    expect(await httpRequestTool.execute({ url: `${base}/to-decimal` }, allowed)).toContain('hello from loopback');
    expect(seen).toEqual([
      `127.0.0.1:${port} /to-localhost`,
      `127.0.0.1:${port} /to-ipv6-loopback`,
      `127.0.0.1:${port} /to-metadata`,
      `127.0.0.1:${port} /to-decimal`,
      `127.0.0.1:${port} /hello`,
    ]);
  });

  it('without allowedHosts, a redirect from a trusted host to loopback is refused at the hop', async () => {
    await expect(guardedFetch(new URL(`${base}/to-localhost`), { trustedHosts: [`127.0.0.1:${port}`] })).rejects.toThrow(
      `request to http://localhost:${port}/hello refused: localhost is a loopback address`,
    );
    expect(seen).toEqual([`127.0.0.1:${port} /to-localhost`]);
  });

  it('stops after five redirects', async () => {
    await expect(httpRequestTool.execute({ url: `${base}/loop` }, ctx({ allowedHosts: ['127.0.0.1'] }))).rejects.toThrow(
      'was redirected more than 5 times',
    );
    expect(seen).toHaveLength(6);
  });
});

describe('knowledge URLs', () => {
  it('fetch the host the document names, but refuse a redirect from it to another local address', async () => {
    expect(new TextDecoder().decode((await fetchUrl(`${base}/hello`)).bytes)).toBe('hello from loopback');
    await expect(fetchUrl(`${base}/to-localhost`)).rejects.toThrow(`refused: localhost is a loopback address`);
    await expect(fetchUrl(`${base}/to-metadata`)).rejects.toThrow('169.254.169.254 is a metadata address');
    expect(seen).toEqual([`127.0.0.1:${port} /hello`, `127.0.0.1:${port} /to-localhost`, `127.0.0.1:${port} /to-metadata`]);
  });
});
