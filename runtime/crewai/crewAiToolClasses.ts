import type { BuiltinToolName } from '../../shared/model/tool';
import { SEARCH_FILE_EXTENSIONS, type SearchFileType } from '../../shared/model/toolConfig';
import type { PyArg } from './pyArg';

/**
 * The crewai_tools classes Crewdeck has a built-in for, with the keyword arguments each reads (as
 * crewai_tools defines them) and the tool setting each becomes. Looked up by `crewAiTools.ts`.
 */

type Read = { value: unknown } | { problem: string } | { skip: true };

export interface KwargSetting {
  /** The key in the tool reference's `config`. */
  config: string;
  read(value: PyArg): Read;
  /** The keyword argument's value on export (undefined: not written). Default: the setting as it is. */
  write?(value: unknown, config: Record<string, unknown>): PyArg | undefined;
}

export interface ToolClassSpec {
  className: string;
  tool: BuiltinToolName;
  /** Settings every reference made from this class has (the provider, the file kind…); not written back as kwargs. */
  fixed: Record<string, unknown>;
  /** The constructor's positional parameters, in order. */
  positional: string[];
  kwargs: Record<string, KwargSetting>;
  /** Keyword arguments the class has that Crewdeck does not use, and why. */
  ignored: Record<string, string>;
  /** Whether a reference with these settings is written back as this class. */
  exportsFrom(config: Record<string, unknown>): boolean;
}

const python = (value: PyArg): value is { $python: string } => value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { $python?: unknown }).$python === 'string';
const shownCode = (value: { $python: string }) => (value.$python.length > 60 ? `${value.$python.slice(0, 60)}…` : value.$python);
const notLiteral = (value: PyArg, expected: string): Read =>
  python(value) ? { problem: `is Python code (\`${shownCode(value)}\`), not ${expected}` } : { problem: `is ${JSON.stringify(value)}, not ${expected}` };

/**
 * A scraping service's class (the model gives the URL): the page is fetched by Crewdeck itself (the
 * guarded fetch, HTML to text), and it is written back as ScrapeWebsiteTool, which needs no service key.
 */
function scrapingService(className: string, ignored: Record<string, string>): ToolClassSpec {
  return { className, tool: 'scrape_website', fixed: {}, positional: [], kwargs: {}, ignored, exportsFrom: () => false };
}

/** A non-empty string literal; `""` and `None` mean "not set", as in crewai_tools. */
function text(value: PyArg): Read {
  if (value === null || value === '') return { skip: true };
  return typeof value === 'string' ? { value } : notLiteral(value, 'a string');
}

function httpUrl(value: PyArg): Read {
  const read = text(value);
  if (!('value' in read)) return read;
  return /^https?:\/\/[^\s/]+/i.test(read.value as string) ? read : { problem: `is "${String(read.value)}", not an http(s) URL` };
}

function wholeNumber(min: number, max: number) {
  return (value: PyArg): Read => {
    if (value === null) return { skip: true };
    if (typeof value !== 'number' || !Number.isInteger(value)) return notLiteral(value, 'a whole number');
    return value >= min && value <= max ? { value } : { problem: `is ${value}, outside ${min}..${max}` };
  };
}

function fraction(value: PyArg): Read {
  if (value === null) return { skip: true };
  if (typeof value !== 'number') return notLiteral(value, 'a number');
  return value >= 0 && value <= 1 ? { value } : { problem: `is ${value}, outside 0..1` };
}

function choice(options: Record<string, string>) {
  return (value: PyArg): Read => {
    const read = text(value);
    if (!('value' in read)) return read;
    const key = String(read.value).toLowerCase();
    return key in options ? { value: options[key] } : { problem: `is "${String(read.value)}", not one of ${Object.keys(options).join(', ')}` };
  };
}

const same = (config: string, read: KwargSetting['read']): KwargSetting => ({ config, read });

const BRAVE_WEB_PATH = '/res/v1/web/search';

const RAG_KWARGS: Record<string, KwargSetting> = {
  limit: same('limit', wholeNumber(1, 20)),
  similarity_threshold: same('minScore', fraction),
};
const RAG_IGNORED: Record<string, string> = {
  config: 'configures CrewAI\'s own embedder and vector store; Crewdeck embeds with the workspace\'s embedder (crewdeck.json memory.embedder) into its knowledge store',
  summarize: 'asks a model to summarise the chunks; Crewdeck returns the chunks with their sources',
  collection_name: 'names a CrewAI vector collection; Crewdeck keeps one knowledge store per workspace',
  adapter: 'is a CrewAI RAG adapter object',
};
const SAVE_FILE = 'writes results to a file; Crewdeck keeps every result in the run\'s trace';

function webSearch(className: string, provider: string, kwargs: Record<string, KwargSetting>, ignored: Record<string, string>): ToolClassSpec {
  const keyVar = provider.toUpperCase() + '_API_KEY';
  return {
    className,
    tool: 'web_search',
    fixed: { provider },
    positional: [],
    kwargs,
    ignored: { api_key: `is a key written in code; Crewdeck reads ${keyVar} from the environment (or the app's API keys)`, ...ignored },
    exportsFrom: (config) => (config.provider ?? 'serper') === provider,
  };
}

function fileSearch(className: string, fileType: SearchFileType, pathKwarg: string): ToolClassSpec {
  return {
    className,
    tool: 'file_search',
    fixed: { fileType },
    positional: [pathKwarg],
    kwargs: { [pathKwarg]: same('path', text), ...RAG_KWARGS },
    ignored: RAG_IGNORED,
    exportsFrom: (config) => fileTypeOf(config) === fileType,
  };
}

/** The kind of file a `file_search` reference searches: its `fileType`, else its pinned path's ending. */
export function fileTypeOf(config: Record<string, unknown>): SearchFileType | undefined {
  if (typeof config.fileType === 'string') return config.fileType as SearchFileType;
  if (typeof config.path !== 'string') return undefined;
  const lower = config.path.toLowerCase();
  for (const [type, endings] of Object.entries(SEARCH_FILE_EXTENSIONS)) if (endings.some((e) => lower.endsWith(e))) return type as SearchFileType;
  return undefined;
}

const isElement = (config: Record<string, unknown>) => config.variant === 'element' || config.selector !== undefined;

export const CREWAI_TOOL_CLASSES: readonly ToolClassSpec[] = [
  webSearch(
    'SerperDevTool',
    'serper',
    {
      n_results: same('resultCount', wholeNumber(1, 100)),
      search_type: same('searchType', choice({ search: 'search', news: 'news' })),
      country: same('country', text),
      location: same('location', text),
      locale: same('locale', text),
      base_url: same('baseUrl', httpUrl),
    },
    { save_file: SAVE_FILE, search_url: 'is the old name of base_url with a path; set base_url' },
  ),
  webSearch(
    'TavilySearchTool',
    'tavily',
    {
      max_results: same('resultCount', wholeNumber(1, 100)),
      topic: { config: 'searchType', read: choice({ general: 'search', news: 'news' }), write: (v) => (v === 'news' ? 'news' : 'general') },
    },
    Object.fromEntries(
      ['search_depth', 'time_range', 'days', 'include_domains', 'exclude_domains', 'include_answer', 'include_raw_content', 'include_images', 'timeout', 'max_content_length_per_result', 'proxies'].map((k) => [k, 'has no Crewdeck web search setting']),
    ),
  ),
  webSearch(
    'BraveSearchTool',
    'brave',
    {
      n_results: same('resultCount', wholeNumber(1, 100)),
      country: same('country', text),
      search_url: {
        config: 'baseUrl',
        read: (value) => {
          const read = httpUrl(value);
          if (!('value' in read)) return read;
          const url = String(read.value).replace(/\/+$/, '');
          return url.endsWith(BRAVE_WEB_PATH) ? { value: url.slice(0, -BRAVE_WEB_PATH.length) } : { problem: `is "${url}", which does not end with ${BRAVE_WEB_PATH}` };
        },
        write: (v) => `${String(v).replace(/\/+$/, '')}${BRAVE_WEB_PATH}`,
      },
    },
    { save_file: SAVE_FILE },
  ),
  ...['EXASearchTool', 'ExaSearchTool'].map((className) =>
    webSearch(
      className,
      'exa',
      { n_results: same('resultCount', wholeNumber(1, 100)), base_url: same('baseUrl', httpUrl) },
      {
        type: 'chooses Exa\'s search type; Crewdeck asks for "auto"',
        content: 'asks Exa for page text; Crewdeck shows a snippet of each result',
        summary: 'asks Exa for summaries; Crewdeck shows a snippet of each result',
        highlights: 'asks Exa for highlights; Crewdeck shows a snippet of each result',
      },
    ),
  ),
  {
    className: 'ScrapeWebsiteTool',
    tool: 'scrape_website',
    fixed: {},
    positional: ['website_url'],
    kwargs: { website_url: same('url', httpUrl) },
    ignored: { cookies: 'sends cookies from the environment; Crewdeck sends none', headers: 'sets request headers; Crewdeck sends its own' },
    exportsFrom: (config) => !isElement(config),
  },
  {
    className: 'ScrapeElementFromWebsiteTool',
    tool: 'scrape_website',
    fixed: { variant: 'element' },
    positional: ['website_url'],
    kwargs: { website_url: same('url', httpUrl), css_element: same('selector', text) },
    ignored: { cookies: 'sends cookies from the environment; Crewdeck sends none', headers: 'sets request headers; Crewdeck sends its own' },
    exportsFrom: isElement,
  },
  scrapingService('SerperScrapeWebsiteTool', { api_key: 'is a Serper key for its scraping API; Crewdeck fetches the page itself', include_markdown: 'asks Serper for Markdown; Crewdeck turns the page into text' }),
  scrapingService('FirecrawlScrapeWebsiteTool', { api_key: 'is a Firecrawl key for its scraping API; Crewdeck fetches the page itself', config: 'sets Firecrawl scrape options; Crewdeck turns the page into text' }),
  {
    className: 'WebsiteSearchTool',
    tool: 'website_search',
    fixed: {},
    positional: ['website'],
    kwargs: { website: same('url', httpUrl), ...RAG_KWARGS },
    ignored: RAG_IGNORED,
    exportsFrom: () => true,
  },
  {
    className: 'FileReadTool',
    tool: 'read_file',
    fixed: {},
    positional: ['file_path'],
    kwargs: { file_path: same('path', text) },
    ignored: {},
    exportsFrom: () => true,
  },
  {
    className: 'DirectoryReadTool',
    tool: 'list_directory',
    fixed: { recursive: true },
    positional: ['directory'],
    kwargs: { directory: same('path', text) },
    ignored: { base_dir: 'widens where listing may reach; Crewdeck lists inside the workspace only' },
    exportsFrom: () => true,
  },
  {
    className: 'FileWriterTool',
    tool: 'write_file',
    fixed: { argumentStyle: 'crewai' },
    positional: [],
    kwargs: { base_dir: same('directory', text) },
    ignored: { encoding: 'chooses a text encoding; Crewdeck writes UTF-8' },
    exportsFrom: () => true,
  },
  fileSearch('CSVSearchTool', 'csv', 'csv'),
  fileSearch('PDFSearchTool', 'pdf', 'pdf'),
  fileSearch('TXTSearchTool', 'txt', 'txt'),
  fileSearch('JSONSearchTool', 'json', 'json_path'),
  fileSearch('DOCXSearchTool', 'docx', 'docx'),
  fileSearch('MDXSearchTool', 'mdx', 'mdx'),
  fileSearch('XMLSearchTool', 'xml', 'xml'),
  fileSearch('DirectorySearchTool', 'directory', 'directory'),
];

/** The class spec by name (`file_read_tool` in a YAML list names `FileReadTool` too). */
export function crewAiToolClass(name: string): ToolClassSpec | undefined {
  const className = /^[A-Z]/.test(name) ? name : name.split(/[_-]+/).filter(Boolean).map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
  const exact = CREWAI_TOOL_CLASSES.find((s) => s.className === className);
  return exact ?? CREWAI_TOOL_CLASSES.find((s) => s.className.toLowerCase() === className.toLowerCase());
}
