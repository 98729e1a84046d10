import OpenAI from 'openai';
import type { CreateEmbeddingResponse } from 'openai/resources/embeddings';
import { abortableSleep, type Sleep } from '../llm/abortableSleep';
import { ModelCallAborted } from '../llm/errors';
import { describeAttemptFailure } from '../llm/openaiErrors';
import { retryDelayMs } from '../llm/retryPolicy';
import { redactKnown, registerSecret } from '../redactSecrets';
import { EmbeddingFailed, EmbeddingResponseInvalid } from './memoryErrors';
import type { Embedder } from './types';
import type { EmbeddingObserver } from './embeddingMeter';

/** An item of an embeddings response's `data` as the server sent it (untrusted: either field may be anything or missing). */
interface EmbeddingItem {
  index: unknown;
  embedding: unknown;
}

function embeddingItem(item: unknown): EmbeddingItem {
  const fields: { index?: unknown; embedding?: unknown } = item !== null && typeof item === 'object' ? item : {};
  return { index: fields.index, embedding: fields.embedding };
}

export interface OpenAIEmbedderOptions {
  /** e.g. `text-embedding-3-small`, `nomic-embed-text`. */
  model: string;
  /** Any OpenAI-compatible server (Ollama, LM Studio, vLLM…). Defaults to OPENAI_BASE_URL, then api.openai.com. */
  baseUrl?: string;
  /** The API key itself (wins over `apiKeyEnv`). */
  apiKey?: string;
  /**
   * Name of the environment variable holding the key. When given it must be set. When neither this nor
   * `apiKey` is given, OPENAI_API_KEY is used if set — but never sent to a `baseUrl` of the embedder's own.
   */
  apiKeyEnv?: string;
  /**
   * The vector length, when known: every response is checked against it. When omitted it is learned from
   * the first response (`dimensions` is 0 until then; `resolveDimensions()` asks the server).
   */
  dimensions?: number;
  /**
   * Send `dimensions` in the request (OpenAI's text-embedding-3 models shorten their vectors; many local
   * servers reject or ignore it). Default false. Part of `id` when true.
   */
  requestDimensions?: boolean;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Per attempt. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt of each batch (429, 5xx, connection errors). Default 3. */
  maxRetries?: number;
  /** Injectable wait between retries (tests). Must reject or resolve promptly on abort. */
  sleep?: Sleep;
  /** Where API keys and OPENAI_BASE_URL are read from. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Told before and after each request (a run meters and traces them: embeddingMeter.ts). */
  observer?: EmbeddingObserver;
}

export const DEFAULT_EMBEDDING_BATCH_SIZE = 64;
const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Sent to keyless local servers: the SDK refuses to start without some key. */
const PLACEHOLDER_API_KEY = 'not-needed';
/** Embedded once to learn the dimensions when only empty texts were asked for. */
const PROBE_TEXT = 'dimension probe';

/**
 * Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint through the `openai` SDK.
 *
 * Texts are sent in batches of `batchSize`, one request at a time, with `encoding_format: "float"`
 * (the SDK's default, base64, turns float replies of local servers into garbage). Vectors come back in
 * input order, L2-normalised. Empty or whitespace-only texts are not sent (OpenAI rejects them): they get
 * the zero vector, like `HashingEmbedder`. Aborting rejects with `ModelCallAborted`; failures reject with
 * `EmbeddingFailed` (the message names the HTTP status and carries the server's text) or
 * `EmbeddingResponseInvalid`.
 */
export class OpenAIEmbedder implements Embedder {
  /** `openai:<model>`, or `openai:<model>:<dimensions>d` when dimensions are requested from the server. */
  readonly id: string;
  readonly model: string;
  private knownDimensions: number | undefined;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly sleep: Sleep;
  private client?: OpenAI;

  constructor(private readonly options: OpenAIEmbedderOptions) {
    const { model, dimensions, requestDimensions } = options;
    if (!model) throw new EmbeddingFailed('OpenAIEmbedder needs a model name');
    if (dimensions !== undefined && (!Number.isInteger(dimensions) || dimensions < 1)) {
      throw new RangeError(`OpenAIEmbedder dimensions must be a positive integer, got ${dimensions}`);
    }
    if (requestDimensions && dimensions === undefined) {
      throw new RangeError('OpenAIEmbedder requestDimensions needs dimensions');
    }
    const batchSize = options.batchSize ?? DEFAULT_EMBEDDING_BATCH_SIZE;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new RangeError(`OpenAIEmbedder batchSize must be a positive integer, got ${batchSize}`);
    }
    this.model = model;
    this.knownDimensions = dimensions;
    this.batchSize = batchSize;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.sleep = options.sleep ?? abortableSleep;
    this.id = `openai:${model}` + (requestDimensions ? `:${dimensions}d` : '');
  }

  /** The vector length: configured, or learned from the first response; 0 while still unknown. */
  get dimensions(): number {
    return this.knownDimensions ?? 0;
  }

  /** The vector length, asking the server (one short request) if it is not known yet. */
  async resolveDimensions(signal?: AbortSignal): Promise<number> {
    if (this.knownDimensions === undefined) await this.embedBatch([PROBE_TEXT], signal);
    return this.knownDimensions!;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (signal?.aborted) throw new ModelCallAborted('embedding aborted');
    const toSend: number[] = [];
    texts.forEach((text, i) => {
      if (text.trim() !== '') toSend.push(i);
    });
    const vectors = new Array<number[]>(texts.length);
    for (let start = 0; start < toSend.length; start += this.batchSize) {
      const indexes = toSend.slice(start, start + this.batchSize);
      const batch = await this.embedBatch(
        indexes.map((i) => texts[i]!),
        signal,
      );
      // readResponse checked one vector per text sent.
      indexes.forEach((textIndex, k) => (vectors[textIndex] = batch[k]!));
    }
    if (toSend.length < texts.length) {
      const dimensions = await this.resolveDimensions(signal);
      for (let i = 0; i < texts.length; i++) vectors[i] ??= new Array<number>(dimensions).fill(0);
    }
    return vectors;
  }

  /** One batch, retried on retryable failures; vectors validated, normalised and in input order. */
  private async embedBatch(texts: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    const client = this.getClient();
    // A key in a text to embed is never sent (the client registered its own key above).
    const input = texts.map(redactKnown);
    const maxAttempts = this.maxRetries + 1;
    // A run whose budget has no room left makes no request (BudgetReached, as before a model call).
    this.options.observer?.before();
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new ModelCallAborted('embedding aborted');
      let response: CreateEmbeddingResponse;
      try {
        response = await client.embeddings.create(
          {
            model: this.model,
            input,
            encoding_format: 'float',
            ...(this.options.requestDimensions ? { dimensions: this.knownDimensions } : {}),
          },
          { signal },
        );
      } catch (error) {
        if (signal?.aborted) throw new ModelCallAborted('embedding aborted');
        const failure = describeAttemptFailure(error);
        if (!failure.retryable || attempt >= maxAttempts) {
          const suffix = failure.retryable && attempt > 1 ? ` (gave up after ${attempt} attempts)` : '';
          throw new EmbeddingFailed(
            `embedding request to model "${this.model}" failed: ${redactKnown(failure.message)}${suffix}`,
            failure.status,
            failure.code,
          );
        }
        await this.sleep(retryDelayMs(attempt, failure.headers), signal);
        continue;
      }
      const vectors = this.readResponse(response, input.length);
      const reported = (response as { usage?: { prompt_tokens?: unknown } }).usage?.prompt_tokens;
      this.options.observer?.after({
        model: this.model,
        texts: input.length,
        chars: input.reduce((n, text) => n + text.length, 0),
        promptTokens: typeof reported === 'number' && Number.isFinite(reported) && reported >= 0 ? reported : undefined,
        durationMs: performance.now() - started,
      });
      return vectors;
    }
  }

  private readResponse(response: CreateEmbeddingResponse, expected: number): number[][] {
    const data: unknown = (response as { data?: unknown })?.data;
    if (!Array.isArray(data)) {
      throw new EmbeddingResponseInvalid(`embeddings response from model "${this.model}" has no "data" list`);
    }
    if (data.length !== expected) {
      throw new EmbeddingResponseInvalid(
        `embeddings response from model "${this.model}" has ${data.length} vector(s) for ${expected} input(s)`,
      );
    }
    // OpenAI sends `index` for each item; order by it when every item has a distinct valid one.
    const ordered = new Array<unknown>(expected);
    const items = data.map(embeddingItem);
    const hasIndex = (item: EmbeddingItem): item is EmbeddingItem & { index: number } =>
      typeof item.index === 'number' && Number.isInteger(item.index) && item.index >= 0 && item.index < expected;
    if (items.every(hasIndex)) {
      for (const item of items) {
        if (ordered[item.index] !== undefined) {
          throw new EmbeddingResponseInvalid(`embeddings response from model "${this.model}" repeats index ${item.index}`);
        }
        ordered[item.index] = item.embedding;
      }
    } else {
      items.forEach((item, i) => (ordered[i] = item.embedding));
    }
    return ordered.map((raw, i) => {
      const vector = toNumbers(raw);
      if (!vector) {
        throw new EmbeddingResponseInvalid(`embeddings response from model "${this.model}": vector ${i} is not a list of finite numbers`);
      }
      if (this.knownDimensions === undefined) {
        if (vector.length === 0) throw new EmbeddingResponseInvalid(`embeddings response from model "${this.model}": vector ${i} is empty`);
        this.knownDimensions = vector.length;
      } else if (vector.length !== this.knownDimensions) {
        throw new EmbeddingResponseInvalid(
          `embeddings response from model "${this.model}": vector ${i} has ${vector.length} dimensions, expected ${this.knownDimensions}`,
        );
      }
      return normalized(vector);
    });
  }

  private getClient(): OpenAI {
    if (this.client) return this.client;
    const env = this.options.env ?? process.env;
    const { apiKeyEnv } = this.options;
    let apiKey = this.options.apiKey || undefined;
    if (!apiKey && apiKeyEnv) {
      apiKey = env[apiKeyEnv] || undefined;
      if (!apiKey) {
        throw new EmbeddingFailed(
          `embedding model "${this.model}" reads its API key from the environment variable ${apiKeyEnv}, which is not set`,
        );
      }
    }
    // As for chat models: OPENAI_API_KEY never goes to a base URL of the embedder's own.
    if (!this.options.baseUrl) apiKey ??= env.OPENAI_API_KEY || undefined;
    const baseURL = this.options.baseUrl || env.OPENAI_BASE_URL || undefined;
    if (!apiKey && !baseURL) {
      throw new EmbeddingFailed(
        `No API key for embedding model "${this.model}": set OPENAI_API_KEY (or name another variable with apiKeyEnv), ` +
          'or set a baseUrl for a local server that needs no key.',
      );
    }
    registerSecret(apiKey);
    this.client = new OpenAI({
      apiKey: apiKey ?? PLACEHOLDER_API_KEY,
      baseURL: baseURL ?? OPENAI_BASE_URL,
      maxRetries: 0,
      timeout: this.timeoutMs,
    });
    return this.client;
  }
}

/** A float list, or a base64 little-endian float32 string (servers that ignore `encoding_format`). */
function toNumbers(raw: unknown): number[] | undefined {
  let values: unknown[];
  if (Array.isArray(raw)) values = raw;
  else if (typeof raw === 'string') {
    const bytes = Buffer.from(raw, 'base64');
    if (bytes.length === 0 || bytes.length % 4 !== 0) return undefined;
    const floats = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    values = Array.from(floats);
  } else return undefined;
  for (const value of values) if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return values as number[];
}

/** Unit length; a zero vector stays zero. */
function normalized(vector: number[]): number[] {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  return norm > 0 ? vector.map((v) => v / norm) : vector;
}
