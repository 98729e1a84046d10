import { defineTool, ToolError, toolKnowledge } from './tool';

/** Text handed back to the model is cut to this many characters unless the settings say otherwise. */
export const PAGE_MAX_CHARS = 20_000;

const URL_ARG = { type: 'string', minLength: 1, description: 'Absolute http:// or https:// URL of the page.' };
const SELECTOR_ARG = { type: 'string', minLength: 1, description: 'CSS selector of the elements to read, e.g. "article h2" or ".price".' };

interface Settings {
  url?: string;
  selector?: string;
  element: boolean;
  maxChars: number;
}

function settings(config: Record<string, unknown>): Settings {
  const url = typeof config.url === 'string' ? config.url : undefined;
  const selector = typeof config.selector === 'string' ? config.selector : undefined;
  const maxChars = typeof config.maxChars === 'number' ? config.maxChars : PAGE_MAX_CHARS;
  return { url, selector, element: config.variant === 'element' || selector !== undefined, maxChars };
}

function shape(config: Record<string, unknown>): { description: string; parameters: Record<string, unknown> } {
  const s = settings(config);
  const properties: Record<string, unknown> = {};
  if (!s.url) properties.url = URL_ARG;
  if (s.element && !s.selector) properties.selector = SELECTOR_ARG;
  const page = s.url ? `the page ${s.url}` : 'a web page';
  const what = s.element ? (s.selector ? `the text of the elements matching "${s.selector}" on ${page}` : `the text of the elements a CSS selector matches on ${page}`) : `${page} as readable text (its main content, without menus and scripts)`;
  return {
    description: `Read ${what}, cut to ${s.maxChars} characters.`,
    parameters: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
  };
}

/**
 * `scrape_website`: a page as readable text (CrewAI's ScrapeWebsiteTool), or with `variant: "element"`
 * / `selector` the text of what a CSS selector matches (ScrapeElementFromWebsiteTool). The URL and the
 * selector may be pinned in the settings; the download is size-capped and goes through the guarded fetch.
 */
export const scrapeWebsiteTool = defineTool({
  name: 'scrape_website',
  ...shape({}),
  forConfig: shape,
  async execute(args, ctx) {
    const s = settings(ctx.config);
    const knowledge = toolKnowledge(ctx, 'scrape_website');
    const url = s.url ?? String(args.url);
    const page = await knowledge.fetchPage(url, { pinned: s.url !== undefined, signal: ctx.signal });
    if (s.element) {
      const selector = s.selector ?? String(args.selector);
      const texts = await knowledge.select(page, selector);
      if (texts.length === 0) throw new ToolError(`no element on ${url} matches the CSS selector "${selector}"`);
      return capped(texts.join('\n'), s.maxChars, page.cut === true);
    }
    const readable = await knowledge.readable(url, page);
    const heading = readable.title ? `${readable.title}\n${url}\n\n` : `${url}\n\n`;
    return capped(`${heading}${readable.text}`, s.maxChars, readable.cut);
  },
});

/** Text cut to `max` characters, saying so; `cut` notes a download that stopped at its size cap. */
function capped(text: string, max: number, cut: boolean): string {
  const notes: string[] = [];
  let out = text;
  if (out.length > max) {
    out = out.slice(0, max);
    notes.push(`the text was cut to its first ${max} characters`);
  }
  if (cut) notes.push('the page is larger than the download limit; only its start was read');
  return notes.length ? `${out}\n\n[${notes.join('; ')}]` : out;
}
