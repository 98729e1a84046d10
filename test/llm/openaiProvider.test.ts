import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RetryNotice } from '../../runtime/llm/chatModel';
import {
  ContextWindowExceeded,
  ModelCallAborted,
  ModelCallFailed,
} from '../../runtime/llm/errors';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../runtime/llm/openaiProvider';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  server.setHandler(undefined);
  expect(server.queued, 'every queued reply was used').toBe(0);
});

const sleeps: number[] = [];
function model(options: Partial<OpenAIChatModelOptions> = {}): OpenAIChatModel {
  sleeps.length = 0;
  return new OpenAIChatModel({
    model: 'test-model',
    baseUrl: server.baseUrl,
    apiKey: 'test-key',
    stream: false,
    sleep: async (ms) => void sleeps.push(ms),
    ...options,
  });
}
const user = (content: string) => [{ role: 'user' as const, content }];

describe('OpenAIChatModel against the scripted server', () => {
  it('returns a plain reply with the usage the server reported', async () => {
    server.enqueue({ content: 'Hello there', usage: { prompt_tokens: 12, completion_tokens: 3 } });
    const reply = await model().chat({ messages: user('Hi') });
    expect(reply).toEqual({
      content: 'Hello there',
      toolCalls: [],
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 3, cachedPromptTokens: 0, totalTokens: 15, requests: 1 },
    });
    const request = server.requests[0];
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer test-key');
    expect(request!.body.model).toBe('test-model');
    expect(request!.body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
    expect(request!.body).not.toHaveProperty('tools');
    expect(request!.body.stream ?? false).toBe(false);
  });

  it('maps messages, tools, response format, stop, temperature and max tokens', async () => {
    server.enqueue({ content: '{"ok":true}' });
    await model({ temperature: 0.3, maxTokens: 50 }).chat({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_9', name: 'weather', arguments: '{"city":"Oslo"}' }] },
        { role: 'tool', content: 'rainy', toolCallId: 'call_9' },
      ],
      tools: [{ name: 'weather', description: 'Gets weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
      stop: ['Observation:'],
      maxTokens: 20,
    });
    const body = server.requests[0]!.body;
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_9', content: 'rainy' },
    ]);
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'weather', description: 'Gets weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    ]);
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } });
    expect(body.stop).toEqual(['Observation:']);
    expect(body.temperature).toBe(0.3);
    // A compatible server gets max_tokens; the request's value wins over the model's.
    expect(body.max_tokens).toBe(20);
    expect(body).not.toHaveProperty('max_completion_tokens');
  });

  it('returns native tool calls', async () => {
    server.enqueue({ toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }, { name: 'clock', arguments: '{}' }] });
    const reply = await model().chat({
      messages: user('Weather in Paris?'),
      tools: [{ name: 'weather', description: 'w', parameters: { type: 'object' } }],
    });
    expect(reply.finishReason).toBe('tool_calls');
    expect(reply.content).toBe('');
    expect(reply.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ['weather', '{"city":"Paris"}'],
      ['clock', '{}'],
    ]);
    expect(reply.toolCalls[0]!.id).toMatch(/^call_\d+$/);
    expect(reply.toolCalls[0]!.id).not.toBe(reply.toolCalls[1]!.id);
  });

  it('streams text through onChunk and reads usage, cached tokens included, from the last chunk', async () => {
    // Long enough to stream in pieces while keys are registered: deltas are passed on a margin behind the
    // reply (longer than any form of a key), so a key split over deltas is cut before it shows.
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(60).trim();
    server.enqueue({ content: text, usage: { prompt_tokens: 100, completion_tokens: 11, cached: 64 } });
    const chunks: string[] = [];
    const reply = await model({ stream: true }).chat({ messages: user('Tell me'), onChunk: (d) => chunks.push(d) });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(text);
    expect(reply.content).toBe(text);
    expect(reply.usage).toEqual({ promptTokens: 100, completionTokens: 11, cachedPromptTokens: 64, totalTokens: 111, requests: 1 });
    const body = server.requests[0]!.body;
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it('accumulates streamed tool-call deltas by index', async () => {
    server.enqueue({ toolCalls: [{ name: 'search', arguments: { query: 'crew ai', limit: 3 } }, { name: 'clock', arguments: {} }] });
    const reply = await model({ stream: true }).chat({
      messages: user('Find it'),
      tools: [{ name: 'search', description: 's', parameters: { type: 'object' } }],
    });
    expect(reply.finishReason).toBe('tool_calls');
    expect(reply.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['search', { query: 'crew ai', limit: 3 }],
      ['clock', {}],
    ]);
  });

  it('passes malformed tool-call arguments through raw (streamed and not)', async () => {
    server.enqueue(
      { toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }], fault: { kind: 'malformed_tool_args' } },
      { toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }], fault: { kind: 'malformed_tool_args' } },
    );
    const plain = await model().chat({ messages: user('x') });
    const streamed = await model({ stream: true }).chat({ messages: user('x') });
    expect(plain.toolCalls[0]!.arguments).toBe("{'city':'Paris',}");
    expect(streamed.toolCalls[0]!.arguments).toBe("{'city':'Paris',}");
  });

  it('returns an empty reply as it is', async () => {
    server.enqueue({ content: 'ignored', fault: { kind: 'empty' } }, { fault: { kind: 'empty' } });
    for (const stream of [false, true]) {
      const reply = await model({ stream }).chat({ messages: user('x') });
      expect(reply.content).toBe('');
      expect(reply.toolCalls).toEqual([]);
      expect(reply.finishReason).toBe('stop');
    }
  });

  it('retries a 429 after the Retry-After the server sent, and reports it through onRetry', async () => {
    server.enqueue({ fault: { kind: '429', retryAfterSeconds: 7 } }, { fault: { kind: '429', retryAfterMs: 1234 } }, { content: 'finally' });
    const notices: RetryNotice[] = [];
    const m = model();
    const reply = await m.chat({ messages: user('x'), onRetry: (n) => notices.push(n) });
    expect(reply.content).toBe('finally');
    expect(notices).toEqual([
      { attempt: 1, status: 429, error: expect.stringContaining('Rate limit'), delayMs: 7000 },
      { attempt: 2, status: 429, error: expect.stringContaining('Rate limit'), delayMs: 1234 },
    ]);
    expect(sleeps).toEqual([7000, 1234]);
    expect(server.requests).toHaveLength(3);
  });

  it('really waits a short Retry-After when sleep is not injected', async () => {
    server.enqueue({ fault: { kind: '429', retryAfterSeconds: 1 } }, { content: 'after a second' });
    const m = new OpenAIChatModel({ model: 'test-model', baseUrl: server.baseUrl, apiKey: 'k', stream: false });
    const reply = await m.chat({ messages: user('x') });
    expect(reply.content).toBe('after a second');
  });

  it('retries a stream that ends without a finish reason instead of taking half a reply', async () => {
    server.enqueue({ content: 'Hello world', fault: { kind: 'truncated_stream' } }, { content: 'Hello world' });
    const notices: RetryNotice[] = [];
    const reply = await model({ stream: true }).chat({ messages: user('x'), onRetry: (n) => notices.push(n) });
    expect(reply.content).toBe('Hello world');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.error).toContain('no finish_reason');
  });

  it.each([
    ['a streamed line', true, 'not_json'],
    ['a body', false, 'not_json'],
    ['an HTML page', false, 'html_page'],
  ] as const)('retries %s that is not JSON like a 5xx, quietly, and then succeeds', async (_what, stream, kind) => {
    server.enqueue({ fault: { kind } }, { content: 'recovered' });
    const notices: RetryNotice[] = [];
    const stderr = captureStderr();
    const reply = await model({ stream }).chat({ messages: user('x'), onRetry: (n) => notices.push(n) }).finally(stderr.restore);
    expect(reply.content).toBe('recovered');
    expect(server.requests).toHaveLength(2);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.error).toBe(
      kind === 'html_page'
        ? 'the model server sent a reply that is not valid JSON (first bytes: <html><body><h1>502 Bad Gateway</h1></body></html>)'
        : 'the model server sent a reply that is not valid JSON (first bytes: {not json)',
    );
    // Same backoff as a 5xx after the first failed attempt.
    expect(notices[0]!.delayMs).toBeGreaterThanOrEqual(250);
    expect(notices[0]!.delayMs).toBeLessThanOrEqual(500);
    expect(stderr.text()).toBe('');
  });

  it('gives up on persistent bad JSON with the first bytes, cut to 200 characters and redacted', async () => {
    const junk = ` Authorization: Bearer abc.def-123 test-key ${'x'.repeat(300)}`;
    for (let i = 0; i < 3; i++) server.enqueue({ fault: { kind: 'not_json', text: junk } });
    const stderr = captureStderr();
    const error = await model({ stream: true, maxRetries: 2 })
      .chat({ messages: user('x') })
      .catch((e: unknown) => e)
      .finally(stderr.restore);
    expect(error).toBeInstanceOf(ModelCallFailed);
    const message = (error as Error).message;
    expect(message).toMatch(/^the model server sent a reply that is not valid JSON \(first bytes: \{not json Authorization: Bearer \*\*\* \*\*\* x+…\) \(gave up after 3 attempts\)$/);
    expect(message).not.toContain('abc.def');
    expect(message).not.toContain('test-key');
    expect(/first bytes: (.*)\) \(gave/.exec(message)![1]!.length).toBeLessThanOrEqual(201);
    expect(server.requests).toHaveLength(3);
    expect(stderr.text()).toBe('');
  });

  it('retries a 500 with exponential backoff and then succeeds', async () => {
    server.enqueue({ fault: { kind: '500' } }, { fault: { kind: '500' } }, { content: 'recovered' });
    const notices: RetryNotice[] = [];
    const reply = await model().chat({ messages: user('x'), onRetry: (n) => notices.push(n) });
    expect(reply.content).toBe('recovered');
    expect(notices.map((n) => [n.attempt, n.status])).toEqual([
      [1, 500],
      [2, 500],
    ]);
    // Base 500 ms doubling, with jitter keeping at least half of it.
    expect(notices[0]!.delayMs).toBeGreaterThanOrEqual(250);
    expect(notices[0]!.delayMs).toBeLessThanOrEqual(500);
    expect(notices[1]!.delayMs).toBeGreaterThanOrEqual(500);
    expect(notices[1]!.delayMs).toBeLessThanOrEqual(1000);
  });

  it('gives up after maxRetries with ModelCallFailed carrying the status', async () => {
    server.enqueue({ fault: { kind: '500' } }, { fault: { kind: '500' } }, { fault: { kind: '500' } });
    const notices: RetryNotice[] = [];
    const error = await model({ maxRetries: 2 })
      .chat({ messages: user('x'), onRetry: (n) => notices.push(n) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallFailed);
    expect((error as ModelCallFailed).status).toBe(500);
    expect((error as Error).message).toMatch(/after 3 attempts/);
    expect(notices).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400 context-length error and maps it to ContextWindowExceeded', async () => {
    server.enqueue({ fault: { kind: 'context_length' } });
    const error = await model().chat({ messages: user('x') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowExceeded);
    expect((error as ContextWindowExceeded).status).toBe(400);
    expect((error as ContextWindowExceeded).code).toBe('context_length_exceeded');
    expect(server.requests).toHaveLength(1);
  });

  it('aborts an in-flight call', async () => {
    server.enqueue({ content: 'too late', delayMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await model({ stream: true }).chat({ messages: user('x'), signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallAborted);
  });

  it('aborts while waiting to retry', async () => {
    server.enqueue({ fault: { kind: '429', retryAfterSeconds: 30 } });
    const controller = new AbortController();
    const m = new OpenAIChatModel({ model: 'test-model', baseUrl: server.baseUrl, apiKey: 'k', stream: false });
    const error = await m
      .chat({ messages: user('x'), signal: controller.signal, onRetry: () => setTimeout(() => controller.abort(), 50) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallAborted);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a slow attempt and retries it', async () => {
    // The second attempt must also finish within the timeout: 1 s leaves room for a loaded machine.
    server.enqueue({ content: 'slow', delayMs: 4000 }, { content: 'fast' });
    const notices: RetryNotice[] = [];
    const reply = await model({ timeoutMs: 1000, maxRetries: 1 }).chat({ messages: user('x'), onRetry: (n) => notices.push(n) });
    expect(reply.content).toBe('fast');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.status).toBeUndefined();
    expect(notices[0]!.error).toMatch(/within 1000 ms|timed out/i);
  });

  it('retries connection errors', async () => {
    const closed = await startScriptedServer();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const notices: RetryNotice[] = [];
    const error = await model({ baseUrl, maxRetries: 1 })
      .chat({ messages: user('x'), onRetry: (n) => notices.push(n) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallFailed);
    expect((error as ModelCallFailed).status).toBeUndefined();
    expect(notices).toHaveLength(1);
  });

  it('sends a placeholder key to a keyless local server', async () => {
    server.enqueue({ content: 'ok' });
    const m = new OpenAIChatModel({ model: 'llama3', baseUrl: server.baseUrl, stream: false, env: {} });
    expect((await m.chat({ messages: user('x') })).content).toBe('ok');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer not-needed');
  });

  it('reads OPENAI_API_KEY and OPENAI_BASE_URL from its environment', async () => {
    server.enqueue({ content: 'from env' });
    const m = new OpenAIChatModel({ model: 'm', stream: false, env: { OPENAI_API_KEY: 'env-key', OPENAI_BASE_URL: server.baseUrl } });
    expect((await m.chat({ messages: user('x') })).content).toBe('from env');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer env-key');
  });

  it('fails clearly without a key or a base URL', async () => {
    const m = new OpenAIChatModel({ model: 'gpt-4.1-mini', env: {} });
    const error = await m.chat({ messages: user('x') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallFailed);
    expect((error as Error).message).toContain('OPENAI_API_KEY');
  });

  it('uses native tools and streaming by default, and reports them', () => {
    const m = new OpenAIChatModel({ model: 'm', apiKey: 'k' });
    expect(m.supportsNativeTools).toBe(true);
    expect(new OpenAIChatModel({ model: 'm', apiKey: 'k', nativeTools: false }).supportsNativeTools).toBe(false);
    expect([m.provider, m.model]).toEqual(['openai', 'm']);
  });
});

/** What is written to stderr (console.error included) until `restore`. */
function captureStderr(): { text(): string; restore(): void } {
  const chunks: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const error = console.error;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  console.error = (...args: unknown[]) => void chunks.push(args.map(String).join(' '));
  return {
    text: () => chunks.join(''),
    restore: () => {
      process.stderr.write = write;
      console.error = error;
    },
  };
}
