import { defineTool, ToolError, toolKnowledge } from './tool';

const QUERY = { type: 'string', minLength: 1, description: 'What to look for in the page (a question or keywords).' };
const URL_ARG = { type: 'string', minLength: 1, description: 'Absolute http:// or https:// URL of the page to search.' };

function shape(config: Record<string, unknown>): { description: string; parameters: Record<string, unknown> } {
  const pinned = typeof config.url === 'string' ? config.url : undefined;
  const properties: Record<string, unknown> = pinned ? { query: QUERY } : { query: QUERY, url: URL_ARG };
  return {
    description: `Search ${pinned ? `the page ${pinned}` : 'a web page'} for the passages that answer a query; returns the best matching passages with their source.`,
    parameters: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
  };
}

/**
 * `website_search`: RAG over one page (CrewAI's WebsiteSearchTool). The page is read as readable text
 * through the guarded fetch, chunked and embedded into the workspace's knowledge store (once per content
 * hash), and the best chunks come back with their source. Settings: `url` (pinned), `limit`, `minScore`.
 */
export const websiteSearchTool = defineTool({
  name: 'website_search',
  ...shape({}),
  forConfig: shape,
  async execute(args, ctx) {
    const knowledge = toolKnowledge(ctx, 'website_search');
    const pinned = typeof ctx.config.url === 'string' ? ctx.config.url : undefined;
    const url = pinned ?? String(args.url);
    const page = await knowledge.readable(url, await knowledge.fetchPage(url, { pinned: pinned !== undefined, signal: ctx.signal }));
    if (page.text.trim() === '') throw new ToolError(`${url} has no text to search`);
    const text = page.title ? `${page.title}\n\n${page.text}` : page.text;
    const settings = { limit: numberSetting(ctx.config.limit), minScore: numberSetting(ctx.config.minScore) };
    return knowledge.searchTexts([{ key: `tool:url:${url}`, name: url, text }], String(args.query), settings, ctx.signal);
  },
});

export function numberSetting(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}
