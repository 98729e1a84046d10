import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted OpenAI-compatible HTTP server for integration tests: the real `openai` SDK talks to it.
 * Chat replies come from a handler (consulted first; returning undefined passes) and then a FIFO queue.
 * With neither, it answers HTTP 500 "script exhausted" so a test fails loudly.
 */

export interface ServerToolCall {
  name: string;
  arguments: string | Record<string, unknown>;
}

export type ServerFault =
  | { kind: '429'; retryAfterSeconds?: number; retryAfterMs?: number }
  | { kind: '500' }
  /** Tool-call arguments as broken JSON (single quotes, trailing comma). */
  | { kind: 'malformed_tool_args' }
  /** No content and no tool calls. */
  | { kind: 'empty' }
  /** 400 with code context_length_exceeded. */
  | { kind: 'context_length' }
  /** Streaming only: part of the text, then the connection ends cleanly with no finish_reason. */
  | { kind: 'truncated_stream' }
  /** HTTP 200 whose body (or, streaming, whose first data line) is `{not json` plus `text`. */
  | { kind: 'not_json'; text?: string }
  /** HTTP 200 with an HTML page instead of JSON, as a proxy in the way sends. */
  | { kind: 'html_page' };

export interface ServerReply {
  content?: string;
  toolCalls?: ServerToolCall[];
  /** Reported exactly; when omitted, estimated deterministically (see `estimateUsage`). */
  usage?: { prompt_tokens: number; completion_tokens: number; cached?: number };
  /** Wait before answering. */
  delayMs?: number;
  fault?: ServerFault;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: any;
  headers: Record<string, string>;
}

export interface ScriptedServerOptions {
  /** Embedding size when the request does not ask for `dimensions`. Default 64. */
  embeddingDimensions?: number;
  /** Ids listed by GET /v1/models; `false`: the server has no such route (404), as some proxies. */
  models?: string[] | false;
}

export interface ScriptedServer {
  /** e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  enqueue(...replies: ServerReply[]): void;
  /** `request` is the request being answered (headers included: a handler may echo what it was sent). */
  setHandler(fn: ((body: any, request: RecordedRequest) => ServerReply | undefined) | undefined): void;
  /** Chat replies still queued. */
  readonly queued: number;
  close(): Promise<void>;
}

export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const queue: ServerReply[] = [];
  const requests: RecordedRequest[] = [];
  let handler: ((body: any, request: RecordedRequest) => ServerReply | undefined) | undefined;
  let completionCount = 0;
  let toolCallCount = 0;
  const dimensionsDefault = options.embeddingDimensions ?? 64;
  const models = options.models ?? ['scripted-model'];

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(`scripted server crashed: ${String(error)}`, 'server_error'));
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const text = await readBody(req);
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      sendJson(res, 400, errorBody('request body is not valid JSON', 'invalid_request_error'));
      return;
    }
    requests.push({ method: req.method ?? 'GET', path, body, headers: flattenHeaders(req) });

    if (req.method === 'POST' && path === '/v1/chat/completions') return chat(body, res, requests[requests.length - 1]!);
    if (req.method === 'POST' && path === '/v1/embeddings') return embeddings(body, res);
    if (req.method === 'GET' && path === '/v1/models' && models !== false) {
      sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'crewdeck-scripted' })),
      });
      return;
    }
    sendJson(res, 404, errorBody(`no route ${req.method} ${path}`, 'invalid_request_error'));
  }

  async function chat(body: any, res: ServerResponse, request: RecordedRequest): Promise<void> {
    const n = ++completionCount;
    const reply = handler?.(body, request) ?? queue.shift();
    if (!reply) {
      sendJson(
        res,
        500,
        errorBody(`scripted server: script exhausted (no queued reply and no handler answer) for chat request #${n}`, 'script_exhausted'),
      );
      return;
    }
    if (reply.delayMs) {
      const completed = await wait(reply.delayMs, res);
      if (!completed) return; // the client went away
    }
    const fault = reply.fault;
    if (fault?.kind === '429') {
      const headers: Record<string, string> = {};
      if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      sendJson(res, 429, errorBody('Rate limit reached (scripted)', 'rate_limit_error', 'rate_limit_exceeded'), headers);
      return;
    }
    if (fault?.kind === '500') {
      sendJson(res, 500, errorBody('The server had an error while processing your request (scripted)', 'server_error'));
      return;
    }
    if (fault?.kind === 'context_length') {
      sendJson(
        res,
        400,
        errorBody(
          "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.",
          'invalid_request_error',
          'context_length_exceeded',
          'messages',
        ),
      );
      return;
    }

    if (fault?.kind === 'not_json' || fault?.kind === 'html_page') {
      const page = fault.kind === 'html_page' ? '<html><body><h1>502 Bad Gateway</h1></body></html>' : `{not json${fault.text ?? ''}`;
      if (body?.stream && fault.kind === 'not_json') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        res.end(`data: ${page}\n\n`);
        return;
      }
      res.writeHead(200, { 'content-type': fault.kind === 'html_page' ? 'text/html' : 'application/json', 'content-length': Buffer.byteLength(page) });
      res.end(page);
      return;
    }

    const empty = fault?.kind === 'empty';
    const content = empty ? '' : (reply.content ?? '');
    const toolCalls = empty
      ? []
      : (reply.toolCalls ?? []).map((call) => {
          const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
          return {
            id: `call_${++toolCallCount}`,
            type: 'function' as const,
            function: { name: call.name, arguments: fault?.kind === 'malformed_tool_args' ? breakJson(args) : args },
          };
        });
    const usage = toWireUsage(reply.usage ?? estimateUsage(body, content, toolCalls.map((c) => c.function)));
    const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
    const id = `chatcmpl-scripted-${n}`;
    const model = typeof body?.model === 'string' ? body.model : 'scripted-model';

    if (body?.stream) {
      streamReply(res, {
        id,
        model,
        content,
        toolCalls,
        finishReason,
        usage: body.stream_options?.include_usage ? usage : undefined,
        truncated: fault?.kind === 'truncated_stream',
      });
      return;
    }
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created: 0,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: content === '' && (empty || toolCalls.length > 0) ? null : content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}), refusal: null },
          finish_reason: finishReason,
          logprobs: null,
        },
      ],
      usage,
    });
  }

  function embeddings(body: any, res: ServerResponse): void {
    const inputs: unknown[] = Array.isArray(body?.input) && typeof body.input[0] !== 'number' ? body.input : [body?.input];
    const dimensions = typeof body?.dimensions === 'number' ? body.dimensions : dimensionsDefault;
    const base64 = body?.encoding_format === 'base64';
    let chars = 0;
    const data = inputs.map((input, index) => {
      const text = typeof input === 'string' ? input : JSON.stringify(input);
      chars += text.length;
      const vector = embedText(text, dimensions);
      return {
        object: 'embedding',
        index,
        embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
      };
    });
    const tokens = Math.ceil(chars / 4);
    sendJson(res, 200, {
      object: 'list',
      data,
      model: body?.model ?? 'scripted-embedding',
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    setHandler: (fn) => void (handler = fn),
    get queued() {
      return queue.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Deterministic unit vector by feature hashing: each lower-cased word adds ±1 to a bucket chosen by
 * its FNV-1a hash, so texts sharing words point in similar directions.
 */
export function embedText(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  for (const word of words) {
    const h = fnv1a(word);
    vector[h % dimensions]! += (h >>> 16) & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) {
    vector[fnv1a(text) % dimensions] = 1;
    return vector;
  }
  return vector.map((v) => v / norm);
}

/** The usage the server reports when a reply gives none: characters / 4, rounded up. */
export function estimateUsage(
  body: any,
  content: string,
  toolCalls: Array<{ name: string; arguments: string }>,
): { prompt_tokens: number; completion_tokens: number } {
  let promptChars = 0;
  for (const m of Array.isArray(body?.messages) ? body.messages : []) {
    promptChars += typeof m?.content === 'string' ? m.content.length : JSON.stringify(m?.content ?? '').length;
  }
  let replyChars = content.length;
  for (const c of toolCalls) replyChars += c.name.length + c.arguments.length;
  return { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: Math.ceil(replyChars / 4) };
}

function toWireUsage(u: { prompt_tokens: number; completion_tokens: number; cached?: number }) {
  return {
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    total_tokens: u.prompt_tokens + u.completion_tokens,
    prompt_tokens_details: { cached_tokens: u.cached ?? 0 },
  };
}

function streamReply(
  res: ServerResponse,
  r: {
    id: string;
    model: string;
    content: string;
    toolCalls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    finishReason: string;
    usage: ReturnType<typeof toWireUsage> | undefined;
    truncated?: boolean;
  },
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ id: r.id, object: 'chat.completion.chunk', created: 0, model: r.model, choices, ...extra })}\n\n`);
  const delta = (d: Record<string, unknown>, finish: string | null = null) => send([{ index: 0, delta: d, finish_reason: finish }]);

  delta({ role: 'assistant', content: '' });
  if (r.truncated) {
    delta({ content: r.content.slice(0, Math.ceil(r.content.length / 2)) });
    res.end();
    return;
  }
  for (const piece of pieces(r.content, 3)) delta({ content: piece });
  r.toolCalls.forEach((call, index) => {
    delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
    for (const piece of pieces(call.function.arguments, 2)) delta({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  delta({}, r.finishReason);
  if (r.usage) send([], { usage: r.usage });
  res.end('data: [DONE]\n\n');
}

/** Up to `count` consecutive slices whose concatenation is `text`. */
function pieces(text: string, count: number): string[] {
  if (!text) return [];
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** `{"a": 1}` → `{'a': 1,}`: what small local models sometimes emit. */
function breakJson(json: string): string {
  return json.replace(/"/g, "'").replace(/\}\s*$/, ',}');
}

function errorBody(message: string, type: string, code: string | null = null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Resolves true after `ms`, or false as soon as the client disconnects. */
function wait(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.once('close', onClose);
  });
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
