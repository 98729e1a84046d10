import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webSearchTool } from '../../runtime/tools/webSearch';
import { ToolError, type ToolContext } from '../../runtime/tools/tool';
import { WorkspaceUntrusted } from '../../runtime/trust/trustErrors';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';
import { FAKE_KEYS, startFakeProviders, type FakeProviders } from '../support/fakeSearchProviders';
import { trustWorkspace } from '../support/trustWorkspace';

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(() => fake.close());
const cleanups: (() => void)[] = [];
afterEach(() => {
  fake.seen.length = 0;
  for (const c of cleanups.splice(0)) c();
});

const ENV = { SERPER_API_KEY: FAKE_KEYS.serper, TAVILY_API_KEY: FAKE_KEYS.tavily, BRAVE_API_KEY: FAKE_KEYS.brave, EXA_API_KEY: FAKE_KEYS.exa };

function ctx(config: Record<string, unknown>, env: NodeJS.ProcessEnv = ENV): ToolContext {
  return { workspace: '/nonexistent', signal: new AbortController().signal, agentRole: 'Researcher', config: { baseUrl: fake.base, ...config }, services: { env } };
}

const search = (config: Record<string, unknown>, query = 'sourdough bread', env?: NodeJS.ProcessEnv) => webSearchTool.execute({ query }, ctx(config, env));

describe('web_search against each provider (a local stand-in shaped like its API)', () => {
  it('Serper: POST /search with X-API-KEY and num/gl/location/hl; organic results as Title/Link/Snippet lines', async () => {
    const out = await search({ provider: 'serper', resultCount: 2, country: 'fr', location: 'Lyon, France', locale: 'fr' });
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0]).toMatchObject({ method: 'POST', path: '/search', headers: { 'x-api-key': FAKE_KEYS.serper }, body: { q: 'sourdough bread', num: 2, gl: 'fr', location: 'Lyon, France', hl: 'fr' } });
    expect(out).toBe(
      [
        'Search results for "sourdough bread":',
        '',
        'Title: Sourdough bread - Wikipedia',
        'Link: https://en.wikipedia.org/wiki/Sourdough',
        'Snippet: Sourdough is bread made by the fermentation of dough using wild lactobacillaceae and yeast.',
        '---',
        'Title: How to make sourdough',
        'Link: https://bakery.example/sourdough',
        'Snippet: A three-day ferment gives the crumb its open structure.',
        '---',
      ].join('\n'),
    );
  });

  it('Serper news: POST /news; news results with their date', async () => {
    const out = await search({ searchType: 'news' }, 'bakery prize');
    expect(fake.seen[0]).toMatchObject({ path: '/news', body: { q: 'bakery prize', num: 10 } });
    expect(out).toContain('Title: Lyon bakery wins prize\nLink: https://news.example/lyon\nDate: 2 hours ago\nSnippet: Maison Pichon won the regional sourdough prize.\n---');
  });

  it('Tavily: POST /search with a Bearer key, max_results and topic', async () => {
    const out = await search({ provider: 'tavily', resultCount: 3, country: 'france' });
    expect(fake.seen[0]).toMatchObject({ method: 'POST', path: '/search', headers: { authorization: `Bearer ${FAKE_KEYS.tavily}` }, body: { query: 'sourdough bread', max_results: 3, topic: 'general', country: 'france' } });
    expect(out).toContain('Title: Sourdough basics\nLink: https://tavily.example/basics\nSnippet: Sourdough uses a starter of wild yeast.\n---');
  });

  it('Brave: GET /res/v1/web/search with X-Subscription-Token, count, country and search_lang', async () => {
    const out = await search({ provider: 'brave', resultCount: 5, country: 'DE', locale: 'de' });
    expect(fake.seen[0]).toMatchObject({ method: 'GET', path: '/res/v1/web/search', headers: { 'x-subscription-token': FAKE_KEYS.brave }, query: { q: 'sourdough bread', count: '5', country: 'DE', search_lang: 'de' } });
    expect(out).toContain('Title: Brave: sourdough\nLink: https://brave.example/sourdough\nSnippet: Sourdough bread explained.\n---');
    await search({ provider: 'brave', searchType: 'news' });
    expect(fake.seen[1]?.path).toBe('/res/v1/news/search');
  });

  it('Exa: POST /search with x-api-key and numResults; highlights are the snippet', async () => {
    const out = await search({ provider: 'exa', resultCount: 4 });
    expect(fake.seen[0]).toMatchObject({ method: 'POST', path: '/search', headers: { 'x-api-key': FAKE_KEYS.exa }, body: { query: 'sourdough bread', numResults: 4, type: 'auto' } });
    expect(out).toContain('Title: Fermentation science\nLink: https://exa.example/a\nDate: 2024-05-01T00:00:00.000Z\nSnippet: Lactic acid bacteria sour the dough. … Yeast raises it.\n---');
  });
});

describe('web_search errors: each a clear tool error', () => {
  it('a missing key names the variable and sends nothing', async () => {
    for (const [provider, variable] of [['serper', 'SERPER_API_KEY'], ['tavily', 'TAVILY_API_KEY'], ['brave', 'BRAVE_API_KEY'], ['exa', 'EXA_API_KEY']] as const) {
      const error = await search({ provider }, 'x', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolError);
      expect((error as Error).message).toMatch(new RegExp(`^web_search needs the .+ API key in ${variable}, which is not set`));
    }
    expect(fake.seen).toHaveLength(0);
  });

  it('401: the provider refused the key, with its message, and the key is not repeated', async () => {
    const error = await search({ provider: 'brave' }, 'x', { ...ENV, BRAVE_API_KEY: 'wrong-brave-key' }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('Brave Search refused the key in BRAVE_API_KEY (HTTP 401: Unauthorized: invalid API key); check that the key is right and active');
    expect((error as Error).message).not.toContain('wrong-brave-key');
  });

  it('429 is retried after the wait its Retry-After asks for, then succeeds', async () => {
    fake.fail({ status: 429, headers: { 'retry-after': '1' }, body: { message: 'rate limited' } });
    const out = await search({ provider: 'serper' });
    expect(fake.seen).toHaveLength(2);
    expect(out).toContain('Title: Sourdough bread - Wikipedia');
  });

  it('429 on every try gives up after three, saying so', async () => {
    fake.fail(...Array.from({ length: 3 }, () => ({ status: 429, headers: { 'retry-after': '0' } })));
    const error = await search({ provider: 'tavily' }).catch((e: unknown) => e);
    expect(fake.seen).toHaveLength(3);
    expect((error as Error).message).toBe('Tavily is rate-limiting this key (HTTP 429): still limited after 3 tries, waiting as its Retry-After asked; try again later');
  });

  it('429 asking for a longer wait than a call waits fails at once', async () => {
    fake.fail({ status: 429, headers: { 'retry-after': '120' } });
    const error = await search({ provider: 'exa' }).catch((e: unknown) => e);
    expect(fake.seen).toHaveLength(1);
    expect((error as Error).message).toBe('Exa is rate-limiting this key (HTTP 429) and asks to wait 120 s, longer than a tool call waits; try again later');
  });
});

describe('web_search in a run', () => {
  const searchCrew = (config: Record<string, unknown>) =>
    crew({
      agents: [
        {
          id: 'r',
          role: 'Researcher',
          goal: 'find facts',
          tools: [{ tool: 'web_search', config: { baseUrl: fake.base, ...config } }],
          llm: scripted({ sequence: [{ toolCalls: [{ name: 'web_search', arguments: { query: 'sourdough' } }] }, 'Final answer: found it'] }),
        },
      ],
      tasks: [{ id: 't', description: 'Search', expectedOutput: 'facts', agentId: 'r' }],
    });

  it('a base URL that is not the provider\'s own host is held until the workspace is trusted', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const doc = searchCrew({});
    const error = await runCrew(doc, { workspace: ws, env: ENV }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkspaceUntrusted);
    expect((error as WorkspaceUntrusted).parts.map((p) => [p.where, p.summary])).toEqual([
      ['document "test-crew" agents.0.tools.0.config.baseUrl', `web_search sends $SERPER_API_KEY and its queries to ${fake.host}, not Serper (Google results)'s own API host`],
    ]);
    expect(fake.seen).toHaveLength(0);

    trustWorkspace(ws.dir, undefined, [doc]);
    const { result, events } = await runCrew(doc, { workspace: ws, env: ENV });
    expect(result.status).toBe('completed');
    expect(ofType(events, 'tool.completed')[0]?.result).toContain('Title: Sourdough bread - Wikipedia');
  });

  it('a missing key fails only that call: an error observation naming the variable, and the run goes on', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const doc = searchCrew({ provider: 'tavily' });
    trustWorkspace(ws.dir, undefined, [doc]);
    const { result, events } = await runCrew(doc, { workspace: ws, env: {} });
    expect(result.status).toBe('completed');
    expect(ofType(events, 'tool.failed')[0]?.error).toMatch(/^web_search needs the Tavily API key in TAVILY_API_KEY, which is not set/);
  });
});
