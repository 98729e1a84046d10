import { DEFAULT_SEARCH_RESULTS, SEARCH_PROVIDER_INFO, WebSearchConfigSchema, type WebSearchConfig } from '../../shared/model/toolConfig';
import { registerSecret } from '../redactSecrets';
import { callProvider } from './providerRequest';
import { formatResults, SEARCH_APIS } from './searchProviders';
import { defineTool, ToolError } from './tool';

const PARAMETERS = {
  type: 'object',
  properties: { query: { type: 'string', minLength: 1, description: 'What to search the web for.' } },
  required: ['query'],
  additionalProperties: false,
};

/** The settings of a call (checked by the document's schema; read again here, defaults applied). */
function settings(config: Record<string, unknown>): WebSearchConfig & { provider: NonNullable<WebSearchConfig['provider']> } {
  const parsed = WebSearchConfigSchema.safeParse(config);
  if (!parsed.success) throw new ToolError(`web_search settings are invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return { ...parsed.data, provider: parsed.data.provider ?? 'serper' };
}

function describe(config: Record<string, unknown>): string {
  const { provider, resultCount, searchType } = settings(config);
  const news = searchType === 'news' ? ' news' : '';
  return `Search the web${news} with ${SEARCH_PROVIDER_INFO[provider].label} and return the top ${resultCount ?? DEFAULT_SEARCH_RESULTS} results, each as a title, a link and a snippet.`;
}

/**
 * `web_search`: one query to Serper, Tavily, Brave or Exa (settings: `provider`, `resultCount`,
 * `searchType`, `country`, `location`, `locale`, `baseUrl`). The key comes from the provider's usual
 * variable; without it only this call fails, naming the variable. The provider's own host is reached
 * as any public host; a `baseUrl` elsewhere was held by workspace trust before the run opened, and is
 * reached whatever its address.
 */
export const webSearchTool = defineTool({
  name: 'web_search',
  description: describe({}),
  parameters: PARAMETERS,
  forConfig: (config) => ({ description: describe(config), parameters: PARAMETERS }),
  async execute(args, ctx) {
    const config = settings(ctx.config);
    const info = SEARCH_PROVIDER_INFO[config.provider];
    const env = ctx.services?.env ?? process.env;
    const key = env[info.keyVariable];
    if (!key) {
      throw new ToolError(`web_search needs the ${info.label} API key in ${info.keyVariable}, which is not set; set it in the environment (or the app's API keys) and run again`);
    }
    registerSecret(key);
    const query = { query: String(args.query), count: config.resultCount ?? DEFAULT_SEARCH_RESULTS, news: config.searchType === 'news', config };
    const api = SEARCH_APIS[config.provider];
    const base = config.baseUrl ?? info.baseUrl;
    const body = await callProvider({
      label: info.label,
      keyVariable: info.keyVariable,
      key,
      request: api.request(base, key, query),
      signal: ctx.signal,
      trustedHost: config.baseUrl ? new URL(config.baseUrl).host : undefined,
    });
    let results;
    try {
      results = api.results(body, query);
    } catch (error) {
      throw new ToolError(`${info.label}'s answer is not shaped as expected: ${(error as Error).message}`);
    }
    return formatResults(query.query, results.slice(0, query.count));
  },
});
