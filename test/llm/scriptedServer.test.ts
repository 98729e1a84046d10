import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedText, startScriptedServer, type ScriptedServer } from '../support/scriptedServer';

let server: ScriptedServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startScriptedServer({ embeddingDimensions: 16, models: ['alpha', 'beta'] });
  client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'k', maxRetries: 0 });
});
afterAll(() => server.close());

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);

describe('scripted OpenAI-compatible server', () => {
  it('returns deterministic unit embeddings as floats or base64', async () => {
    const floats = await client.embeddings.create({ model: 'e', input: ['red apple pie', 'apple pie red'], encoding_format: 'float' });
    const [a = [], b = []] = floats.data.map((d) => d.embedding);
    expect(a).toHaveLength(16);
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
    expect(cosine(a!, b!)).toBeCloseTo(1, 6); // same words
    expect(a).toEqual(embedText('red apple pie', 16));
    // The SDK asks for base64 by default and decodes it.
    const decoded = await client.embeddings.create({ model: 'e', input: 'red apple pie' });
    expect(server.requests.at(-1)?.body.encoding_format).toBe('base64');
    decoded.data[0]!.embedding.forEach((v, i) => expect(v).toBeCloseTo(a![i]!, 5));
    const sized = await client.embeddings.create({ model: 'e', input: 'x', dimensions: 5, encoding_format: 'float' });
    expect(sized.data[0]!.embedding).toHaveLength(5);
    expect(cosine(embedText('the cat sat', 64), embedText('stock market crash', 64))).toBeLessThan(0.9);
  });

  it('lists models', async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toEqual(['alpha', 'beta']);
  });

  it('consults the handler before the queue', async () => {
    server.enqueue({ content: 'queued' });
    server.setHandler((body) => (body.messages[0].content === 'special' ? { content: 'handled' } : undefined));
    const ask = (content: string) =>
      client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content }] }).then((r) => r.choices[0]!.message.content);
    expect(await ask('special')).toBe('handled');
    expect(await ask('normal')).toBe('queued');
    server.setHandler(undefined);
  });

  it('fails loudly with HTTP 500 when nothing answers', async () => {
    const error = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect((error as { status?: number }).status).toBe(500);
    expect((error as Error).message).toMatch(/script exhausted/);
  });

  it('reports default usage deterministically', async () => {
    server.enqueue({ content: '12345678' });
    const r = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'abcdefghi' }] });
    expect(r.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, prompt_tokens_details: { cached_tokens: 0 } });
  });
});
