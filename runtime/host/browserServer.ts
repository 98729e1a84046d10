import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { HostChannel, HostPush, HostResult, WireMessage } from '../../shared/host-api';
import type { HostService } from './hostService';
import { SocketBudget } from './socketBudget';

export interface BrowserServerOptions {
  host: HostService;
  /** The built renderer (index.html and assets). */
  rendererDir: string;
  /** 0 picks a free port. */
  port: number;
  /** Fixed token (tests); a random one per start otherwise. */
  token?: string;
}

export interface BrowserServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** Most pushes one WebSocket message carries (a bigger batch is a long parse in the renderer). */
const MAX_PUSH_BATCH = 256;
/**
 * How long pushes gather before they go (half a 60 Hz frame: the renderer folds live events once per
 * animation frame anyway). A run streaming from a fast model pushes every few milliseconds, each in its
 * own turn of the event loop; one message per turn cost the page a task (and a parse) per event or two.
 */
const PUSH_WINDOW_MS = 8;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Browser mode: the renderer and the host API (WebSocket at /api) on 127.0.0.1 only. Every HTTP
 * request and socket needs the per-start token (in the URL, or the cookie set when the page was
 * opened with it); requests from another Origin or for another Host are refused, so other web pages
 * and DNS-rebinding tricks cannot reach the workspace.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  let port = 0;
  const guard = requestGuard(token, () => port);

  const server: Server = createServer((req, res) => {
    const why = guard.refusal(req);
    if (why) return refuse(res, why);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.searchParams.get('token') === token) {
      res.setHeader('Set-Cookie', `${guard.cookieName()}=${token}; HttpOnly; SameSite=Strict; Path=/`);
    }
    serveFile(options.rendererDir, url.pathname, res);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const why = url.pathname !== '/api' ? 'not found' : guard.refusal(req);
    if (why) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${why}\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => acceptSocket(ws, options.host, sockets));
  });

  port = await listen(server, options.port);

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Who may reach the server: this port's Host and Origin only, with the token. `port` is known once it listens. */
function requestGuard(token: string, port: () => number) {
  const origins = () => [`http://127.0.0.1:${port()}`, `http://localhost:${port()}`];
  const hosts = () => [`127.0.0.1:${port()}`, `localhost:${port()}`];
  // One cookie per port: cookies ignore ports, and two `crewdeck serve`s must not overwrite each other's.
  const cookieName = () => `crewdeck_token_${port()}`;
  const refusal = (req: IncomingMessage): string | undefined => {
    if (!hosts().includes(req.headers.host ?? '')) return 'unexpected Host header';
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().includes(origin)) return `requests from ${origin} are not allowed`;
    if (!hasToken(req, token, cookieName())) return 'missing or wrong token: open the URL printed by `crewdeck serve`';
    return undefined;
  };
  return { refusal, cookieName };
}

/** Serves the host API on one page's WebSocket: its requests answered, the host's pushes sent to it. */
function acceptSocket(ws: WebSocket, host: HostService, sockets: Set<WebSocket>): void {
  sockets.add(ws);
  // A page that sends without reading is held to a budget (socketBudget.ts): closed with 1008 past it.
  const budget = new SocketBudget(ws);
  const send = (message: WireMessage) => budget.send(JSON.stringify(message), 'id' in message);
  const pushes = pushQueue(send);
  const unsubscribe = host.subscribe(pushes.add);
  const receive = async (data: RawData) => {
    if (budget.closed) return;
    const message = readRequest(ws, data);
    if (!message) return;
    if (!budget.requestArrived()) return;
    let result: HostResult<HostChannel>;
    try {
      result = await host.handle(message.channel, message.request);
    } catch (error) {
      // handle() never throws by contract; a bug that does must still answer the request (as Electron's runtime does).
      result = { ok: false, error: { code: 'internal', message: error instanceof Error ? error.message : String(error) } };
    }
    pushes.flush();
    send({ id: message.id, result });
  };
  ws.on('message', (data) => void receive(data));
  ws.on('close', () => {
    budget.dispose();
    unsubscribe();
    pushes.stop();
    sockets.delete(ws);
  });
  ws.on('error', () => ws.terminate());
}

/**
 * Pushes gather for PUSH_WINDOW_MS and go together (in order, at most MAX_PUSH_BATCH a message);
 * a response first sends what was pushed before it (`flush`), so order holds.
 */
function pushQueue(send: (message: WireMessage) => void) {
  let queued: HostPush[] = [];
  let scheduled: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (scheduled !== undefined) clearTimeout(scheduled);
    scheduled = undefined;
    if (queued.length === 0) return;
    const batch = queued;
    queued = [];
    const [only] = batch;
    send(only !== undefined && batch.length === 1 ? { push: only } : { pushes: batch });
  };
  const add = (push: HostPush) => {
    queued.push(push);
    if (queued.length >= MAX_PUSH_BATCH) flush();
    else if (scheduled === undefined) scheduled = setTimeout(flush, PUSH_WINDOW_MS);
  };
  const stop = () => {
    if (scheduled !== undefined) clearTimeout(scheduled);
  };
  return { add, flush, stop };
}

/** A message as a request `{ id, channel, request }`; anything else closes the socket (1003). */
function readRequest(ws: WebSocket, data: RawData): { id: number; channel: string; request?: unknown } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(data));
  } catch {
    ws.close(1003, 'messages must be JSON');
    return undefined;
  }
  const message: { id?: unknown; channel?: unknown; request?: unknown } = parsed !== null && typeof parsed === 'object' ? parsed : {};
  if (typeof message.id !== 'number' || typeof message.channel !== 'string') {
    ws.close(1003, 'messages must be { id, channel, request }');
    return undefined;
  }
  return { id: message.id, channel: message.channel, request: message.request };
}

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}

function hasToken(req: IncomingMessage, token: string, cookieName: string): boolean {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const fromCookie = (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === cookieName)?.[1];
  return [url.searchParams.get('token'), fromCookie].some((candidate) => candidate != null && sameSecret(candidate, token));
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function serveFile(root: string, pathname: string, res: ServerResponse): void {
  let relativePath: string;
  try {
    relativePath = decodeURIComponent(pathname);
  } catch {
    return send(res, 400, 'bad path');
  }
  const file = normalize(join(root, relativePath));
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return send(res, 403, 'outside the app');
  // Anything that is not a file is the app itself (client-side routes).
  const target = isFile(file) ? file : join(root, 'index.html');
  const stream = createReadStream(target);
  stream.once('error', (error: NodeJS.ErrnoException) => {
    // The renderer may be rebuilt under a running server: answer, never crash.
    if (!res.headersSent) send(res, error.code === 'ENOENT' ? 404 : 500, error.code === 'ENOENT' ? 'not found (is the app being rebuilt?)' : 'cannot read the file');
    else res.destroy();
  });
  stream.once('open', () => {
    res.writeHead(200, {
      'Content-Type': TYPES[extname(target)] ?? 'application/octet-stream',
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': target.endsWith('index.html') ? 'no-store' : 'max-age=3600',
    });
    stream.pipe(res);
  });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function refuse(res: ServerResponse, why: string): void {
  send(res, 403, `Forbidden: ${why}\n`);
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}
