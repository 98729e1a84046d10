import OpenAI, { APIConnectionError, APIConnectionTimeoutError } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ToolCallRecord } from '../../shared/events';
import type { TokenUsage } from '../../shared/usage';
import { abortableSleep, type Sleep } from './abortableSleep';
import type { ChatModel, ChatRequest, ChatResponse } from './chatModel';
import { ModelCallAborted, ModelCallFailed } from './errors';
import { describeAttemptFailure, finalError, ReplyNotJson } from './openaiErrors';
import { toOpenAIMessages, toOpenAIResponseFormat, toOpenAITools } from './openaiMessages';
import { redactKnown, redactKnownDeep, redactSecrets, registerSecret } from '../redactSecrets';
import { fromWireName } from './toolWireName';
import { redactedDeltas } from './redactedDeltas';
import { nodeHttpFetch } from './nodeHttpFetch';
import { retryDelayMs } from './retryPolicy';

export interface OpenAIChatModelOptions {
  model: string;
  /** Any OpenAI-compatible server (Ollama, LM Studio, vLLM…). Defaults to OPENAI_BASE_URL, then api.openai.com. */
  baseUrl?: string;
  /** Defaults to OPENAI_API_KEY, unless `baseUrl` is set (a server of its own gets a key only when given one). */
  apiKey?: string;
  temperature?: number;
  maxTokens?: number;
  /** Default true. */
  nativeTools?: boolean;
  /** Default true. */
  stream?: boolean;
  /** Per attempt, covering the whole reply (streamed or not). Default 120 000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** Injectable wait between retries (tests). Must reject or resolve promptly on abort. */
  sleep?: Sleep;
  /** Where OPENAI_API_KEY / OPENAI_BASE_URL are read from. Default process.env. */
  env?: NodeJS.ProcessEnv;
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Sent to keyless local servers: the SDK refuses to start without some key. */
const PLACEHOLDER_API_KEY = 'not-needed';

type BaseParams = Omit<ChatCompletionCreateParamsBase, 'stream' | 'stream_options'>;

/** The `openai` provider: OpenAI and any OpenAI-compatible server, through the official SDK. */
export class OpenAIChatModel implements ChatModel {
  readonly provider = 'openai';
  readonly model: string;
  readonly supportsNativeTools: boolean;
  private readonly stream: boolean;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly sleep: Sleep;
  private client?: OpenAI;
  /** The key in use, cut out of error messages in every encoding (a server may echo the Authorization header back). */
  private apiKey?: string;

  constructor(private readonly options: OpenAIChatModelOptions) {
    this.model = options.model;
    this.supportsNativeTools = options.nativeTools ?? true;
    this.stream = options.stream ?? true;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.sleep = options.sleep ?? abortableSleep;
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const client = this.getClient();
    const params = this.buildParams(request);
    const maxAttempts = this.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      if (request.signal?.aborted) throw new ModelCallAborted();
      try {
        return await this.attempt(client, params, request);
      } catch (error) {
        if (error instanceof ModelCallAborted) throw error;
        if (request.signal?.aborted) throw new ModelCallAborted();
        const failure = describeAttemptFailure(error);
        if (this.apiKey) failure.message = redactSecrets(failure.message, [this.apiKey]);
        if (!failure.retryable || attempt >= maxAttempts) throw finalError(failure, attempt);
        const delayMs = retryDelayMs(attempt, failure.headers);
        request.onRetry?.({ attempt, status: failure.status, error: failure.message, delayMs });
        await this.sleep(delayMs, request.signal);
      }
    }
  }

  private getClient(): OpenAI {
    if (this.client) return this.client;
    const env = this.options.env ?? process.env;
    // OPENAI_API_KEY goes only where OPENAI_BASE_URL (or OpenAI) is: a model with a base URL of its own
    // gets a key only through its `apiKeyEnv`, so a document cannot send the key to a server of its choosing.
    const apiKey = this.options.apiKey || (this.options.baseUrl ? undefined : env.OPENAI_API_KEY) || undefined;
    this.apiKey = apiKey;
    registerSecret(apiKey);
    const baseURL = this.options.baseUrl || env.OPENAI_BASE_URL || undefined;
    if (!apiKey && !baseURL) {
      throw new ModelCallFailed(
        `No API key for OpenAI model "${this.model}": set the OPENAI_API_KEY environment variable ` +
          '(or apiKeyEnv in the model settings), or set a baseUrl for a local server that needs no key.',
      );
    }
    this.client = sharedClient(apiKey ?? PLACEHOLDER_API_KEY, baseURL ?? OPENAI_BASE_URL, this.timeoutMs);
    return this.client;
  }

  private buildParams(request: ChatRequest): BaseParams {
    // A key that reached the conversation (a reply or a tool result that echoed it) is never sent back.
    const params: BaseParams = { model: this.model, messages: toOpenAIMessages(redactKnownDeep(request.messages)) };
    if (request.tools && request.tools.length > 0) params.tools = toOpenAITools(request.tools);
    if (request.responseFormat) params.response_format = toOpenAIResponseFormat(request.responseFormat);
    if (request.stop && request.stop.length > 0) params.stop = request.stop;
    const temperature = request.temperature ?? this.options.temperature;
    if (temperature !== undefined) params.temperature = temperature;
    const maxTokens = request.maxTokens ?? this.options.maxTokens;
    if (maxTokens !== undefined) {
      // OpenAI's newer models reject `max_tokens`; most compatible servers only know `max_tokens`.
      if (this.isOpenAIItself()) params.max_completion_tokens = maxTokens;
      else params.max_tokens = maxTokens;
    }
    return params;
  }

  private isOpenAIItself(): boolean {
    const baseURL = this.client?.baseURL ?? OPENAI_BASE_URL;
    return /^https:\/\/api\.openai\.com(\/|$)/.test(baseURL);
  }

  /** One HTTP call, bounded by the timeout and the caller's signal. */
  private async attempt(client: OpenAI, params: BaseParams, request: ChatRequest): Promise<ChatResponse> {
    const controller = new AbortController();
    let timedOut = false;
    const onAbort = () => controller.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    try {
      const response = this.stream
        ? await this.streamed(client, params, controller.signal, request.onChunk)
        : await this.single(client, params, controller.signal);
      // The SDK ends an aborted stream quietly instead of throwing.
      if (controller.signal.aborted) throw new Error('aborted');
      // Tool names travel in a wire-safe form (`mcp:fs/x` → `mcp__fs__x`); give calls their real names back.
      for (const call of response.toolCalls) call.name = fromWireName(call.name, request.tools);
      // A key the server echoed goes no further than here: not into the conversation, the trace or an output.
      response.content = redactKnown(response.content);
      for (const call of response.toolCalls) call.arguments = redactKnown(call.arguments);
      return response;
    } catch (error) {
      if (request.signal?.aborted) throw new ModelCallAborted();
      if (timedOut) throw new APIConnectionTimeoutError({ message: `no complete reply within ${this.timeoutMs} ms` });
      throw error;
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async single(client: OpenAI, params: BaseParams, signal: AbortSignal): Promise<ChatResponse> {
    // The body is read here, not by the SDK: a body that is not JSON (a proxy's HTML page, a cut reply)
    // is then a typed, retried fault that can name its first bytes.
    const response = await client.chat.completions.create({ ...params, stream: false }, { signal }).asResponse();
    const text = await response.text();
    let completion: ChatCompletion;
    try {
      completion = JSON.parse(text) as ChatCompletion;
    } catch {
      throw new ReplyNotJson(text);
    }
    const choice = completion.choices?.[0];
    return {
      content: choice?.message?.content ?? '',
      toolCalls: (choice?.message?.tool_calls ?? []).map(toToolCallRecord),
      finishReason: choice?.finish_reason ?? 'stop',
      usage: toUsage(completion.usage),
    };
  }

  private async streamed(
    client: OpenAI,
    params: BaseParams,
    signal: AbortSignal,
    onChunk: ((delta: string) => void) | undefined,
  ): Promise<ChatResponse> {
    // A stream line that is not JSON: the SDK logs it (to stderr, by default) and throws a bare
    // SyntaxError. This attempt's own client keeps the line instead, for the error message.
    const idle = idleStreamClients(client);
    const own = idle.pop() ?? newStreamClient(client);
    own.unparsed.length = 0;
    try {
      const stream = await own.client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } }, { signal });
      return await this.readStream(stream as AsyncIterable<ChatCompletionChunk>, signal, onChunk);
    } catch (error) {
      if (error instanceof SyntaxError) throw new ReplyNotJson(own.unparsed[0] ?? '');
      throw error;
    } finally {
      // The stream is read to its end (or given up) here: the SDK logs nothing more for it.
      idle.push(own);
    }
  }

  private async readStream(stream: AsyncIterable<ChatCompletionChunk>, signal: AbortSignal, onChunk: ((delta: string) => void) | undefined): Promise<ChatResponse> {
    let content = '';
    let finishReason = '';
    let usage: CompletionUsage | undefined;
    const calls = new Map<number, ToolCallRecord>();
    const deltas = redactedDeltas(onChunk);
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
      if (!choice) continue;
      const text = choice.delta?.content;
      if (text) {
        content += text;
        deltas.push(text);
      }
      for (const delta of choice.delta?.tool_calls ?? []) accumulateToolCall(calls, delta);
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    // A stream that stops without a finish reason was cut off (proxy, server crash): retry it
    // rather than take half a reply for a whole one.
    if (!finishReason && !signal.aborted) {
      throw new APIConnectionError({ message: 'the reply stream ended before the model finished (no finish_reason)' });
    }
    deltas.end();
    const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    return { content, toolCalls, finishReason, usage: toUsage(usage) };
  }
}

interface StreamClient {
  client: OpenAI;
  /** Stream lines the SDK could not parse during the current attempt. */
  unparsed: string[];
}

/**
 * Clients for streamed attempts, each with its own sink for unparsable stream lines, kept for the next
 * attempt of any model on the same shared client (a batch's rows each resolve a model of their own):
 * `withOptions` builds a whole new client (every API resource), which cost more per call than the rest
 * of the provider (docs/PERFORMANCE.md). One per stream in flight.
 */
const streamClients = new WeakMap<OpenAI, StreamClient[]>();

function idleStreamClients(client: OpenAI): StreamClient[] {
  let idle = streamClients.get(client);
  if (!idle) streamClients.set(client, (idle = []));
  return idle;
}

function newStreamClient(client: OpenAI): StreamClient {
  const unparsed: string[] = [];
  return { client: client.withOptions({ logger: keepUnparsedLines(unparsed), logLevel: 'error' }), unparsed };
}

/** The SDK's logger for one streamed attempt: a line it could not parse is kept, other errors still show. */
function keepUnparsedLines(unparsed: string[]): Pick<Console, 'error' | 'warn' | 'info' | 'debug'> {
  const ignore = () => {};
  return {
    error: (message?: unknown, ...rest: unknown[]) => {
      if (typeof message === 'string' && message.startsWith('Could not parse message into JSON')) {
        if (typeof rest[0] === 'string') unparsed.push(rest[0]);
        return;
      }
      if (typeof message === 'string' && message.startsWith('From chunk')) return;
      console.error(message, ...rest);
    },
    warn: ignore,
    info: ignore,
    debug: ignore,
  };
}

function accumulateToolCall(calls: Map<number, ToolCallRecord>, delta: ChatCompletionChunk.Choice.Delta.ToolCall): void {
  const index = delta.index ?? calls.size;
  let call = calls.get(index);
  if (!call) {
    call = { id: '', name: '', arguments: '' };
    calls.set(index, call);
  }
  if (delta.id) call.id = delta.id;
  const name = delta.function?.name;
  // Name arrives whole in the first delta; some servers repeat it in later ones.
  if (name && call.name !== name) call.name += name;
  if (delta.function?.arguments) call.arguments += delta.function.arguments;
  if (!call.id) call.id = `call_${index}`;
}

function toToolCallRecord(call: ChatCompletionMessageToolCall, index: number): ToolCallRecord {
  const id = call.id || `call_${index}`;
  if (call.type === 'custom') return { id, name: call.custom.name, arguments: call.custom.input };
  return { id, name: call.function.name, arguments: call.function.arguments ?? '' };
}

function toUsage(usage: CompletionUsage | null | undefined): TokenUsage {
  const promptTokens = usage?.prompt_tokens ?? 0;
  const completionTokens = usage?.completion_tokens ?? 0;
  return {
    promptTokens,
    completionTokens,
    cachedPromptTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    totalTokens: usage?.total_tokens ?? promptTokens + completionTokens,
    requests: 1,
  };
}

/**
 * Clients by key, base URL and timeout, shared by the runs of a process: constructing an SDK client
 * (its resource objects, headers, options) cost a batch row more CPU than its one call's client work.
 * The SDK's client holds no per-call state. A few are kept, the least recently made dropped first.
 */
const clients = new Map<string, OpenAI>();
const KEPT_CLIENTS = 16;

function sharedClient(apiKey: string, baseURL: string, timeout: number): OpenAI {
  const key = JSON.stringify([apiKey, baseURL, timeout]);
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({ apiKey, baseURL, maxRetries: 0, timeout, fetch: nodeHttpFetch });
    clients.set(key, client);
    if (clients.size > KEPT_CLIENTS) clients.delete(clients.keys().next().value as string);
  }
  return client;
}
