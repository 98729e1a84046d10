import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ModelCallAborted } from '../../runtime/llm/errors';
import { HashingEmbedder, fnv1a32, hashingWords } from '../../runtime/memory/hashingEmbedder';
import { EmbeddingFailed, EmbeddingResponseInvalid } from '../../runtime/memory/memoryErrors';
import { OpenAIEmbedder, type OpenAIEmbedderOptions } from '../../runtime/memory/openaiEmbedder';
import { embedText, startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}
const norm = (v: number[]) => Math.hypot(...v);

describe('HashingEmbedder', () => {
  const embedder = new HashingEmbedder();

  it('has a stable id and 384 dimensions by default', () => {
    expect(embedder.id).toBe('hashing-v1-384');
    expect(embedder.dimensions).toBe(384);
    expect(new HashingEmbedder({ dimensions: 64 }).id).toBe('hashing-v1-64');
    expect(new HashingEmbedder({ weights: { char: 0 } }).id).toBe('hashing-v1-384-w1,0.5,0');
    expect(() => new HashingEmbedder({ dimensions: 0 })).toThrow(RangeError);
  });

  it('implements FNV-1a 32-bit (reference values)', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
    // UTF-8 bytes, not UTF-16 units: "é" is C3 A9.
    expect(fnv1a32('é')).toBe(Math.imul(Math.imul(0x811c9dc5 ^ 0xc3, 0x01000193) ^ 0xa9, 0x01000193) >>> 0);
  });

  it('normalises text into words: NFKC, lower case, punctuation and apostrophes out', () => {
    expect(hashingWords('Hello, WORLD! Don’t stop—now.')).toEqual(['hello', 'world', 'dont', 'stop', 'now']);
    expect(hashingWords('ｆｕｌｌ　ｗｉｄｔｈ ﬁle')).toEqual(['full', 'width', 'file']);
    expect(hashingWords('?!… --')).toEqual([]);
  });

  it('is deterministic, across instances too', () => {
    const text = 'Solar panels convert sunlight into electricity.';
    const a = embedder.embedSync(text);
    expect(new HashingEmbedder().embedSync(text)).toEqual(a);
    expect(embedder.embedSync(text)).toEqual(a);
    expect(a.filter((v) => v !== 0).length).toBeGreaterThan(50);
    // Known answer: a change to tokenising, hashing or weighting shows up here (bump the id's version then,
    // or stored vectors silently stop matching new ones).
    const hello = embedder.embedSync('Hello, world');
    const nonZero = hello.flatMap((x, i) => (x === 0 ? [] : [[i, Math.round(x * 1e6) / 1e6]]));
    expect(nonZero).toHaveLength(24);
    expect(nonZero.slice(0, 5)).toEqual([[9, 0.108322], [21, -0.108322], [32, 0.108322], [50, -0.108322], [58, 0.536056]]);
  });

  it('returns unit vectors of the configured dimension', async () => {
    for (const dimensions of [16, 384, 1000]) {
      const e = new HashingEmbedder({ dimensions });
      const vectors = await e.embed(['a', 'The quick brown fox', 'x'.repeat(5000), '日本語のテキスト']);
      for (const v of vectors) {
        expect(v).toHaveLength(dimensions);
        expect(norm(v)).toBeCloseTo(1, 10);
      }
    }
  });

  it('places similar texts closer than unrelated ones', () => {
    const base = embedder.embedSync('Solar panels convert sunlight into electricity for the house');
    const similar = embedder.embedSync('The house gets its electricity from solar panel sunlight');
    const morph = embedder.embedSync('solar paneling converts sunlit electrical power');
    const unrelated = embedder.embedSync('The recipe needs two eggs, flour and a pinch of salt');
    const foreign = embedder.embedSync('quantum chromodynamics lecture notes');
    expect(cosine(base, similar)).toBeGreaterThan(0.5);
    // "the" is shared with the unrelated text: lexical overlap of stop words stays small.
    expect(cosine(base, similar)).toBeGreaterThan(cosine(base, unrelated) + 0.3);
    expect(Math.abs(cosine(base, unrelated))).toBeLessThan(0.2);
    expect(Math.abs(cosine(base, foreign))).toBeLessThan(0.1);
    // Character n-grams link inflected forms even without shared whole words.
    expect(cosine(base, morph)).toBeGreaterThan(cosine(base, foreign) + 0.1);
    expect(cosine(base, morph)).toBeGreaterThan(cosine(base, unrelated));
  });

  it('lets word order matter a little through bigrams', () => {
    const a = embedder.embedSync('dog bites man');
    const b = embedder.embedSync('man bites dog');
    const same = cosine(a, b);
    expect(same).toBeLessThan(0.99);
    expect(same).toBeGreaterThan(0.7); // same words, so still close
    // Without the bigram family the two are identical.
    const noBigrams = new HashingEmbedder({ weights: { bigram: 0 } });
    expect(cosine(noBigrams.embedSync('dog bites man'), noBigrams.embedSync('man bites dog'))).toBeCloseTo(1, 10);
  });

  it('weighs words more than character n-grams', () => {
    // "cat" vs "cats": no shared word, shared char n-grams ("<ca", "cat"); with words dominating the
    // similarity stays moderate, and it rises when the char family is weighted up.
    const dflt = cosine(embedder.embedSync('cat'), embedder.embedSync('cats'));
    const charHeavy = new HashingEmbedder({ weights: { word: 0.1, char: 1 } });
    const heavy = cosine(charHeavy.embedSync('cat'), charHeavy.embedSync('cats'));
    expect(dflt).toBeGreaterThan(0.05);
    expect(dflt).toBeLessThan(0.5);
    expect(heavy).toBeGreaterThan(dflt + 0.1);
  });

  it('uses sublinear term frequency (repetition helps, but not linearly)', () => {
    const once = embedder.embedSync('solar wind');
    const many = embedder.embedSync('solar solar solar solar solar solar solar solar wind');
    const solar = embedder.embedSync('solar');
    expect(cosine(many, solar)).toBeGreaterThan(cosine(once, solar));
    expect(cosine(many, embedder.embedSync('wind'))).toBeGreaterThan(0.15);
  });

  it('embeds empty and punctuation-only text as the zero vector', async () => {
    for (const text of ['', '   ', '!!! ... ---']) {
      const v = embedder.embedSync(text);
      expect(v).toHaveLength(384);
      expect(v.every((x) => x === 0)).toBe(true);
    }
    expect(await embedder.embed([])).toEqual([]);
  });

  it('embed() keeps input order and honours an aborted signal', async () => {
    const texts = ['alpha', 'beta', 'gamma'];
    const vectors = await embedder.embed(texts);
    expect(vectors).toEqual(texts.map((t) => embedder.embedSync(t)));
    await expect(embedder.embed(texts, AbortSignal.abort())).rejects.toBeInstanceOf(ModelCallAborted);
  });
});

describe('OpenAIEmbedder against the scripted OpenAI-compatible server', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ embeddingDimensions: 32 });
  });
  afterAll(() => server.close());
  afterEach(() => void (server.requests.length = 0));

  it('splits into batches, asks for floats, and returns vectors in input order', async () => {
    const embedder = new OpenAIEmbedder({ model: 'embed-model', baseUrl: server.baseUrl, apiKey: 'k', batchSize: 4 });
    expect(embedder.dimensions).toBe(0);
    const texts = Array.from({ length: 10 }, (_, i) => `text number ${i} about topic ${i * 7}`);
    const vectors = await embedder.embed(texts);

    const calls = server.requests.filter((r) => r.path === '/v1/embeddings');
    expect(calls.map((c) => c.body.input.length)).toEqual([4, 4, 2]);
    expect(calls.flatMap((c) => c.body.input)).toEqual(texts);
    for (const call of calls) {
      expect(call.body.encoding_format).toBe('float');
      expect(call.body.model).toBe('embed-model');
      expect(call.body).not.toHaveProperty('dimensions');
      expect(call.headers.authorization).toBe('Bearer k');
    }
    expect(vectors).toHaveLength(10);
    vectors.forEach((v, i) => {
      const expected = embedText(texts[i]!, 32);
      expect(v).toHaveLength(32);
      v.forEach((x, d) => expect(x).toBeCloseTo(expected[d]!, 12));
    });
    expect(embedder.dimensions).toBe(32);
    expect(embedder.id).toBe('openai:embed-model');
  });

  it('uses 64 per batch by default and sends nothing for no texts', async () => {
    const embedder = new OpenAIEmbedder({ model: 'm', baseUrl: server.baseUrl });
    expect(await embedder.embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
    await embedder.embed(Array.from({ length: 130 }, (_, i) => `t${i}`));
    expect(server.requests.map((r) => r.body.input.length)).toEqual([64, 64, 2]);
  });

  it('requests dimensions when told to, and includes them in the id', async () => {
    const embedder = new OpenAIEmbedder({ model: 'm', baseUrl: server.baseUrl, dimensions: 8, requestDimensions: true });
    expect(embedder.id).toBe('openai:m:8d');
    const [v] = await embedder.embed(['hello']);
    expect(server.requests[0]!.body.dimensions).toBe(8);
    expect(v).toHaveLength(8);
  });

  it('does not send empty texts; they get zero vectors (with a probe when dimensions are unknown)', async () => {
    const embedder = new OpenAIEmbedder({ model: 'm', baseUrl: server.baseUrl });
    const vectors = await embedder.embed(['', '  ']);
    expect(server.requests.map((r) => r.body.input)).toEqual([['dimension probe']]);
    expect(vectors).toEqual([new Array(32).fill(0), new Array(32).fill(0)]);
    server.requests.length = 0;
    const mixed = await embedder.embed(['one', '', 'two']);
    expect(server.requests.map((r) => r.body.input)).toEqual([['one', 'two']]);
    expect(mixed[1]!.every((x) => x === 0)).toBe(true);
    expect(cosine(mixed[0]!, embedText('one', 32))).toBeCloseTo(1, 10);
    expect(cosine(mixed[2]!, embedText('two', 32))).toBeCloseTo(1, 10);
  });

  it('reads the key from the named environment variable, and says which one is missing', async () => {
    const env = { CREW_EMBED_KEY: 'from-env' };
    await new OpenAIEmbedder({ model: 'm', baseUrl: server.baseUrl, apiKeyEnv: 'CREW_EMBED_KEY', env }).embed(['x']);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer from-env');
    await expect(
      new OpenAIEmbedder({ model: 'm', baseUrl: server.baseUrl, apiKeyEnv: 'CREW_EMBED_KEY', env: {} }).embed(['x']),
    ).rejects.toThrow(/CREW_EMBED_KEY, which is not set/);
    await expect(new OpenAIEmbedder({ model: 'm', env: {} }).embed(['x'])).rejects.toThrow(/No API key/);
  });
});

/** A tiny embeddings server whose replies each test scripts. */
interface Reply {
  status?: number;
  body: unknown;
  delayMs?: number;
  headers?: Record<string, string>;
}
describe('OpenAIEmbedder against a misbehaving server', () => {
  let server: Server;
  let baseUrl: string;
  let requests: Array<{ input: string[]; encoding_format?: string }>;
  let respond: (input: string[], n: number) => Reply;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        const body = JSON.parse(text);
        requests.push(body);
        const reply = respond(body.input, requests.length);
        const send = () => sendJson(res, reply.status ?? 200, reply.body, reply.headers);
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  afterEach(() => {
    requests = [];
  });
  requests = [];

  const sleeps: number[] = [];
  function embedder(options: Partial<OpenAIEmbedderOptions> = {}): OpenAIEmbedder {
    sleeps.length = 0;
    return new OpenAIEmbedder({
      model: 'local-embed',
      baseUrl,
      sleep: async (ms) => void sleeps.push(ms),
      ...options,
    });
  }
  const list = (vectors: unknown[], withIndex = true) => ({
    object: 'list',
    model: 'local-embed',
    data: vectors.map((embedding, index) => ({ object: 'embedding', embedding, ...(withIndex ? { index } : {}) })),
  });

  it('normalises vectors to unit length', async () => {
    respond = () => ({ body: list([[3, 4], [0, 10]]) });
    const vectors = await embedder().embed(['a', 'b']);
    expect(vectors[0]![0]).toBeCloseTo(0.6, 12);
    expect(vectors[0]![1]).toBeCloseTo(0.8, 12);
    expect(vectors[1]).toEqual([0, 1]);
    expect(requests[0]!.encoding_format).toBe('float');
  });

  it('puts vectors in input order by their index even when the server shuffles them', async () => {
    respond = (input) => ({
      body: {
        object: 'list',
        data: input.map((t, index) => ({ object: 'embedding', index, embedding: [Number(t), 1] })).reverse(),
      },
    });
    const vectors = await embedder({ batchSize: 3 }).embed(['1', '2', '3', '4', '5']);
    expect(vectors.map((v) => v[0]! / v[1]!)).toEqual([1, 2, 3, 4, 5].map((n) => expect.closeTo(n, 10)));
    expect(requests.map((r) => r.input)).toEqual([['1', '2', '3'], ['4', '5']]);
  });

  it('decodes base64 vectors from a server that ignores encoding_format', async () => {
    const b64 = Buffer.from(new Float32Array([1, 2, 2]).buffer).toString('base64');
    respond = () => ({ body: list([b64]) });
    const [v] = await embedder().embed(['a']);
    expect(v!.map((x) => x * 3)).toEqual([1, 2, 2].map((n) => expect.closeTo(n, 6)));
  });

  it('turns a server error into EmbeddingFailed naming the status and the server message', async () => {
    respond = () => ({ status: 400, body: { error: { message: 'model "nope" not found', type: 'invalid_request_error' } } });
    const error = await embedder().embed(['a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingFailed);
    expect((error as EmbeddingFailed).status).toBe(400);
    expect((error as Error).message).toMatch(/400/);
    expect((error as Error).message).toMatch(/model "nope" not found/);
    expect(requests).toHaveLength(1); // 400 is not retried
  });

  it('understands Ollama-style string errors', async () => {
    respond = () => ({ status: 404, body: { error: 'model "x" not found, try pulling it first' } });
    await expect(embedder().embed(['a'])).rejects.toThrow(/404 model "x" not found, try pulling it first/);
  });

  it('retries 5xx and 429 (honouring retry-after-ms), then succeeds', async () => {
    respond = (_input, n) =>
      n === 1
        ? { status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after-ms': '1234' } }
        : n === 2
          ? { status: 503, body: { error: { message: 'busy' } } }
          : { body: list([[1, 0]]) };
    const e = embedder();
    expect(await e.embed(['a'])).toEqual([[1, 0]]);
    expect(requests).toHaveLength(3);
    expect(sleeps[0]).toBe(1234);
    expect(sleeps).toHaveLength(2);
  });

  it('gives up after maxRetries with the status in the error', async () => {
    respond = () => ({ status: 500, body: { error: { message: 'exploded' } } });
    const error = await embedder({ maxRetries: 2 }).embed(['a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingFailed);
    expect((error as EmbeddingFailed).status).toBe(500);
    expect((error as Error).message).toMatch(/500 exploded.*gave up after 3 attempts/);
    expect(requests).toHaveLength(3);
  });

  it('rejects a response with the wrong number of vectors', async () => {
    respond = () => ({ body: list([[1, 2]]) });
    const error = await embedder().embed(['a', 'b']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingResponseInvalid);
    expect(error).toBeInstanceOf(EmbeddingFailed);
    expect((error as Error).message).toMatch(/1 vector\(s\) for 2 input\(s\)/);
  });

  it('rejects vectors whose dimensions differ from the configured or the first-seen ones', async () => {
    respond = () => ({ body: list([[1, 2, 3]]) });
    await expect(embedder({ dimensions: 4 }).embed(['a'])).rejects.toThrow(/3 dimensions, expected 4/);

    respond = () => ({ body: list([[1, 2], [1, 2, 3]]) });
    const error = await embedder().embed(['a', 'b']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingResponseInvalid);
    expect((error as Error).message).toMatch(/vector 1 has 3 dimensions, expected 2/);

    const e = embedder({ batchSize: 1 });
    requests = [];
    respond = (_input, n) => ({ body: list([n === 1 ? [1, 2] : [1, 2, 3]]) });
    await expect(e.embed(['a', 'b'])).rejects.toThrow(/3 dimensions, expected 2/);
    expect(e.dimensions).toBe(2);
  });

  it('rejects non-numeric vectors', async () => {
    respond = () => ({ body: list([[1, 'x']]) });
    await expect(embedder().embed(['a'])).rejects.toBeInstanceOf(EmbeddingResponseInvalid);
    respond = () => ({ body: { object: 'list' } });
    await expect(embedder().embed(['a'])).rejects.toThrow(/no "data" list/);
  });

  it('aborts an in-flight request with ModelCallAborted', async () => {
    respond = () => ({ body: list([[1, 0]]), delayMs: 2000 });
    const controller = new AbortController();
    const pending = embedder().embed(['a'], controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(ModelCallAborted);
    await expect(embedder().embed(['a'], AbortSignal.abort())).rejects.toBeInstanceOf(ModelCallAborted);
  });

  it('retries a timed-out attempt', async () => {
    // The second attempt must also finish within the timeout: 1 s leaves room for a loaded machine.
    respond = (_input, n) => (n === 1 ? { body: list([[1, 0]]), delayMs: 4000 } : { body: list([[0, 2]]) });
    expect(await embedder({ timeoutMs: 1000 }).embed(['a'])).toEqual([[0, 1]]);
    expect(requests).toHaveLength(2);
  });
});

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
