import type { SearchProvider, WebSearchConfig } from '../../shared/model/toolConfig';

/**
 * Each web search provider's request and the shape of its JSON answer, reduced to title / link / snippet
 * results. Pure: `webSearch.ts` sends the request (through the guarded fetch) and formats the results.
 */

export interface SearchResult {
  title: string;
  link: string;
  snippet: string;
  /** News results: when it was published, as the provider says it ("2 hours ago", an ISO date). */
  date?: string;
}

export interface SearchRequest {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface SearchQuery {
  query: string;
  count: number;
  news: boolean;
  config: WebSearchConfig;
}

interface ProviderApi {
  request(base: string, key: string, q: SearchQuery): SearchRequest;
  /** The results in the provider's answer; throws a plain Error naming what is missing when the shape is wrong. */
  results(body: unknown, q: SearchQuery): SearchResult[];
}

const json = (headers: Record<string, string>): Record<string, string> => ({ 'content-type': 'application/json', accept: 'application/json', ...headers });
const join = (base: string, path: string) => new URL(`${base.replace(/\/+$/, '')}${path}`);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const defined = <T extends object>(record: T): T => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;

/** `body.key` as a list of records (missing: empty), or an Error when it is something else. */
function listAt(body: unknown, path: string[]): Record<string, unknown>[] {
  let value: unknown = body;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`"${path.join('.')}" is not a list`);
  return value.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object');
}

function result(title: unknown, link: unknown, snippet: unknown, date?: unknown): SearchResult | undefined {
  if (typeof link !== 'string' || link === '') return undefined;
  // Brave marks the query's words with <strong>: snippets are plain text.
  const plain = (value: unknown) => text(value).replace(/<\/?[a-z][^>]*>/gi, '').replace(/\s+/g, ' ').trim();
  return defined({ title: plain(title) || link, link, snippet: plain(snippet), date: text(date) || undefined });
}

const present = (r: SearchResult | undefined): r is SearchResult => r !== undefined;

export const SEARCH_APIS: Record<SearchProvider, ProviderApi> = {
  /** https://serper.dev — POST /search or /news, X-API-KEY; `organic` or `news` results. */
  serper: {
    request: (base, key, q) => ({
      url: join(base, q.news ? '/news' : '/search'),
      method: 'POST',
      headers: json({ 'x-api-key': key }),
      body: JSON.stringify(defined({ q: q.query, num: q.count, gl: q.config.country, location: q.config.location, hl: q.config.locale })),
    }),
    results: (body, q) => listAt(body, [q.news ? 'news' : 'organic']).map((r) => result(r.title, r.link, r.snippet, r.date)).filter(present),
  },
  /** https://tavily.com — POST /search with a Bearer key; `results` with url and content. */
  tavily: {
    request: (base, key, q) => ({
      url: join(base, '/search'),
      method: 'POST',
      headers: json({ authorization: `Bearer ${key}` }),
      body: JSON.stringify(defined({ query: q.query, max_results: q.count, topic: q.news ? 'news' : 'general', country: q.news ? undefined : q.config.country })),
    }),
    results: (body) => listAt(body, ['results']).map((r) => result(r.title, r.url, r.content, r.published_date)).filter(present),
  },
  /** https://brave.com/search/api — GET /res/v1/web/search or /res/v1/news/search, X-Subscription-Token. */
  brave: {
    request: (base, key, q) => {
      const url = join(base, q.news ? '/res/v1/news/search' : '/res/v1/web/search');
      url.searchParams.set('q', q.query);
      url.searchParams.set('count', String(Math.min(q.count, q.news ? 50 : 20)));
      if (q.config.country) url.searchParams.set('country', q.config.country);
      if (q.config.locale) url.searchParams.set('search_lang', q.config.locale);
      return { url, method: 'GET', headers: { accept: 'application/json', 'x-subscription-token': key } };
    },
    results: (body, q) => listAt(body, q.news ? ['results'] : ['web', 'results']).map((r) => result(r.title, r.url, r.description, q.news ? r.age : undefined)).filter(present),
  },
  /** https://exa.ai — POST /search with x-api-key; asks for highlights to show as snippets. */
  exa: {
    request: (base, key, q) => ({
      url: join(base, '/search'),
      method: 'POST',
      headers: json({ 'x-api-key': key }),
      body: JSON.stringify(defined({ query: q.query, numResults: q.count, type: 'auto', category: q.news ? 'news' : undefined, contents: { highlights: { numSentences: 2 } } })),
    }),
    results: (body) =>
      listAt(body, ['results'])
        .map((r) => result(r.title, r.url, Array.isArray(r.highlights) ? r.highlights.filter((h) => typeof h === 'string').join(' … ') : (r.summary ?? r.text), r.publishedDate))
        .filter(present),
  },
};

/** Results as CrewAI's search tools format them: Title / Link / Snippet lines, `---` between results. */
export function formatResults(query: string, results: readonly SearchResult[]): string {
  if (results.length === 0) return `No results for "${query}".`;
  const entries = results.map((r) => [`Title: ${r.title}`, `Link: ${r.link}`, ...(r.date ? [`Date: ${r.date}`] : []), `Snippet: ${r.snippet}`, '---'].join('\n'));
  return `Search results for "${query}":\n\n${entries.join('\n')}`;
}
