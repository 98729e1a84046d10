import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the web search providers' APIs on 127.0.0.1 (a test sets the tool's `baseUrl` to
 * `base`): each answers on its provider's path with its provider's JSON shape, checks the key header the
 * provider uses, and can be told to answer 401 or 429 (with Retry-After) first. Every request is recorded.
 */

export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
}

export interface FakeProviders {
  base: string;
  host: string;
  seen: SeenRequest[];
  /** Answers for the next requests, in order, before the normal answer: a status (with headers). */
  fail(...answers: { status: number; headers?: Record<string, string>; body?: unknown }[]): void;
  close(): Promise<void>;
}

export const FAKE_KEYS = { serper: 'serper-test-key', tavily: 'tvly-test-key', brave: 'brave-test-key', exa: 'exa-test-key' } as const;

/** What each provider's API answers (shapes as its documentation shows them, trimmed). */
function answer(path: string, seen: SeenRequest): unknown {
  const q = String(seen.body?.q ?? seen.body?.query ?? seen.query.q ?? '');
  if (path === '/search' && seen.headers['x-api-key'] === FAKE_KEYS.serper) {
    return {
      searchParameters: { q, type: 'search', engine: 'google' },
      knowledgeGraph: { title: 'Sourdough', type: 'Bread' },
      organic: [
        { title: 'Sourdough bread - Wikipedia', link: 'https://en.wikipedia.org/wiki/Sourdough', snippet: 'Sourdough is bread made by the fermentation of dough using wild lactobacillaceae and yeast.', position: 1 },
        { title: 'How to make sourdough', link: 'https://bakery.example/sourdough', snippet: 'A three-day ferment gives the crumb its open structure.', position: 2, sitelinks: [{ title: 'Starter', link: 'https://bakery.example/starter' }] },
        { title: 'Rye flour guide', link: 'https://flour.example/rye', snippet: 'Rye flour ferments fast.', position: 3 },
      ],
      peopleAlsoAsk: [{ question: 'Is sourdough healthy?', snippet: '…', title: 'x', link: 'https://x.example' }],
      credits: 1,
    };
  }
  if (path === '/news') return { searchParameters: { q, type: 'news' }, news: [{ title: 'Lyon bakery wins prize', link: 'https://news.example/lyon', snippet: 'Maison Pichon won the regional sourdough prize.', date: '2 hours ago', source: 'Le Progrès' }] };
  if (path === '/search' && seen.headers.authorization === `Bearer ${FAKE_KEYS.tavily}`) {
    return { query: q, answer: null, images: [], results: [{ title: 'Sourdough basics', url: 'https://tavily.example/basics', content: 'Sourdough uses a starter of wild yeast.', score: 0.93, raw_content: null }], response_time: 0.42 };
  }
  if (path === '/search' && seen.headers['x-api-key'] === FAKE_KEYS.exa) {
    return { requestId: 'r1', resolvedSearchType: 'neural', results: [{ id: 'https://exa.example/a', title: 'Fermentation science', url: 'https://exa.example/a', publishedDate: '2024-05-01T00:00:00.000Z', author: null, highlights: ['Lactic acid bacteria sour the dough.', 'Yeast raises it.'], highlightScores: [0.4, 0.3] }] };
  }
  if (path === '/res/v1/web/search') {
    return { type: 'search', query: { original: q }, web: { type: 'search', results: [{ title: 'Brave: sourdough', url: 'https://brave.example/sourdough', description: 'Sourdough <strong>bread</strong> explained.', page_age: '2023-01-01' }] } };
  }
  if (path === '/res/v1/news/search') return { type: 'news', results: [{ title: 'Brave news: bakery', url: 'https://brave.example/news', description: 'A bakery opened.', age: '1 day ago' }] };
  return undefined;
}

const KEY_HEADERS: [path: RegExp, header: string, expected: string][] = [
  [/^\/res\/v1\//, 'x-subscription-token', FAKE_KEYS.brave],
  [/^\/news$/, 'x-api-key', FAKE_KEYS.serper],
];

export async function startFakeProviders(): Promise<FakeProviders> {
  const seen: SeenRequest[] = [];
  const failures: { status: number; headers?: Record<string, string>; body?: unknown }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      const request: SeenRequest = { method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined };
      seen.push(request);
      const failure = failures.shift();
      if (failure) {
        res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers }).end(JSON.stringify(failure.body ?? { message: `status ${failure.status}` }));
        return;
      }
      const wrongKey = KEY_HEADERS.find(([path, header, expected]) => path.test(url.pathname) && req.headers[header] !== expected);
      const body = wrongKey ? undefined : answer(url.pathname, request);
      if (body === undefined) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Unauthorized: invalid API key' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    host: new URL(base).host,
    seen,
    fail: (...answers) => failures.push(...answers),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
