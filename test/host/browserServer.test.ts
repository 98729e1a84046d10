import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBrowserServer, type BrowserServer } from '../../runtime/host/browserServer';
import { createHostService } from '../../runtime/host/createHostService';
import type { HostService } from '../../runtime/host/hostService';

let dir: string;
let host: HostService;
let server: BrowserServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crewdeck-serve-'));
  const renderer = join(dir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Crewdeck</title>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'top secret');
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  host = createHostService({ workspace, transport: 'websocket', env: {} });
  server = await startBrowserServer({ host, rendererDir: renderer, port: 0 });
});

afterAll(async () => {
  await server.close();
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(query: string, origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api${query}`, origin ? { origin } : {});
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

describe('browser mode: the token and Origin checks', () => {
  it('listens on 127.0.0.1 only and prints a URL with the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses HTTP requests without the right token', async () => {
    expect((await get('/')).status).toBe(403);
    expect((await get('/assets/app.js')).status).toBe(403);
    expect((await get('/?token=wrong')).status).toBe(403);
    expect((await get(`/?token=${server.token.slice(0, -1)}`)).status).toBe(403);
  });

  it('serves the app with the token and sets a cookie that carries it for the assets', async () => {
    const page = await get(`/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Crewdeck</title>');
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'");
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toBe(`crewdeck_token_${server.port}=${server.token}`);
    const asset = await get('/assets/app.js', { cookie });
    expect(asset).toMatchObject({ status: 200, body: 'console.log(1)' });
    expect((await get('/assets/app.js', { cookie: `crewdeck_token_${server.port}=nope` })).status).toBe(403);
    // Another port's cookie (another crewdeck serve) does not get in.
    expect((await get('/assets/app.js', { cookie: `crewdeck_token_${server.port + 1}=${server.token}` })).status).toBe(403);
  });

  it('refuses requests from another Origin or for another Host, even with the token', async () => {
    expect((await get(`/?token=${server.token}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(`/?token=${server.token}`, { host: `evil.example:${server.port}` })).status).toBe(403);
  });

  it('never serves files outside the renderer folder', async () => {
    const res = await get(`/..%2F..%2Fsecret.txt?token=${server.token}`);
    expect(res.body).not.toContain('top secret');
  });

  it('refuses WebSockets without the token or from a foreign Origin, and answers with both', async () => {
    await expect(connect('')).rejects.toThrow(/403/);
    await expect(connect('?token=wrong', `http://127.0.0.1:${server.port}`)).rejects.toThrow(/403/);
    await expect(connect(`?token=${server.token}`, 'http://evil.example')).rejects.toThrow(/403/);
    await expect(connect(`?token=${server.token}`, `http://localhost:${server.port + 1}`)).rejects.toThrow(/403/);

    const ws = await connect(`?token=${server.token}`, `http://127.0.0.1:${server.port}`);
    const reply = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    ws.send(JSON.stringify({ id: 7, channel: 'workspace.info', request: {} }));
    expect(await reply).toMatchObject({ id: 7, result: { ok: true, response: { name: 'ws', transport: 'websocket' } } });

    const bad = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    ws.send(JSON.stringify({ id: 8, channel: 'documents.read', request: { path: '../../secret.txt' } }));
    expect(await bad).toMatchObject({ id: 8, result: { ok: false, error: { code: 'invalid_request' } } });

    const pushed = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    const created = await host.handle('documents.create', { kind: 'crew', name: 'Pushed' });
    expect(created.ok).toBe(true);
    expect(await pushed).toEqual({ push: { kind: 'documents.changed' } });
    ws.close();
  });
});

describe('browser mode: a renderer folder that changes under the server', () => {
  it('answers 404 instead of crashing when the app is missing (a rebuild in progress)', async () => {
    const renderer = join(dir, 'renderer');
    rmSync(renderer, { recursive: true, force: true });
    const res = await get(`/?token=${server.token}`);
    expect(res.status).toBe(404);
    expect(res.body).toContain('not found');
    expect((await get(`/assets/app.js?token=${server.token}`)).status).toBe(404);
  });
});
